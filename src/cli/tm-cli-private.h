/* tm-cli-private.h — what tm-cli.c and tm-cli-summary.c share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tm-profile.h"
#include "tm-run-summary.h"

G_BEGIN_DECLS

/* tm-cli-summary.c */

/* The text summary of one profile, on standard output. */
void tm_cli_print_summary    (TmProfile *profile);
/* The run table of several hosts (TmHostSummary), busiest host first,
 * failed hosts last, on standard output. */
void tm_cli_print_run_table  (GPtrArray *summaries);

G_END_DECLS
