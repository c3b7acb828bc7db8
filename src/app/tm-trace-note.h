/* tm-trace-note.h — why a memory id's timeline is flat: no trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_TRACE_NOTE (tm_trace_note_get_type ())

G_DECLARE_FINAL_TYPE (TmTraceNote, tm_trace_note, TM, TRACE_NOTE, TmView)

/* A banner, shown only while the session's memory id is a PyTorch
 * snapshot's device without trace entries (tm-segments): it says that
 * the snapshot holds the state at snapshot time only, everything live
 * from the start, and why the timeline is flat. */
GtkWidget *tm_trace_note_new (TmSession *session);

G_END_DECLS
