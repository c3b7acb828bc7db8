/* tm-torch-snapshot.h — PyTorch CUDA memory snapshots (docs/pytorch.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A snapshot pickle (torch.cuda.memory._dump_snapshot(), optionally
 * gzip-compressed) read with tm-pickle, checked for the snapshot's shape
 * and analysed per device with PyTorch's own semantics: one memory id per
 * device, the allocated and reserved series over the trace, the
 * allocations live before the trace began, the state at snapshot time and
 * the collapsed stacks of `_memory_viz.py memory`. Uses tm-error,
 * tm-source, tm-pickle and tm-memory-store (to fill one store per device).
 *
 * Immutable once read: safe to read from any thread. The source stays
 * mapped while the snapshot lives (strings point into it).
 */
#pragma once

#include <gio/gio.h>

#include "tm-memory-store.h"
#include "tm-pickle.h"
#include "tm-source.h"

G_BEGIN_DECLS

typedef struct _TmTorchSnapshot TmTorchSnapshot;

typedef enum
{
  TM_TORCH_ALLOC,
  TM_TORCH_FREE_REQUESTED,
  TM_TORCH_FREE_COMPLETED,
  TM_TORCH_SEGMENT_ALLOC,
  TM_TORCH_SEGMENT_FREE,
  TM_TORCH_SEGMENT_MAP,
  TM_TORCH_SEGMENT_UNMAP,
  TM_TORCH_SNAPSHOT,
  TM_TORCH_OOM,
  TM_TORCH_OTHER,   /* "annotate" and actions newer writers may add */
} TmTorchAction;

/* Where an allocation on the timeline comes from. */
typedef enum
{
  TM_TORCH_ORIGIN_TRACE,     /* an alloc entry of the trace */
  TM_TORCH_ORIGIN_SNAPSHOT,  /* an active_allocated block with no live alloc: live from the start */
  TM_TORCH_ORIGIN_FREE,      /* a free_completed with no alloc: live from the start */
} TmTorchOrigin;

/* One allocation on a device's timeline. */
typedef struct
{
  guint64        address;
  gint64         bytes;      /* requested bytes */
  gint64         start;      /* the alloc's entry index; -1: live from the start */
  gint64         end;        /* the entry that frees it; -1: never freed */
  TmTorchOrigin  origin;
  TmPickleValue  frames;     /* a list of frame dicts, innermost first (or None) */
  TmPickleValue  stream;     /* the raw stream int */
} TmTorchAllocation;

/* The figures of one device (docs/pytorch.md, from "Allocations on the
 * timeline" to "At snapshot time").
 * Times are time_us; *_index are entry indices (-1: before the first
 * entry); has_time says whether every entry has time_us. */
typedef struct
{
  guint   n_entries;
  guint   n_by_action[TM_TORCH_OTHER + 1];
  gboolean has_time;
  gint64  first_time_us;
  gint64  last_time_us;

  gint64  peak_bytes;
  gint64  peak_index;
  guint   n_allocations;       /* alloc entries */
  guint   n_deallocations;     /* free_completed entries */
  guint   n_timeline_allocations;
  guint   n_initially_allocated;
  guint   n_initially_from_snapshot;
  guint   n_initially_from_free;
  gint64  initially_allocated_bytes;
  guint   n_live_at_peak;
  gint64  allocated_bytes_at_end;
  guint   n_never_freed;
  gint64  never_freed_bytes;
  guint   n_never_freed_traced;
  gint64  never_freed_traced_bytes;
  gboolean end_matches_snapshot;

  gint64  reserved_bytes_at_start;
  gint64  peak_reserved_bytes;
  gint64  peak_reserved_index;
  gint64  reserved_bytes_at_end;

  /* At snapshot time. */
  guint   n_segments;
  guint   n_blocks;
  guint   n_active_allocated_blocks;
  guint   n_active_pending_free_blocks;
  guint   n_inactive_blocks;
  gint64  snapshot_reserved_bytes;
  gint64  snapshot_allocated_bytes;
  gint64  snapshot_allocated_block_bytes;
  gint64  free_internal_bytes;
  gint64  free_external_bytes;
  gint64  largest_inactive_block_bytes;
} TmTorchFigures;

/* Reads a snapshot from source (plain or gzip). Which files are
 * snapshots is tm-input-picker's to say, by content. */
TmTorchSnapshot  *tm_torch_snapshot_read         (TmSource         *source,
                                                  GCancellable     *cancellable,
                                                  GError          **error);
TmTorchSnapshot  *tm_torch_snapshot_ref          (TmTorchSnapshot  *self);
void              tm_torch_snapshot_unref        (TmTorchSnapshot  *self);

guint             tm_torch_snapshot_get_protocol (TmTorchSnapshot  *self);
TmPickle         *tm_torch_snapshot_get_pickle   (TmTorchSnapshot  *self);
/* Bytes it takes beyond the mapped file. */
gsize             tm_torch_snapshot_get_memory_size (TmTorchSnapshot *self);

/* Devices in ascending order: those with trace entries or segments. */
guint             tm_torch_snapshot_get_n_devices (TmTorchSnapshot *self);
const char       *tm_torch_snapshot_get_device_id (TmTorchSnapshot *self,
                                                  guint             device);
const TmTorchFigures *tm_torch_snapshot_get_figures (TmTorchSnapshot *self,
                                                  guint             device);
/* The time_us of entry index (-1: the first entry's); FALSE without one. */
gboolean          tm_torch_snapshot_get_time     (TmTorchSnapshot  *self,
                                                  guint             device,
                                                  gint64            index,
                                                  gint64           *time_us);

/* Every allocation of the device's timeline, live-from-start ones first
 * (trace allocations in entry order after them). */
const TmTorchAllocation *tm_torch_snapshot_get_allocations (TmTorchSnapshot *self,
                                                  guint             device,
                                                  guint            *n_allocations);
/* The allocations live at the peak (indices into get_allocations), largest
 * first, then by address. Free with g_array_unref. */
GArray           *tm_torch_snapshot_live_at_peak (TmTorchSnapshot  *self,
                                                  guint             device);

/* A frames list as `_memory_viz.py` prints it: outermost first, PyTorch's
 * noise frames left out, `file:line:name` (file without its folders, split
 * at '/') joined by ';'; "<non-python>" for an empty list. */
char             *tm_torch_snapshot_format_stack (TmTorchSnapshot  *self,
                                                  TmPickleValue     frames);
/* The innermost frame that PyTorch's filter keeps, as file:line:name;
 * "" when none. */
char             *tm_torch_snapshot_format_top_frame (TmTorchSnapshot *self,
                                                  TmPickleValue     frames);
/* Every frame of a frames list, innermost first, one per line:
 * "name (filename:line)" with the whole file name; "" for none. */
char             *tm_torch_snapshot_format_frames (TmTorchSnapshot *self,
                                                  TmPickleValue     frames);
/* A stream int as Python prints it. */
char             *tm_torch_snapshot_format_int   (TmTorchSnapshot  *self,
                                                  TmPickleValue     value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmTorchSnapshot, tm_torch_snapshot_unref)

G_END_DECLS
