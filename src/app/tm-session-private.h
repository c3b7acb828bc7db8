/* tm-session-private.h — what the session's query objects hand it back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Transitional: the timeline reads the selected scope's series from the
 * session (tm_session_get_selected_scope_series, "scope-index") until it
 * asks tm-scope-index-query itself, and the timeline and the memory map
 * read the allocation index from it ("allocations", "allocations-pending")
 * until they ask tm-allocations-query; those queries hand them over here.
 */
#pragma once

#include "tm-session.h"

G_BEGIN_DECLS

void _tm_session_set_scope_index (TmSession     *self,
                                  TmScopeIndex  *index);
void _tm_session_set_allocations (TmSession     *self,
                                  TmAllocations *allocations,
                                  gboolean       pending);

G_END_DECLS
