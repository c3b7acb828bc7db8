/* tm-memory-store.h — one memory id: its snapshots in time order, as columns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The store is the only code that writes its columns and its summary: the
 * readers hand it snapshots through the builder API below, and it folds the
 * summary (docs/analysis.md step 1) as they come. Uses tm-host-event (to
 * decode an XSpace event again on demand) and tm-lod (its drawing index).
 *
 * A store is built by the loader in a worker thread and is immutable once
 * finished: every getter is safe from any thread.
 *
 * Per snapshot it keeps only what drawing, hit-testing and the analysis need
 * (time, stack, heap, free, fragmentation, step id, kind, the matching event
 * index and where the event is in the file); the rest (sizes, address, op,
 * region, data type, shape) is decoded on demand with
 * tm_memory_store_get_activity().
 */
#pragma once

#include <gio/gio.h>

#include "tm-host-event.h"
#include "tm-lod.h"
#include "tm-types.h"

G_BEGIN_DECLS

#define TM_TYPE_MEMORY_STORE (tm_memory_store_get_type ())

G_DECLARE_FINAL_TYPE (TmMemoryStore, tm_memory_store, TM, MEMORY_STORE, GObject)

/* ------------------------------------------------------------------ */
/* Building (readers and the loader, in the worker thread)              */

/* One snapshot as a reader gives it to the store. */
typedef struct
{
  gint64         time_ps;
  gint64         stack_bytes;
  gint64         heap_bytes;
  gint64         free_bytes;
  double         fragmentation;
  gint64         peak_bytes_in_use;  /* the allocator's lifetime peak so far */
  gint64         step_id;            /* -1: none (filled in by finish, docs/analysis.md step 3) */
  TmActivityKind kind;
  guint64        address;            /* XSpace: for matching allocations and deallocations */
  guint64        ref;                /* XSpace: file offset of the event's length prefix */
} TmSnapshot;

/* ctx: the host plane the snapshots are decoded from again (XSpace), or
 * NULL for a store of XProf JSON points (not complete). */
TmMemoryStore   *tm_memory_store_new                    (const char     *id,
                                                         TmHostContext  *ctx);
/* How a store of another reader decodes a snapshot again: ref is the
 * TmSnapshot's ref; for a deallocation with a matching allocation,
 * meta_ref is that allocation's ref (else ref), whose names it shows.
 * decode fills kind-independent fields: sizes, address, the allocator's
 * peak so far and the strings (the store fills time, step and the
 * columns' figures). Called from any thread. */
typedef struct
{
  gboolean (*decode) (gpointer     data,
                      guint64      ref,
                      guint64      meta_ref,
                      TmActivity  *activity,
                      GError     **error);
  gboolean (*sizes)  (gpointer     data,
                      guint64      ref,
                      guint64     *address,
                      gint64      *allocation_bytes,
                      GError     **error);
  /* Optional (NULL: the format records none): the stack of what meta_ref
   * is, as the file records it, one frame per line, innermost first. */
  char    *(*stack)  (gpointer     data,
                      guint64      meta_ref);
  /* Optional (NULL: none): decode's address and allocation_bytes of
   * (ref, meta_ref) and a key that two events share only when decode
   * gives both the same op_name, region_type and data_type; FALSE when
   * there is no key for this one. Called from any thread. */
  gboolean (*label)  (gpointer     data,
                      guint64      ref,
                      guint64      meta_ref,
                      guint64     *address,
                      gint64      *allocation_bytes,
                      guint64     *key);
} TmMemoryStoreDecoder;

/* A complete store whose snapshots decode through decoder (which must
 * outlive it); destroy frees data with the store. Addresses are kept for
 * matching, as for XSpace. */
TmMemoryStore   *tm_memory_store_new_with_decoder       (const char                 *id,
                                                         const TmMemoryStoreDecoder *decoder,
                                                         gpointer                    data,
                                                         GDestroyNotify              destroy);
/* Appends a snapshot (file order) and folds it into the summary. */
void             tm_memory_store_add                    (TmMemoryStore  *self,
                                                         const TmSnapshot *snapshot);
/* XProf JSON: appends a point; takes activity's strings (cleared). */
void             tm_memory_store_add_activity           (TmMemoryStore  *self,
                                                         TmActivity     *activity);
/* Appends later's snapshots (later in the file) and folds its summary in
 * by the same rules, as if this store had read them. Both are unfinished.
 * The summary and the count include later at once; its columns are copied
 * in by tm_memory_store_finish() (on the finishing thread) or before the
 * next tm_memory_store_add(), and later is left empty then: it must not
 * be changed meanwhile. */
void             tm_memory_store_append                 (TmMemoryStore  *self,
                                                         TmMemoryStore  *later);
/* The same for several, in file order: their columns' room is made at
 * once, so that each is moved in without growing the columns again (the
 * reader's parts of one memory id). */
