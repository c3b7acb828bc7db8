/* tm-allocations.h — every allocation of one memory id: lifetime and address
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The allocation index behind the memory map and the never-freed figures
 * (docs/analysis.md, "Allocations and the memory map"). It reads a finished
 * store (tm-memory-store) and is read by the profile, the export and the
 * views; neither the store nor the analysis call it.
 *
 * An allocation is a pair of snapshots of the store: the allocation event
 * and the event that ends it, paired as the store pairs lifetimes (the
 * partner column: a deallocation at its address, or a later allocation at
 * the same address while it is live). The edges are open:
 *   - a deallocation that ends no allocation (the memory was allocated
 *     before the profile started) is an allocation from the profile's
 *     start (start = TM_ALLOCATIONS_OPEN);
 *   - an allocation that nothing ends is never freed and runs to the
 *     profile's end (end = TM_ALLOCATIONS_OPEN).
 *
 * Layout: 24 bytes per allocation, in allocation order (those from the
 * profile's start first, in the order of their deallocations):
 *   address                                    8 bytes
 *   allocation bytes (40 bits) | label << 40   8 bytes
 *   start and end snapshot indices         2 × 4 bytes
 * plus one 8-byte maximum end time per block of 64 allocations (for
 * skipping blocks in queries), the label table (one entry per distinct op,
 * region and data type) and the address layout (one entry per span).
 * Times come from the store's time column; requested bytes, shape, step and
 * the rest are decoded from the store on demand. Allocation bytes over
 * 1 TiB are clamped to 2^40 − 1 and more than 2^24 − 1 distinct labels share
 * the last one; neither happens in real profiles.
 *
 * Immutable once built: safe from any thread.
 */
#pragma once

#include <gio/gio.h>

#include "tm-memory-store.h"

G_BEGIN_DECLS

#define TM_TYPE_ALLOCATIONS (tm_allocations_get_type ())
G_DECLARE_FINAL_TYPE (TmAllocations, tm_allocations, TM, ALLOCATIONS, GObject)

/* A snapshot index for an open edge; also "no allocation" for lookups. */
#define TM_ALLOCATIONS_OPEN G_MAXUINT32
#define TM_ALLOCATIONS_NONE G_MAXUINT32

typedef struct
{
  guint64 address;
  guint64 bytes_label;  /* allocation bytes in the low 40 bits, label above */
  guint32 start;        /* snapshot index of the allocation, or TM_ALLOCATIONS_OPEN */
  guint32 end;          /* snapshot index of the event that ends it, or TM_ALLOCATIONS_OPEN */
} TmAllocation;

G_STATIC_ASSERT (sizeof (TmAllocation) == 24);

#define TM_ALLOCATION_BYTES(a) ((gint64) ((a)->bytes_label & ((G_GUINT64_CONSTANT (1) << 40) - 1)))
#define TM_ALLOCATION_LABEL(a) ((guint) ((a)->bytes_label >> 40))

/* What one label stands for: the op, region type and data type of an
 * allocation (its colour keys). */
typedef struct
{
  const char *op_name;
  const char *region_type;
  const char *data_type;
} TmAllocationLabel;

/* One run of used addresses on the address axis. Spans are in address
 * order; between two spans is a cut gap, drawn as a break. */
typedef struct
{
  guint64 address;  /* first address */
  guint64 end;      /* one past the last */
  guint64 offset;   /* where it starts on the axis, in axis bytes */
} TmAddressSpan;

/* ------------------------------------------------------------------ */
/* Pairing without an index                                             */

/* Called once per allocation in the order of its first event (time order):
 * start and end as in TmAllocation. Return FALSE to stop. */
typedef gboolean (*TmAllocationFunc) (TmMemoryStore *store,
                                      guint32        start,
                                      guint32        end,
                                      gpointer       user_data);

/* Walks every allocation of a finished store with one bit per snapshot of
 * extra memory (the CSV export streams with it). Fails only when cancelled
 * or when the mapped file changed. */
gboolean         tm_allocations_foreach          (TmMemoryStore    *store,
                                                  TmAllocationFunc  func,
                                                  gpointer          user_data,
                                                  GCancellable     *cancellable,
                                                  GError          **error);

/* Count and allocation bytes of the allocations never freed, without
 * building an index (the CLI summary). */
gboolean         tm_allocations_count_never_freed (TmMemoryStore   *store,
                                                   guint           *count,
                                                   gint64          *bytes,
                                                   GError         **error);

/* ------------------------------------------------------------------ */
/* The index                                                            */

