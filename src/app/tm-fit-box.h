/* tm-fit-box.h — children in a row, each whole or not at all
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lays its children out left to right at their natural widths, aligned
 * to its end, and hides those that do not fit (from the last), rather
 * than squeezing every one of them: a legend whose names would otherwise
 * all be cut to "…" in a narrow header (docs/ui.md, "The memory map's
 * never-freed filter"). An optional last child, the "more" child, always
 * stays; n-hidden says how many others are hidden, for it to count them.
 * A drawing helper: no session.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TM_TYPE_FIT_BOX (tm_fit_box_get_type ())

G_DECLARE_FINAL_TYPE (TmFitBox, tm_fit_box, TM, FIT_BOX, GtkWidget)

GtkWidget *tm_fit_box_new          (int        spacing);
/* child after the others (before the "more" child). */
void       tm_fit_box_append       (TmFitBox  *self,
                                    GtkWidget *child);
/* Removes every child, the "more" child too. */
void       tm_fit_box_remove_all   (TmFitBox  *self);
/* The child shown last whatever the room (NULL: none); it is added. */
void       tm_fit_box_set_more     (TmFitBox  *self,
                                    GtkWidget *more);
/* How many children (the "more" child aside) the last allocation hid. */
guint      tm_fit_box_get_n_hidden (TmFitBox  *self);

G_END_DECLS
