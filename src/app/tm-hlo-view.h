/* tm-hlo-view.h — the table of HLO modules (TPU profiles)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Id, name, device, start, end and duration of every XLA module run of the
 * session's profile, with sortable columns. Selecting a module zooms the
 * session's viewport to it (tm_viewport_zoom_to()). The view hides itself
 * while it has no modules.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_HLO_VIEW (tm_hlo_view_get_type ())

G_DECLARE_FINAL_TYPE (TmHloView, tm_hlo_view, TM, HLO_VIEW, TmView)

GtkWidget  *tm_hlo_view_new            (TmSession *session);

guint       tm_hlo_view_get_n_modules  (TmHloView *self);

/* Selects the module with this position in the modules array (as sorted
 * by the user or not: the id order), G_MAXUINT to unselect. */
void        tm_hlo_view_select_module  (TmHloView *self,
                                        guint      index);

/* The filter entry's text (NULL or "": every module): modules whose name
 * or id contains it, ignoring case. */
void        tm_hlo_view_set_filter     (TmHloView  *self,
                                        const char *text);
/* The rows shown (filtered), and the name row position shows ("unnamed
 * module" for a module without a name; NULL past the end). */
guint       tm_hlo_view_get_n_shown    (TmHloView  *self);
char       *tm_hlo_view_dup_shown_name (TmHloView  *self,
                                        guint       position);

G_END_DECLS
