/* tm-allocations-query.h — a session's allocation index, asked for after the first frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The allocation index (tm-allocations) of the session's memory store, for
 * the memory map, what was never freed and picking allocations. The
 * profile builds it on first use and keeps it (tm-profile); this query
 * asks for it whenever the session shows another memory store: at once
 * when it is built, else from a worker that starts from an idle of low
 * priority, after the frame that shows the memory store (building it
 * takes a core for about a quarter of a second on 1 GiB, which that
 * frame's drawing needs more). Until it is there "allocations" is NULL and
 * "pending" TRUE; "allocations" notifies when it arrives. A request for a
 * memory store no longer shown is dropped. The views that need the index
 * (the memory map, the timeline, the table, the cards) ask this query and
 * follow its notifications.
 *
 * One query per session: tm_allocations_query_get_for_session() makes it
 * the first time (the window does, as it makes its session) and the
 * session keeps it for its life (as object data). Main thread only.
 */
#pragma once

#include <glib-object.h>

#include "tm-allocations.h"
#include "tm-session.h"

G_BEGIN_DECLS

#define TM_TYPE_ALLOCATIONS_QUERY (tm_allocations_query_get_type ())

G_DECLARE_FINAL_TYPE (TmAllocationsQuery, tm_allocations_query, TM, ALLOCATIONS_QUERY, GObject)

/* The query of session (transfer none: it lives as long as the session). */
TmAllocationsQuery *tm_allocations_query_get_for_session (TmSession          *session);

/* The index of the session's memory store: NULL without one, while it is
 * pending and when it could not be built (the file changed on disk). */
TmAllocations      *tm_allocations_query_get_allocations (TmAllocationsQuery *self);
gboolean            tm_allocations_query_get_pending     (TmAllocationsQuery *self);

G_END_DECLS
