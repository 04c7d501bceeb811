/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay_main.c - a stand-in for libFuzzer's driver, linked when the build
 * has no fuzzing engine (-Dfuzzer_ldflags empty).
 *
 * Every argument is a file or a directory (walked recursively, dot-files
 * skipped).  Each file is read into a heap buffer of exactly its size, so
 * ASan sees any read one byte past the input, and handed to
 * LLVMFuzzerTestOneInput.  A harness signals a broken property by abort(),
 * which ends the run; reaching the end means every input passed.  Exit 2
 * when an argument cannot be read: a missing corpus must not pass silently.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1 /* scandir, alphasort */
#endif
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

/* Optional one-time set-up, as libFuzzer calls it. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static unsigned long n_inputs;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return -1;
    }
    size_t got;
    while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        perror(path);
        free(buf);
        return -1;
    }
    /* Exactly len bytes on the heap: an overread lands in the redzone. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    if (len)
        memcpy(exact, buf, len);
    free(buf);
    if (getenv("FUZZ_REPLAY_VERBOSE"))
        fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    n_inputs++;
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    /* Sorted, so that a failing replay is reproducible in the same order. */
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0) {
        perror(path);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.' && rc == 0) {
            size_t need = strlen(path) + strlen(names[i]->d_name) + 2;
            char *child = malloc(need);
            if (!child) {
                rc = -1;
            } else {
                snprintf(child, need, "%s/%s", path, names[i]->d_name);
                rc = run_path(child);
                free(child);
            }
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        /* libFuzzer flags (-runs=0 ...) are accepted and ignored, so the
         * same command line works with either driver. */
        if (argv[i][0] == '-')
            continue;
        if (run_path(argv[i]) != 0)
            return 2;
    }
    fprintf(stderr, "replay: %lu inputs, all passed\n", n_inputs);
    return 0;
}
