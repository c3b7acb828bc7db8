/* tm-scope-series-query.h — the selected scope's bytes over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bytes of the session's selected scope at every snapshot of its
 * memory store (tm_scope_index_series(), docs/scopes.md), which the
 * timeline draws as a line. It is made from the scope index of the
 * scope's grouping: as soon as a scope is selected this query asks
 * tm-scope-index-query for that index (built in a worker), and "series"
 * notifies whenever what get_series() returns changes: a scope selected or
 * cleared, its index built, another memory store.
 *
 * One query per session: tm_scope_series_query_get_for_session() makes it
 * the first time and the session keeps it for its life (as object data).
 * Main thread only.
 */
#pragma once

#include <glib-object.h>

#include "tm-session.h"

G_BEGIN_DECLS

#define TM_TYPE_SCOPE_SERIES_QUERY (tm_scope_series_query_get_type ())

G_DECLARE_FINAL_TYPE (TmScopeSeriesQuery, tm_scope_series_query, TM, SCOPE_SERIES_QUERY, GObject)

/* The query of session (transfer none: it lives as long as the session). */
TmScopeSeriesQuery *tm_scope_series_query_get_for_session (TmSession          *session);

/* One gint64 per snapshot of the session's memory store: the selected
 * scope's bytes then (transfer none). NULL without a selected scope and
 * until its grouping's index is built. */
GBytes             *tm_scope_series_query_get_series      (TmScopeSeriesQuery *self);

G_END_DECLS
