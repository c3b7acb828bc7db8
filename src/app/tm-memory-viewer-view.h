/* tm-memory-viewer-view.h — the Memory Viewer page: the compiler's plan of one module
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * XProf's Memory Viewer for the session's profile (docs/ui.md, "Memory
 * Viewer"; docs/buffer-assignment.md): a module and a memory space
 * (the session's "static-selection"), overview cards, the plan set
 * against the run, the heap over the program points, the buffers live at
 * the peak as bars and as a table with the selected buffer's details, and
 * the allocation chart. What it shows comes from tm-memory-viewer-query,
 * asked when the page is first shown.
 */
#pragma once

#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_MEMORY_VIEWER_VIEW (tm_memory_viewer_view_get_type ())

G_DECLARE_FINAL_TYPE (TmMemoryViewerView, tm_memory_viewer_view, TM, MEMORY_VIEWER_VIEW, TmView)

GtkWidget *tm_memory_viewer_view_new (TmSession *session);

G_END_DECLS
