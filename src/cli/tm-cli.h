/* tm-cli.h — the command line: --summary and --export, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE if argv asks for a headless command (--summary, --export, ...). */
gboolean tm_cli_wants (int    argc,
                       char **argv);

/* Runs it: 0 on success, 1 for unreadable or invalid input (one line on
 * stderr naming the file and the problem), 2 for bad usage. */
int      tm_cli_run   (int    argc,
                       char **argv);

G_END_DECLS