/* Builds the index of a finished store. */
TmAllocations   *tm_allocations_new              (TmMemoryStore    *store,
                                                  GCancellable     *cancellable,
                                                  GError          **error);

TmMemoryStore   *tm_allocations_get_store        (TmAllocations    *self);
guint            tm_allocations_get_n            (TmAllocations    *self);
const TmAllocation *tm_allocations_get           (TmAllocations    *self,
                                                  guint             index);
/* All of them, in index order (n_items may be NULL). */
const TmAllocation *tm_allocations_get_all       (TmAllocations    *self,
                                                  guint            *n_items);
const TmAllocationLabel *tm_allocations_get_label (TmAllocations   *self,
                                                  guint             label);
guint            tm_allocations_get_n_labels     (TmAllocations    *self);

/* Its time range: open edges give the store's first and last time. */
gint64           tm_allocations_get_start_time   (TmAllocations    *self,
                                                  guint             index);
gint64           tm_allocations_get_end_time     (TmAllocations    *self,
                                                  guint             index);
/* The snapshot that describes it: its allocation, or for one from the
 * profile's start its deallocation. */
guint            tm_allocations_get_event        (TmAllocations    *self,
                                                  guint             index);
/* The allocation whose allocation event is snapshot (TM_ALLOCATIONS_NONE if
 * snapshot is not an allocation). */
guint            tm_allocations_find_by_snapshot (TmAllocations    *self,
                                                  guint             snapshot);

/* Never freed: count and bytes; the indices with tm_allocations_query_never_freed. */
guint            tm_allocations_get_n_never_freed     (TmAllocations *self);
gint64           tm_allocations_get_never_freed_bytes (TmAllocations *self);
GArray          *tm_allocations_query_never_freed     (TmAllocations *self);
/* Their allocation events (snapshot indices, ascending; new array of
 * guint), for the scopes of what was never freed
 * (tm_scope_tree_new_for_allocations). */
GArray          *tm_allocations_query_never_freed_events (TmAllocations *self);

/* The allocations that intersect the closed rectangle [t0, t1] × [a0, a1]
 * (a zero-byte allocation counts as one byte), in index order. New array of
 * guint. */
GArray          *tm_allocations_query            (TmAllocations    *self,
                                                  gint64            t0_ps,
                                                  gint64            t1_ps,
                                                  guint64           a0,
                                                  guint64           a1);
/* The largest allocation intersecting the rectangle (ties: the later one),
 * or TM_ALLOCATIONS_NONE. With t0 = t1 and a0 = a1 it is the allocation at
 * that point. */
guint            tm_allocations_pick             (TmAllocations    *self,
                                                  gint64            t0_ps,
                                                  gint64            t1_ps,
                                                  guint64           a0,
                                                  guint64           a1);

/* The address axis: used spans with long gaps cut. */
const TmAddressSpan *tm_allocations_get_spans    (TmAllocations    *self,
                                                  guint            *n_spans);
/* Length of the axis, in axis bytes (spans plus breaks). */
guint64          tm_allocations_get_axis_length  (TmAllocations    *self);
/* Whether the store's events are all at one time (a PyTorch snapshot
 * without a trace): every allocation starts and ends at that moment. */
gboolean         tm_allocations_is_moment        (TmAllocations    *self);
/* Address → axis offset (addresses in a cut gap go to the break). */
double           tm_allocations_address_to_axis  (TmAllocations    *self,
                                                  guint64           address);
/* Axis offset → address (an offset in a break gives the end of the span
 * below it). */
guint64          tm_allocations_axis_to_address  (TmAllocations    *self,
                                                  double            offset);

/* A subset: some of self's allocations (indices ascending, n of them, a
 * copy is taken), on the same store, labels and address axis, so that
 * they are drawn and picked where they are in self (the memory map's
 * never-freed filter). Its indices are its own; the parent's index of
 * one is tm_allocations_get_parent_index(). */
TmAllocations   *tm_allocations_new_subset       (TmAllocations    *self,
                                                  const guint      *indices,
                                                  guint             n);
/* index's index in the index the subset was made from (index itself for
 * a whole index). */
guint            tm_allocations_get_parent_index (TmAllocations    *self,
                                                  guint             index);
/* The subset's index of the parent's parent_index, or TM_ALLOCATIONS_NONE
 * when the subset leaves it out (parent_index itself for a whole index). */
guint            tm_allocations_find_parent_index (TmAllocations   *self,
                                                   guint            parent_index);

/* Bytes of heap the index uses. */
gsize            tm_allocations_get_memory_size  (TmAllocations    *self);

G_END_DECLS
