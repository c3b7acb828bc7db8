/* tm-cli-private.h — what the files of the command line share, and its
 * test-only entry point
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tm-profile.h"
#include "tm-run-summary.h"

G_BEGIN_DECLS

/* tm-cli.c */

/* tm_cli_run(), but the last profile is freed before it returns, as in
 * sanitizer builds, so that a leak checker run on the program sees every
 * free (tests/tidemark-cli-freeing.c; docs/performance.md). */
int  tm_cli_run_freeing      (int    argc,
                              char **argv);

/* tm-cli-summary.c */

/* The text summary of one profile, on standard output. */
void tm_cli_print_summary    (TmProfile *profile,
                              guint     *n_replaced);
/* The warning on standard error when n_replaced bytes of path's names were
 * not valid UTF-8 (docs/formats.md, section 1.10); nothing when 0. */
void tm_cli_warn_replaced    (const char *path,
                              guint       n_replaced);
/* --summary of file (named path on the command line), which holds
 * gathered host summaries: with json its lines read back, one per host,
 * on standard output; else a heading, and its hosts appended to summaries
 * for the run table. Each bad line is named by its number on standard
 * error. Returns the exit status: 1 when the file or a line failed. */
int  tm_cli_summary_gathered (GFile      *file,
                              const char *path,
                              gboolean    json,
                              GPtrArray  *summaries);
/* The run table of several hosts (TmHostSummary), busiest host first,
 * failed hosts last, on standard output. */
void tm_cli_print_run_table  (GPtrArray *summaries);

G_END_DECLS
