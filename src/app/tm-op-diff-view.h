/* tm-op-diff-view.h — a comparison's diff by op name, as a table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * While the session compares (docs/compare.md), every op of the two
 * breakdowns at their own peaks: the baseline's bytes, this profile's,
 * the difference in bytes and per cent, and whether the op is new or gone;
 * sorted by the size of the difference. Takes a session and nothing else.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_OP_DIFF_VIEW (tm_op_diff_view_get_type ())

G_DECLARE_FINAL_TYPE (TmOpDiffView, tm_op_diff_view, TM, OP_DIFF_VIEW, TmView)

GtkWidget     *tm_op_diff_view_new             (void);
/* For tests: the table, one row per op. */
GtkColumnView *tm_op_diff_view_get_column_view (TmOpDiffView *self);

G_END_DECLS
