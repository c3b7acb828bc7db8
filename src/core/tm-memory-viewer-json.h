/* tm-memory-viewer-json.h — the Memory Viewer's result as XProf's JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What --export=memory-viewer-json writes (docs/buffer-assignment.md,
 * section 5): per module XProf's PreprocessResult fields under XProf's JSON
 * names, in its field order, with its defaults left out. Bytes become MiB
 * here and only here. Uses tm-buffer-assignment and tm-export's number and
 * string printers.
 */
#pragma once

#include <glib.h>

#include "tm-buffer-assignment.h"

G_BEGIN_DECLS

typedef struct
{
  const char               *module;        /* as XProf lists it */
  gint64                    memory_space;
  const TmBufferAssignment *result;        /* NULL when error is set */
  const char               *error;
} TmMemoryViewerModule;

/* Appends the fields of one module's result, without braces, starting with
 * a comma (after "module" and "memorySpace"). Returns how many bytes were
 * not valid UTF-8 and were replaced. */
guint  tm_memory_viewer_json_append_result (GString                    *str,
                                            const TmBufferAssignment   *result);

/* The whole document {"file": …, "modules": [ … ]}, one line, with a
 * final newline. n_replaced (may be NULL) gets the bytes of names that
 * were not valid UTF-8. */
char  *tm_memory_viewer_json               (const char                 *file,
                                            const TmMemoryViewerModule *modules,
                                            guint                       n_modules,
                                            guint                      *n_replaced);

G_END_DECLS
