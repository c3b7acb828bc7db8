/* tm-scope-view.h — where the memory goes: scopes as a tree table and an icicle
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * At the session's shown time (the peak, or the selected time), the live
 * allocations grouped into scopes (tm-scopes): by name scope, region type,
 * data type or shape. One tree feeds a tree table (sorted by bytes) and an
 * icicle picture (tm-icicle) with a breadcrumb. Selecting a scope in
 * either sets the session's selected scope. Takes a session and nothing
 * else.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-icicle.h"
#include "tm-scope-search.h"
#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_SCOPE_VIEW (tm_scope_view_get_type ())

G_DECLARE_FINAL_TYPE (TmScopeView, tm_scope_view, TM, SCOPE_VIEW, TmView)

GtkWidget       *tm_scope_view_new            (void);
TmScopeGrouping  tm_scope_view_get_grouping   (TmScopeView     *self);
void             tm_scope_view_set_grouping   (TmScopeView     *self,
                                               TmScopeGrouping  grouping);

/* What was never freed instead of what is live at the shown time
 * (docs/scopes.md, "Never freed"). */
gboolean         tm_scope_view_get_never_freed (TmScopeView    *self);
void             tm_scope_view_set_never_freed (TmScopeView    *self,
                                                gboolean        never_freed);

/* For tests: the tree shown (NULL: none), the picture, the table and the
 * search. */
TmScopeTree     *tm_scope_view_get_tree       (TmScopeView     *self);
TmIcicle        *tm_scope_view_get_icicle     (TmScopeView     *self);
GtkColumnView   *tm_scope_view_get_column_view (TmScopeView    *self);
TmScopeSearch   *tm_scope_view_get_search     (TmScopeView     *self);

G_END_DECLS
