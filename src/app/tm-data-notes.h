/* tm-data-notes.h — what the data cannot tell, said once under the cards
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view of the session's memory id: a line for each thing its profile
 * leaves unsaid that a reader would otherwise take for a finding
 * (docs/ui.md, "What the data cannot tell"): a "stack" that is memory XLA
 * reserved for the program (TPU), allocations without op names. Nothing
 * shows when there is nothing to say.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_DATA_NOTES (tm_data_notes_get_type ())

G_DECLARE_FINAL_TYPE (TmDataNotes, tm_data_notes, TM, DATA_NOTES, TmView)

GtkWidget  *tm_data_notes_new       (TmSession   *session);
/* The notes shown, one string each, in order (for tests). */
GStrv       tm_data_notes_dup_notes (TmDataNotes *self);

G_END_DECLS
