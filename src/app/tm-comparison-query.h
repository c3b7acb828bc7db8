/* tm-comparison-query.h — a session's comparison, made on first use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The session says what is compared (its memory store against its
 * baseline, with an alignment; docs/compare.md); this query makes what
 * the views show from that: the comparison (tm-compare) and the
 * baseline's scope tree at the moment the views show. Each is made on
 * first use and kept while what it was made from stays the same, so the
 * views may ask as often as they redraw, in any order of notification.
 *
 * One query per session: tm_comparison_query_get_for_session() makes it
 * the first time and the session keeps it for its life (as object data;
 * the session itself knows nothing of it). Main thread only.
 */
#pragma once

#include <glib-object.h>

#include "tm-compare.h"
#include "tm-scopes.h"
#include "tm-session.h"

G_BEGIN_DECLS

#define TM_TYPE_COMPARISON_QUERY (tm_comparison_query_get_type ())

G_DECLARE_FINAL_TYPE (TmComparisonQuery, tm_comparison_query, TM, COMPARISON_QUERY, GObject)

/* The query of session (transfer none: it lives as long as the session). */
TmComparisonQuery *tm_comparison_query_get_for_session         (TmSession         *session);

/* The session's memory store compared with its baseline; NULL without
 * both (or when they cannot be compared). Allocation indices still being
 * built are not waited for: the comparison then counts what was never
 * freed from the stores. */
TmCompare         *tm_comparison_query_get_comparison          (TmComparisonQuery *self);
/* The baseline's scope tree at the moment the views show: at its peak
 * when no time is selected, else live at the selected time minus the
 * baseline's shift. NULL without a baseline. */
TmScopeTree       *tm_comparison_query_get_baseline_scope_tree (TmComparisonQuery *self,
                                                                TmScopeGrouping    grouping);

G_END_DECLS
