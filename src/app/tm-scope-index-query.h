/* tm-scope-index-query.h — a session's scope index, built in a worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The scope index (tm-scopes: a scope's bytes at every snapshot, the tree
 * at any time) of the session's memory store, for one grouping at a time.
 * The first request for a grouping starts building it in a worker (one
 * pass over the file; about a quarter of a second for a 1 GiB profile)
 * and returns NULL; "pending" is TRUE until it is done, then "index"
 * notifies. A build for another grouping or memory store cancels the one
 * in progress; a new memory store drops the index.
 *
 * The scope view asks for the index of its grouping; tm-scope-series-query
 * asks for the selected scope's.
 *
 * One query per session: tm_scope_index_query_get_for_session() makes it
 * the first time and the session keeps it for its life (as object data).
 * Main thread only; the worker owns its store reference until it returns.
 */
#pragma once

#include <glib-object.h>

#include "tm-scopes.h"
#include "tm-session.h"

G_BEGIN_DECLS

#define TM_TYPE_SCOPE_INDEX_QUERY (tm_scope_index_query_get_type ())

G_DECLARE_FINAL_TYPE (TmScopeIndexQuery, tm_scope_index_query, TM, SCOPE_INDEX_QUERY, GObject)

/* The query of session (transfer none: it lives as long as the session). */
TmScopeIndexQuery *tm_scope_index_query_get_for_session (TmSession         *session);

/* The index of the session's memory store for grouping, or NULL while it
 * is built (this call starts it) and without a memory store. */
TmScopeIndex      *tm_scope_index_query_get_index       (TmScopeIndexQuery *self,
                                                         TmScopeGrouping    grouping);
/* The tree of some allocations of the session's memory store, those
 * whose allocation events are snapshots (ascending; such as the ones
 * never freed, docs/scopes.md, "Never freed"): from grouping's index,
 * which this starts building, or decoded at once when there are at most a
 * few thousand. NULL while the index is built or without a memory store;
 * an empty tree when the file changed on disk. */
TmScopeTree       *tm_scope_index_query_tree_for_allocations (TmScopeIndexQuery *self,
                                                              TmScopeGrouping    grouping,
                                                              GArray            *snapshots);
/* TRUE while an index of the session's memory store is being built. */
gboolean           tm_scope_index_query_get_pending     (TmScopeIndexQuery *self);

G_END_DECLS
