/* SPDX-License-Identifier: Apache-2.0 */
/* --help and the man pages, both from a command's struct tool_doc. */
#include "tool_doc.h"

#include <string.h>

#include "ibwire/base.h"
#include "tool.h"

const struct tool_opt *tool_opt_find(const struct tool_opt *opts, const char *a)
{
    for (; opts && opts->name; opts++)
        if (!strcmp(opts->name, a)) {
            while (!opts->help && opts[1].name) /* an alias: its option */
                opts++;
            return opts;
        }
    return NULL;
}

const struct tool_opt *tool_doc_find(const struct tool_doc *d, const char *a)
{
    const struct tool_opt *o = NULL;
    for (int g = 0; !o && g < TOOL_DOC_GROUPS; g++)
        o = tool_opt_find(d->groups[g].opts, a);
    return o;
}

/* --help */

enum { HELP_WIDTH = 79, HELP_COL = 21 };

/* text from column col, continuation lines indented to indent, words
 * wrapped before HELP_WIDTH; backquotes dropped (they mark code for man). */
static void help_wrap(FILE *out, const char *text, int col, int indent)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\n')
            p++;
        size_t n = strcspn(p, " \n");
        if (!n)
            break;
        size_t shown = 0;
        for (size_t k = 0; k < n; k++)
            shown += p[k] != '`';
        if (col > indent && col + 1 + (int)shown > HELP_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        for (size_t k = 0; k < n; k++)
            if (p[k] != '`')
                fputc(p[k], out);
        col += (int)shown;
        p += n;
    }
    fputc('\n', out);
}

static void help_synopsis(const struct tool_doc *d, FILE *out)
{
    const char *p = d->synopsis;
    int first = 1;
    while (*p) {
        size_t n = strcspn(p, "\n");
        int lead = (int)strlen(d->name) + (*d->name ? 8 : 7);
        if (*p == ' ') /* a continuation line */
            fprintf(out, "       %*s%.*s\n", lead, "", (int)n - 1, p + 1);
        else
            fprintf(out, "%s ibwire%s%s %.*s\n", first ? "usage:" : "      ",
                    *d->name ? " " : "", d->name, (int)n, p);
        first = 0;
        p += n + (p[n] == '\n');
    }
}

void tool_doc_help(const struct tool_doc *d, FILE *out)
{
    help_synopsis(d, out);
    if (d->intro)
        fprintf(out, "\n%s\n", d->intro);
    for (int g = 0; g < TOOL_DOC_GROUPS && d->groups[g].opts; g++) {
        fputc('\n', out);
        if (d->groups[g].title)
            fprintf(out, "%s:\n", d->groups[g].title);
        for (const struct tool_opt *o = d->groups[g].opts; o->name; o++) {
            int col = fprintf(out, "  ");
            for (; !o->help && o[1].name; o++) /* an alias, then its option */
                col += fprintf(out, "%s, ", o->name);
            col += fprintf(out, "%s%s%s", o->name, o->arg ? " " : "",
                           o->arg ? o->arg : "");
            if (col >= HELP_COL - 1) {
                fputc('\n', out);
                col = 0;
            }
            fprintf(out, "%*s", HELP_COL - col, "");
            help_wrap(out, o->help ? o->help : "", HELP_COL, HELP_COL);
            if (o->choices) {
                fprintf(out, "%*s", HELP_COL, "");
                int c = HELP_COL + fprintf(out, "one of:");
                for (const char *const *v = o->choices; *v; v++) {
                    if (c + 1 + (int)strlen(*v) > HELP_WIDTH) {
                        c = fprintf(out, "\n%*s", HELP_COL + 2, "") - 1;
                    }
                    c += fprintf(out, " %s", *v);
                }
                fputc('\n', out);
            }
        }
    }
    if (d->exit_status) {
        int col = fprintf(out, "\nExit status:") - 1;
        help_wrap(out, d->exit_status, col, 0);
    }
}

/* man(7) */

/* s[0..n) as roff text: backslash and (in code) minus escaped. */
static void roff_text(FILE *out, const char *s, size_t n, int code)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\')
            fputs("\\e", out);
        else if (s[i] == '-' && code)
            fputs("\\-", out);
        else
            fputc(s[i], out);
    }
}

/* One line of running text: `code` in bold, lines joined, a leading
 * control character defused. */
static void roff_line(FILE *out, const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\n'))
        s++, n--;
    if (n && (*s == '.' || *s == '\''))
        fputs("\\&", out);
    int code = 0, space = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\n' || c == ' ') {
            space = 1;
            continue;
        }
        if (space)
            fputc(' ', out);
        space = 0;
        if (c == '`') {
            fputs(code ? "\\fR" : "\\fB", out);
            code = !code;
            continue;
        }
        roff_text(out, &c, 1, code);
    }
    if (code)
        fputs("\\fR", out);
    fputc('\n', out);
}

/* Prose: paragraphs, bullets and examples (see struct tool_doc). */
static void roff_prose(FILE *out, const char *text)
{
    const char *p = text;
    while (*p) {
        while (*p == '\n')
            p++;
        const char *end = strstr(p, "\n\n");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (!n)
            break;
        if (!strncmp(p, "    ", 4)) {
            fputs(".PP\n.RS 4\n.nf\n", out);
            const char *q = p;
            while (q < p + n) {
                size_t ln = strcspn(q, "\n");
                if (ln > (size_t)(p + n - q))
                    ln = (size_t)(p + n - q);
                const char *t = q + (ln >= 4 ? 4 : ln);
                if (*t == '.' || *t == '\'')
                    fputs("\\&", out);
                roff_text(out, t, ln - (size_t)(t - q), 1);
                fputc('\n', out);
                q += ln + 1;
            }
            fputs(".fi\n.RE\n", out);
        } else if (!strncmp(p, "- ", 2)) {
            fputs(".IP \\(bu 2\n", out);
            roff_line(out, p + 2, n - 2);
        } else {
            fputs(".PP\n", out);
            roff_line(out, p, n);
        }
        p += n;
    }
}

