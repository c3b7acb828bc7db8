/* tm-session-private.h — what the session's query objects hand it back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Transitional: the timeline reads the selected scope's series from the
 * session (tm_session_get_selected_scope_series, "scope-index") until it
 * asks tm-scope-index-query itself; that query hands its index over here.
 */
#pragma once

#include "tm-session.h"

G_BEGIN_DECLS

void _tm_session_set_scope_index (TmSession    *self,
                                  TmScopeIndex *index);

G_END_DECLS
