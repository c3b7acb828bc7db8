/* tm-cli-compare.h — tidemark --compare, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE if argv holds --compare (before any "--"). */
gboolean tm_cli_compare_wants (int    argc,
                               char **argv);

/* tidemark --compare [--json] [--memory-id=ID [--baseline-memory-id=ID]]
 * BASELINE FILE: 0 on success, 1 for unreadable or invalid input (one line
 * on stderr naming the file and the problem), 2 for bad usage. */
int      tm_cli_compare_run   (int    argc,
                               char **argv);

G_END_DECLS
