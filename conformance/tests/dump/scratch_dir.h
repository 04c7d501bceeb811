/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scratch_dir.h - the private directory the capture tests write their files
 * in, opening a writer on one and reading a written file back whole.  One
 * header so both programs create, name and remove their files the same way.
 */
#ifndef IBWIRE_TESTS_SCRATCH_DIR_H
#define IBWIRE_TESTS_SCRATCH_DIR_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "capture.h"
#include "testutil.h"

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static size_t slurp(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* A writer on the scratch file `name`; a failed open counts as a failed
 * check, printed with the writer's reason, and gives NULL. */
static struct cap_writer *scratch_writer(const char *name,
                                         enum cap_file_format fmt, int lt)
{
    char err[256] = "";
    struct cap_writer *w = cap_writer_open(tmp_path(name), fmt, lt, err,
                                           sizeof err);
    TU_CHECK(w != NULL);
    if (!w)
        fprintf(stderr, "  %s: %s\n", name, err);
    return w;
}

/* A fresh directory under $TMPDIR (or /tmp), so parallel runs never share
 * files; 0 on success. */
static int scratch_dir_create(const char *prefix)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/%s-XXXXXX",
             base && *base ? base : "/tmp", prefix);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return -1;
    }
    return 0;
}

/* The named files, then the directory: rmdir fails, leaving it for a look,
 * when a test wrote a file it did not name here. */
static void scratch_dir_remove(const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        unlink(tmp_path(names[i]));
    rmdir(tmpdir);
}

#endif
