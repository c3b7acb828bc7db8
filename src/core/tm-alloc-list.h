/* tm-alloc-list.h — the allocations of a time range, filtered and sorted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the window's Allocations tab lists (docs/ui.md, "The allocations"):
 * the allocations of the allocation index (tm-allocations) whose lifetime
 * meets a range of time, kept by a kind (all, never freed, temporary,
 * freed in the same step; tm-alloc-stats) and a text, and sorted by a
 * column. The answer is an array of allocation indices; nothing per
 * allocation is made, so that millions stay quick. Shapes are not in the
 * index: sorting or filtering by them needs TmAllocShapes, every shape
 * decoded once.
 *
 * Plain functions over immutable data: call them from a worker.
 */
#pragma once

#include <gio/gio.h>

#include "tm-allocations.h"

G_BEGIN_DECLS

typedef enum
{
  TM_ALLOC_LIST_SORT_INDEX,         /* the index's order: by allocation time */
  TM_ALLOC_LIST_SORT_OP,
  TM_ALLOC_LIST_SORT_SIZE,
  TM_ALLOC_LIST_SORT_REGION,
  TM_ALLOC_LIST_SORT_DATA_TYPE,
  TM_ALLOC_LIST_SORT_SHAPE,
  TM_ALLOC_LIST_SORT_ADDRESS,
  TM_ALLOC_LIST_SORT_ALLOCATED_AT,  /* those from the profile's start first */
  TM_ALLOC_LIST_SORT_FREED_AT,      /* those never freed last */
  TM_ALLOC_LIST_SORT_LIFETIME,      /* open ones to the profile's edge */
} TmAllocListSort;

typedef enum
{
  TM_ALLOC_LIST_ALL,
  TM_ALLOC_LIST_NEVER_FREED,
  TM_ALLOC_LIST_TEMPORARY,          /* ended within temporary_ps of being made */
  TM_ALLOC_LIST_SAME_STEP,          /* ended in the step that made it */
} TmAllocListKind;

typedef struct
{
  gint64           start_ps;        /* the range, closed */
  gint64           end_ps;
  TmAllocListKind  kind;
  gint64           temporary_ps;
  const char      *text;            /* NULL or "": no text filter */
  TmAllocListSort  sort;
  gboolean         descending;      /* ties stay in index order either way */
} TmAllocListQuery;

/* Every allocation's shape, decoded from the file once. */
typedef struct _TmAllocShapes TmAllocShapes;

TmAllocShapes *tm_alloc_shapes_new           (TmAllocations           *allocations,
                                              GCancellable            *cancellable,
                                              GError                 **error);
void           tm_alloc_shapes_free          (TmAllocShapes           *shapes);
const char    *tm_alloc_shapes_get           (TmAllocShapes           *shapes,
                                              guint                    index);

/* Whether the query sorts or filters by shape (then shapes is needed). */
gboolean       tm_alloc_list_needs_shapes    (const TmAllocListQuery  *query);
/* Whether allocation index passes the text (NULL or "": every one): its
 * op, region, data type or shape holds it, ignoring case, or its address
 * written "0x…" in lowercase hex does. shapes may be NULL when the text
 * is empty. */
gboolean       tm_alloc_list_matches_text    (TmAllocations           *allocations,
                                              TmAllocShapes           *shapes,
                                              guint                    index,
                                              const char              *text);
/* The indices the query keeps, in its order (a new array of guint); NULL
 * only when cancelled. shapes must be given when the query needs them. */
GArray        *tm_alloc_list_query           (TmAllocations           *allocations,
                                              TmAllocShapes           *shapes,
                                              const TmAllocListQuery  *query,
                                              GCancellable            *cancellable,
                                              GError                 **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmAllocShapes, tm_alloc_shapes_free)

G_END_DECLS