void             tm_memory_store_append_all             (TmMemoryStore  *self,
                                                         TmMemoryStore **later,
                                                         guint           n_later);
/* XProf JSON: XProf's own summary and breakdown at the peak. Its peak
 * figures replace the fold's (the counts and times stay the store's); the
 * rows (TmBreakdownRow, transfer full, in XProf's order) and peak step
 * (-1: none) are kept for tm-analysis. */
void             tm_memory_store_set_xprof_results      (TmMemoryStore  *self,
                                                         const TmSummary *summary,
                                                         GPtrArray      *peak_rows,
                                                         gint64          peak_step_id);
/* Sorts by time (stable, docs/analysis.md step 2), fills in step ids
 * (step 3), matches allocations and deallocations (step 4), builds the LOD.
 * Fails only when cancelled. */
gboolean         tm_memory_store_finish                 (TmMemoryStore  *self,
                                                         GCancellable   *cancellable,
                                                         GError        **error);

/* ------------------------------------------------------------------ */
/* Reading (a finished store)                                           */

/* The stack of snapshot index's allocation (a deallocation's is its
 * allocation's), one frame per line, innermost first, as the file records
 * it ("" for none recorded); NULL when the format records no stacks
 * (XSpace, XProf JSON). */
char            *tm_memory_store_get_call_stack         (TmMemoryStore  *self,
                                                         guint           index);

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
/* For an allocation, the snapshot that ends it (its deallocation, or a
 * later allocation at the same address); for a deallocation, the
 * allocation whose metadata it shows (docs/analysis.md step 4);
 * TM_MEMORY_STORE_NO_PARTNER when none. */
#define TM_MEMORY_STORE_NO_PARTNER G_MAXUINT32
const guint32   *tm_memory_store_get_partners           (TmMemoryStore  *self);
TmActivityKind   tm_memory_store_get_kind               (TmMemoryStore  *self,
                                                         guint           index);
gint64           tm_memory_store_get_step_id            (TmMemoryStore  *self,
                                                         guint           index);
/* The step id of snapshot index, and in run_end the first snapshot after
 * it whose step id may differ: for walking snapshots run by run (a lookup
 * costs a search over the runs). */
gint64           tm_memory_store_get_step_run           (TmMemoryStore  *self,
                                                         guint           index,
                                                         guint          *run_end);
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
/* Just the address and allocation size of snapshot index (no strings). */
/* Snapshot index's address and allocation bytes as
 * tm_memory_store_get_activity() gives them, and a key that snapshots
 * share only when their activities have the same op_name, region_type and
 * data_type (so that an index of many allocations decodes their names
 * once per key); FALSE when the store's decoder gives no key for it. */
gboolean         tm_memory_store_get_label_key          (TmMemoryStore  *self,
                                                         guint           index,
                                                         guint64        *address,
                                                         gint64         *allocation_bytes,
                                                         guint64        *key);
gboolean         tm_memory_store_get_event_sizes        (TmMemoryStore  *self,
                                                         guint           index,
                                                         guint64        *address,
                                                         gint64         *allocation_bytes,
                                                         GError        **error);

/* The fold of docs/analysis.md step 1 and the counts of step 8. */
const TmSummary *tm_memory_store_get_summary            (TmMemoryStore  *self);

/* XProf JSON: XProf's breakdown at the peak (NULL for XSpace) and its peak
 * step (-1: none), as tm_memory_store_set_xprof_results() got them. */
GPtrArray       *tm_memory_store_get_xprof_peak_breakdown (TmMemoryStore *self,
                                                         gint64         *peak_step_id);

/* Index of the last snapshot with time <= t_ps, or 0 if t_ps is before the
 * first. */
guint            tm_memory_store_find_at_or_before      (TmMemoryStore  *self,
                                                         gint64          t_ps);
/* Index of the first snapshot (time order) whose heap is at least the
 * allocator's lifetime peak heap (the summary's peak_bytes_usage_lifetime):
 * when the profile saw that peak. G_MAXUINT when no snapshot holds that
 * much: the allocator reached it before the profile began, or, for
 * sampled points, between them (docs/analysis.md, "The lifetime peak"). */
guint            tm_memory_store_find_lifetime_peak     (TmMemoryStore  *self);
/* Index of the snapshot whose time is nearest to t_ps (the first of equals). */
guint            tm_memory_store_find_nearest           (TmMemoryStore  *self,
                                                         gint64          t_ps);

/* Multi-resolution min/max over the columns, for drawing (tm-lod.h): an
 * index over the store's own columns, built on the first call after finish
 * (from any thread); NULL before, or without snapshots. */
TmLod           *tm_memory_store_get_lod                (TmMemoryStore  *self);

/* Bytes of heap this store uses beyond the mapped file. */
gsize            tm_memory_store_get_memory_size        (TmMemoryStore  *self);

G_END_DECLS