static void roff_upper(FILE *out, const char *s)
{
    for (; *s; s++)
        fputc(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s == '-' ? '-' : *s, out);
}

void tool_doc_man(const struct tool_doc *d, FILE *out)
{
    const char *dash = *d->name ? "-" : "";
    fputs(".\\\" Generated by `ibwire man`; edit conformance/tool, not this file.\n",
          out);
    fputs(".TH \"IBWIRE", out);
    fputs(dash, out);
    roff_upper(out, d->name);
    fprintf(out, "\" 1 \"\" \"ibwire %s\" \"ibwire manual\"\n", IBW_VERSION_STRING);
    fputs(".nh\n", out); /* paths and option names stay whole */
    fprintf(out, ".SH NAME\nibwire%s%s \\- %s\n", *dash ? "\\-" : "", d->name,
            d->summary);
    fputs(".SH SYNOPSIS\n.nf\n", out);
    for (const char *p = d->synopsis; *p;) {
        size_t n = strcspn(p, "\n");
        if (*p == ' ') /* a continuation line */
            fputs("    ", out);
        else
            fprintf(out, "\\fBibwire%s%s\\fR ", *d->name ? " " : "", d->name);
        roff_text(out, p + (*p == ' '), n - (*p == ' '), 1);
        fputc('\n', out);
        p += n + (p[n] == '\n');
    }
    fputs(".fi\n", out);
    if (d->description) {
        fputs(".SH DESCRIPTION\n", out);
        for (const char *const *para = d->description; *para; para++)
            roff_prose(out, *para);
    }
    if (d->groups[0].opts)
        fputs(".SH OPTIONS\n", out);
    for (int g = 0; g < TOOL_DOC_GROUPS && d->groups[g].opts; g++) {
        if (d->groups[g].title)
            fprintf(out, ".SS %s\n", d->groups[g].title);
        for (const struct tool_opt *o = d->groups[g].opts; o->name; o++) {
            fputs(".TP\n", out);
            for (;; o++) {
                fputs("\\fB", out);
                roff_text(out, o->name, strlen(o->name), 1);
                fputs("\\fR", out);
                if (o->help || !o[1].name)
                    break;
                fputs(", ", out); /* an alias, then its option */
            }
            if (o->arg) {
                fputs(" \\fI", out);
                roff_text(out, o->arg, strlen(o->arg), 1);
                fputs("\\fR", out);
            }
            fputc('\n', out);
            if (o->help)
                roff_line(out, o->help, strlen(o->help));
            if (o->choices) {
                fputs(".br\nOne of:\n", out);
                for (const char *const *v = o->choices; *v; v++) {
                    size_t n = strcspn(*v, ":");
                    fputs(".br\n\\fB", out);
                    roff_text(out, *v, n, 1);
                    fputs("\\fR", out);
                    roff_text(out, *v + n, strlen(*v + n), 0);
                    fputc('\n', out);
                }
            }
            if (o->more) {
                fputs(".IP\n", out);
                roff_line(out, o->more, strlen(o->more));
            }
        }
    }
    if (d->exit_status) {
        fputs(".SH EXIT STATUS\n", out);
        roff_prose(out, d->exit_status);
    }
    if (d->examples) {
        fputs(".SH EXAMPLES\n", out);
        roff_prose(out, d->examples);
    }
    if (d->see_also) {
        fputs(".SH SEE ALSO\n", out);
        roff_line(out, d->see_also, strlen(d->see_also));
    }
}

static const struct tool_doc *doc_named(const char *name)
{
    if (!strcmp(name, "ibwire"))
        return &tool_doc_ibwire;
    for (const struct tool_doc *const *d = tool_docs; *d; d++)
        if (!strcmp((*d)->name, name))
            return *d;
    return NULL;
}

/*
 * ibwire man NAME: the man page of NAME ("ibwire" for ibwire(1)) on
 * stdout; --list: the page names; --options NAME: every option of NAME's
 * tables, one a line (the suite compares them with the page and --help).
 * Not listed in the command list: the build and the suite use it.
 */
int cmd_man(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        puts("ibwire");
        for (const struct tool_doc *const *d = tool_docs; *d; d++)
            printf("ibwire-%s\n", (*d)->name);
        return TOOL_EXIT_OK;
    }
    const char *name = argc == 2 ? argv[1]
                       : argc == 3 && !strcmp(argv[1], "--options") ? argv[2]
                                                                   : NULL;
    const struct tool_doc *d = name ? doc_named(name) : NULL;
    if (!d) {
        fprintf(stderr, "usage: ibwire man NAME | --options NAME | --list\n");
        return TOOL_EXIT_USAGE;
    }
    if (argc == 2) {
        tool_doc_man(d, stdout);
        return TOOL_EXIT_OK;
    }
    for (int g = 0; g < TOOL_DOC_GROUPS && d->groups[g].opts; g++)
        for (const struct tool_opt *o = d->groups[g].opts; o->name; o++)
            puts(o->name);
    return TOOL_EXIT_OK;
}
