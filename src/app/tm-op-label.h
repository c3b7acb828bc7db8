/* tm-op-label.h — an op name that keeps its end readable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Op names are scopes joined by "/" and differ mostly at their end
 * ("…/dropout_3/dropout/Cast"). Too wide for its allocation, the label
 * drops whole scopes from the start, "…/" standing for them, and always
 * keeps the last two (docs/ui.md, "Long op names"); only when even those
 * do not fit are they cut at their start. No session: a drawing helper
 * for the breakdown table's op cells.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TM_TYPE_OP_LABEL (tm_op_label_get_type ())

G_DECLARE_FINAL_TYPE (TmOpLabel, tm_op_label, TM, OP_LABEL, GtkWidget)

GtkWidget  *tm_op_label_new            (const char *text);
const char *tm_op_label_get_text       (TmOpLabel  *self);
void        tm_op_label_set_text       (TmOpLabel  *self,
                                        const char *text);
/* The text as drawn at the current width. */
const char *tm_op_label_get_shown_text (TmOpLabel  *self);

/* What people read for an op name and for the other names the file may
 * leave out (docs/ui.md, "Values the file does not hold"): the special
 * rows' names translated, and "unknown" for an op, a region type, a data
 * type ("INVALID") or a shape the file does not give. The exports keep
 * the names as the core has them. */
char       *tm_op_label_display_name  (const char *op_name,
                                        gboolean    special);
const char *tm_op_label_display_value (const char *value);
/* text (an op name) with a zero-width space after each "/" and "\\", so
 * that a tooltip wraps a long name at its scopes instead of running past
 * the window (a PyTorch stack is a name of thousands of characters). */
char       *tm_op_label_breakable      (const char *text);
/* A label for gtk_tooltip_set_custom() that shows markup at most about 80
 * characters wide, wrapping any longer line: GTK's own tooltip label keeps
 * a line without spaces whole, however wide. */
GtkWidget  *tm_op_label_new_tooltip    (const char *markup);
/* The line of a tooltip that says where an event or allocation belongs:
 * "Step 7 · region output · data type float · shape [8,64]", the step
 * "unknown" when step_id is negative, and each field the file does not
 * give (as tm_op_label_display_value() tells) left out. Plain text. */
char       *tm_op_label_describe_fields (gint64      step_id,
                                         const char *region_type,
                                         const char *data_type,
                                         const char *shape);

/* text shortened to fit width pixels as a TmOpLabel does it, measured
 * with layout (whose text it changes). */
char       *tm_op_label_shorten        (PangoLayout *layout,
                                        const char  *text,
                                        int          width);

/* Makes column (of column_view) as wide as the widest of its names, so
 * that none is shortened: the names are what the column's GtkStringSorter
 * sorts by, for the items of the column view's model. */
void        tm_op_label_fit_column     (GtkColumnView       *column_view,
                                        GtkColumnViewColumn *column);
/* Gives column_view's first column (the op names) a third of width or
 * more before the others get their natural widths (natural[i], the
 * template's): they shrink towards their titles. given[i] holds the width
 * last given each; a column whose width differs from it was resized by
 * the user and is left as it is. Column 0's entries are not used. */
void        tm_op_label_share_width    (GtkColumnView       *column_view,
                                        int                  width,
                                        const int           *natural,
                                        int                 *given);
/* For gtk_widget_class_install_action(): fits the first column of the
 * first GtkColumnView inside widget. */
void        tm_op_label_fit_action     (GtkWidget           *widget,
                                        const char          *action_name,
                                        GVariant            *parameter);

G_END_DECLS
