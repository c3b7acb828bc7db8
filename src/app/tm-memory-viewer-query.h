/* tm-memory-viewer-query.h — a session's static plans: the modules, the one shown, an op's buffers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Memory Viewer page shows of the session's profile, made in
 * workers and kept (docs/ui.md, "Memory Viewer"):
 *   - the modules: listed (the profile's HloProtos, then the sidecars
 *     beside it) and each computed in memory space 0 for its static peak
 *     (tm_static_plan_summarize), with the page's order; made only when
 *     tm_memory_viewer_query_load() asks, never when a profile opens;
 *     "state" and "progress" say how far it got;
 *   - the result (tm-buffer-assignment) of the module and memory space the
 *     session's "static-selection" names, decoded and computed in a worker
 *     on first use and kept for the last few choices; "result" notifies
 *     when it is there, "pending" while it is made, "error" when it fails;
 *   - the buffers of the selection's op in every module ("op-matches").
 * A new profile cancels what runs and drops what was kept. One query per
 * session (its object data), main thread only.
 */
#pragma once

#include <glib-object.h>

#include "tm-buffer-assignment.h"
#include "tm-session.h"
#include "tm-static-plan.h"

G_BEGIN_DECLS

typedef enum
{
  TM_MEMORY_VIEWER_IDLE,     /* nothing asked yet (or no profile) */
  TM_MEMORY_VIEWER_LISTING,  /* the modules are being read */
  TM_MEMORY_VIEWER_READY,    /* the modules are known (there may be none) */
} TmMemoryViewerState;

/* The buffers an op defines in one module. */
typedef struct
{
  char   *module;
  GArray *buffers;   /* TmOpBuffer, its instruction names owned here */
} TmOpMatch;

#define TM_TYPE_MEMORY_VIEWER_QUERY (tm_memory_viewer_query_get_type ())

G_DECLARE_FINAL_TYPE (TmMemoryViewerQuery, tm_memory_viewer_query, TM, MEMORY_VIEWER_QUERY, GObject)

/* The query of session (transfer none: it lives as long as the session). */
TmMemoryViewerQuery      *tm_memory_viewer_query_get_for_session (TmSession           *session);

/* Starts reading the modules of the session's profile, unless done or
 * under way. */
void                      tm_memory_viewer_query_load            (TmMemoryViewerQuery *self);
TmMemoryViewerState       tm_memory_viewer_query_get_state       (TmMemoryViewerQuery *self);
/* Modules read so far and in all, while listing. */
void                      tm_memory_viewer_query_get_progress    (TmMemoryViewerQuery *self,
                                                                  guint               *done,
                                                                  guint               *total);
/* The modules (TmModulePlan, in the profile's order) and the page's order
 * of them (guint indices: the default first, tm_static_plan_order); NULL
 * until ready. */
GArray                   *tm_memory_viewer_query_get_plans       (TmMemoryViewerQuery *self);
GArray                   *tm_memory_viewer_query_get_order       (TmMemoryViewerQuery *self);
/* The plan of module (NULL: unknown or not read yet). */
const TmModulePlan       *tm_memory_viewer_query_lookup_plan     (TmMemoryViewerQuery *self,
                                                                  const char          *module);

/* The result for the session's static selection; NULL without one, while
 * pending, and when it failed (then error says why). */
const TmBufferAssignment *tm_memory_viewer_query_get_result      (TmMemoryViewerQuery *self);
gboolean                  tm_memory_viewer_query_get_pending     (TmMemoryViewerQuery *self);
const char               *tm_memory_viewer_query_get_error       (TmMemoryViewerQuery *self);

/* The buffers of the selection's op (TmOpMatch, modules in the profile's
 * order, only those with some); NULL without an op and while searching. */
GPtrArray                *tm_memory_viewer_query_get_op_matches  (TmMemoryViewerQuery *self);

G_END_DECLS
