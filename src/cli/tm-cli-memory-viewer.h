/* tm-cli-memory-viewer.h — tidemark --export=memory-viewer-json, and the
 * modules in --summary, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tm-profile.h"

G_BEGIN_DECLS

/* TRUE if argv asks for --export=memory-viewer-json (before any "--"). */
gboolean tm_cli_memory_viewer_wants          (int         argc,
                                              char      **argv);

/* tidemark --export=memory-viewer-json [--module=NAME] [--memory-space=N]
 * [--output=PATH] FILE, where FILE is a profile or a sidecar
 * "*.hlo_proto.pb": 0 on success, 1 for unreadable or invalid input (one
 * line on stderr naming the file and the problem), 2 for bad usage. A
 * module whose HloProto is bad or whose view fails carries "error" in the
 * document; the others are written all the same. */
int      tm_cli_memory_viewer_run            (int         argc,
                                              char      **argv);

/* The part of the text --summary that lists the profile's XLA modules
 * with their static peaks in memory space 0; nothing at all when the
 * profile holds no HloProto. */
void     tm_cli_memory_viewer_print_modules  (TmProfile  *profile);

G_END_DECLS
