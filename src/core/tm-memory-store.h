/* tm-memory-store.h — one memory id: its snapshots in time order, as columns,
 * and the analysis of product.md §3
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A store is built by the loader in a worker thread and is immutable once
 * the profile is handed over: every getter is safe from any thread.
 *
 * Per snapshot it keeps only what drawing, hit-testing and the analysis need
 * (time, stack, heap, free, fragmentation, step id, kind, the matching event
 * index and where the event is in the file); the rest (sizes, address, op,
 * region, data type, shape) is decoded on demand with
 * tm_memory_store_get_activity().
 */
#pragma once

#include <glib-object.h>

#include "tm-lod.h"
#include "tm-types.h"

G_BEGIN_DECLS

#define TM_TYPE_MEMORY_STORE (tm_memory_store_get_type ())

G_DECLARE_FINAL_TYPE (TmMemoryStore, tm_memory_store, TM, MEMORY_STORE, GObject)

const char      *tm_memory_store_get_id                 (TmMemoryStore  *self);
guint            tm_memory_store_get_n_snapshots        (TmMemoryStore  *self);

/* Columns, n_snapshots long, in time order (ties in file order). Times are
 * the events' offset_ps on the profile's clock (picoseconds from the
 * profile start). */
const gint64    *tm_memory_store_get_times              (TmMemoryStore  *self);
const gint64    *tm_memory_store_get_stack              (TmMemoryStore  *self);
const gint64    *tm_memory_store_get_heap               (TmMemoryStore  *self);
const gint64    *tm_memory_store_get_free               (TmMemoryStore  *self);
const double    *tm_memory_store_get_fragmentation      (TmMemoryStore  *self);
TmActivityKind   tm_memory_store_get_kind               (TmMemoryStore  *self,
                                                         guint           index);
gint64           tm_memory_store_get_step_id            (TmMemoryStore  *self,
                                                         guint           index);
/* FALSE when every snapshot has zero free memory (XProf then hides "free"). */
gboolean         tm_memory_store_has_free_data          (TmMemoryStore  *self);
/* FALSE when the store came from XProf JSON: only XProf's sampled points. */
gboolean         tm_memory_store_is_complete            (TmMemoryStore  *self);

/* Decodes snapshot index (time order). Returns FALSE with error only if the
 * mapped file changed under us. */
gboolean         tm_memory_store_get_activity           (TmMemoryStore  *self,
                                                         guint           index,
                                                         TmActivity     *activity,
                                                         GError        **error);

const TmSummary *tm_memory_store_get_summary            (TmMemoryStore  *self);

/* The breakdown at the window peak (§3.6), rows of TmBreakdownRow, sorted
 * and merged as XProf does; owned by the store. */
GPtrArray       *tm_memory_store_get_peak_breakdown     (TmMemoryStore  *self);

/* Allocations live at time t_ps: made before or at t and not freed by t,
 * grouped like the peak table, plus a row for memory allocated before the
 * profile started (heap at t minus the tracked live bytes) when positive.
 * New array of TmBreakdownRow (free with g_ptr_array_unref). */
GPtrArray       *tm_memory_store_breakdown_at           (TmMemoryStore  *self,
                                                         gint64          t_ps);

/* Index of the last snapshot with time <= t_ps, or 0 if t_ps is before the
 * first. */
guint            tm_memory_store_find_at_or_before      (TmMemoryStore  *self,
                                                         gint64          t_ps);
/* Index of the snapshot whose time is nearest to t_ps (the first of equals). */
guint            tm_memory_store_find_nearest           (TmMemoryStore  *self,
                                                         gint64          t_ps);

/* XProf's 1000-point max-box sampling (§3.7): indices into the columns. */
GArray          *tm_memory_store_sample_timeline        (TmMemoryStore  *self,
                                                         guint           max_points);

/* Multi-resolution min/max over the columns, for drawing (tm-lod.h). Built
 * by the loader; owned by the store. */
TmLod           *tm_memory_store_get_lod                (TmMemoryStore  *self);

/* Bytes of heap this store uses beyond the mapped file. */
gsize            tm_memory_store_get_memory_size        (TmMemoryStore  *self);

G_END_DECLS
