/* tm-wrap-box.h — children in a row that wraps onto more lines when narrow
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lays its children out left to right at their natural widths, as a
 * horizontal GtkBox would, while they fit; in a narrower allocation the
 * child that does not fit starts a new line, so that no child is cut or
 * squeezed below its natural width unless it is wider than a whole line
 * (then it gets the line). Children that expand horizontally share the
 * rest of their line. For toolbars whose heading must stay readable at
 * 800 px and in long translations (docs/ui.md, "Layout"). A drawing
 * helper: no session.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TM_TYPE_WRAP_BOX (tm_wrap_box_get_type ())

G_DECLARE_FINAL_TYPE (TmWrapBox, tm_wrap_box, TM, WRAP_BOX, GtkWidget)

GtkWidget *tm_wrap_box_new         (void);
int        tm_wrap_box_get_spacing (TmWrapBox *self);
void       tm_wrap_box_set_spacing (TmWrapBox *self,
                                    int        spacing);

G_END_DECLS
