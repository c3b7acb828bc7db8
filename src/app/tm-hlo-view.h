/* tm-hlo-view.h — the table of HLO modules (TPU profiles)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Id, name, device, start, end and duration of every XLA module run, with
 * sortable columns. Selecting a module zooms the timeline to it. The view
 * hides itself while it has no modules.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-timeline.h"

G_BEGIN_DECLS

#define TM_TYPE_HLO_VIEW (tm_hlo_view_get_type ())

G_DECLARE_FINAL_TYPE (TmHloView, tm_hlo_view, TM, HLO_VIEW, GtkWidget)

GtkWidget  *tm_hlo_view_new            (void);

/* The timeline that selecting a module zooms, and that draws the modules'
 * band (NULL: none); not referenced beyond its life. */
void        tm_hlo_view_set_timeline   (TmHloView *self,
                                        TmTimeline *timeline);
TmTimeline *tm_hlo_view_get_timeline   (TmHloView *self);

/* TmHloModule elements (NULL or empty: none). The array is referenced and
 * also handed to the timeline for its band. */
void        tm_hlo_view_set_modules    (TmHloView *self,
                                        GArray    *modules);
guint       tm_hlo_view_get_n_modules  (TmHloView *self);

/* Selects the module with this position in the modules array (as sorted
 * by the user or not: the id order), G_MAXUINT to unselect. */
void        tm_hlo_view_select_module  (TmHloView *self,
                                        guint      index);

G_END_DECLS
