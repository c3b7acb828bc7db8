/* tm-torch-snapshot.c — PyTorch CUDA memory snapshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The semantics are PyTorch's own, written down in docs/pytorch.md; the
 * comments cite its sections.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "tm-addr-map.h"
#include "tm-error.h"
#include "tm-gzip.h"
#include "tm-torch-snapshot-private.h"

static const char * const action_names[] = {
  [TM_TORCH_ALLOC] = "alloc",
  [TM_TORCH_FREE_REQUESTED] = "free_requested",
  [TM_TORCH_FREE_COMPLETED] = "free_completed",
  [TM_TORCH_SEGMENT_ALLOC] = "segment_alloc",
  [TM_TORCH_SEGMENT_FREE] = "segment_free",
  [TM_TORCH_SEGMENT_MAP] = "segment_map",
  [TM_TORCH_SEGMENT_UNMAP] = "segment_unmap",
  [TM_TORCH_SNAPSHOT] = "snapshot",
  [TM_TORCH_OOM] = "oom",
};

const char *
tm_torch_action_name (guint action)
{
  return action < G_N_ELEMENTS (action_names) ? action_names[action] : "other";
}

TmTorchWalk *
tm_torch_walk_new (void)
{
  TmTorchWalk *c = g_new0 (TmTorchWalk, 1);

  c->allocs = g_array_new (FALSE, FALSE, sizeof (TmTorchAllocation));
  c->ghosts = g_array_new (FALSE, FALSE, sizeof (TmTorchAllocation));
  c->live = tm_addr_map_new ();
  return c;
}

void
tm_torch_walk_free (TmTorchWalk *c)
{
  if (c == NULL)
    return;
  g_clear_pointer (&c->allocs, g_array_unref);
  g_clear_pointer (&c->ghosts, g_array_unref);
  g_clear_pointer (&c->live, tm_addr_map_free);
  g_free (c);
}

static void
device_free (gpointer data)
{
  TmTorchDevice *d = data;

  g_free (d->id);
  g_clear_pointer (&d->segments, g_array_unref);
  g_free (d->action);
  g_clear_pointer (&d->events, g_array_unref);
  g_clear_pointer (&d->checkpoints, g_array_unref);
  g_clear_pointer (&d->freed, g_array_unref);
  g_clear_pointer (&d->orphans, g_array_unref);
  tm_torch_walk_free (d->walk);
  g_free (d->allocs);
  g_free (d);
}

/* ------------------------------------------------------------------ */
/* Shape                                                                */

gboolean
tm_torch_fail_shape (GError    **error,
                     const char *format,
                     ...)
{
  va_list args;
  g_autofree char *what = NULL;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, TM_ERROR, TM_ERROR_INVALID, _("not a memory snapshot: %s"), what);
  return FALSE;
}

gboolean
tm_torch_lookup_int (TmPickle      *p,
                     TmPickleValue  dict,
                     const char    *key,
                     gint64        *out)
{
  TmPickleValue v;

  return tm_pickle_dict_lookup (p, dict, key, &v) && tm_pickle_get_int (p, v, out);
}

/* Addresses may be above 2^63 (LONG1 of 9 bytes). */
gboolean
tm_torch_lookup_addr (TmPickle      *p,
                      TmPickleValue  dict,
                      const char    *key,
                      guint64       *out)
{
  TmPickleValue v;

  return tm_pickle_dict_lookup (p, dict, key, &v) && tm_pickle_get_uint (p, v, out);
}

TmPickleValue
tm_torch_lookup_or_none (TmPickle      *p,
                         TmPickleValue  dict,
                         const char    *key)
{
  TmPickleValue v;

  if (!tm_pickle_dict_lookup (p, dict, key, &v))
    return TM_PICKLE_VALUE_NONE;
  return v;
}

static TmTorchDevice *
device_for (GPtrArray *devices,
            gint64     index)
{
  TmTorchDevice *d;

  for (guint i = 0; i < devices->len; i++)
    if (((TmTorchDevice *) g_ptr_array_index (devices, i))->index == index)
      return g_ptr_array_index (devices, i);
  d = g_new0 (TmTorchDevice, 1);
  d->index = index;
  d->id = g_strdup_printf ("%" G_GINT64_FORMAT, index);
  d->segments = g_array_new (FALSE, FALSE, sizeof (TmPickleValue));
  d->events = g_array_new (FALSE, FALSE, sizeof (guint32));
  d->checkpoints = g_array_new (FALSE, FALSE, sizeof (TmTorchCheckpoint));
  d->freed = g_array_new (FALSE, FALSE, sizeof (TmTorchFreed));
  d->orphans = g_array_new (FALSE, FALSE, sizeof (guint32));
  d->walk = tm_torch_walk_new ();
  d->figures.peak_index = -1;
  d->figures.peak_reserved_index = -1;
  g_ptr_array_add (devices, d);
  return d;
}

static int
compare_devices (gconstpointer a,
                 gconstpointer b)
{
  const TmTorchDevice *x = *(TmTorchDevice * const *) a;
  const TmTorchDevice *y = *(TmTorchDevice * const *) b;

  return x->index < y->index ? -1 : x->index > y->index;
}

static const char * const entry_keys[TM_TORCH_N_KEYS] = {
  "action", "addr", "size", "time_us", "frames", "stream",
};

/* Each shape's slots of the entry keys, once the pickle is read. */
static void
find_slots (TmTorchSnapshot *self)
{
  self->n_shapes = tm_pickle_get_n_shapes (self->pickle);
  self->slots = g_new (gint8, (gsize) self->n_shapes * TM_TORCH_N_KEYS);
  for (guint shape = 0; shape < self->n_shapes; shape++)
    for (guint k = 0; k < TM_TORCH_N_KEYS; k++)
      self->slots[(gsize) shape * TM_TORCH_N_KEYS + k] =
        (gint8) (shape == 0 ? -1 : tm_pickle_shape_find (self->pickle, shape, entry_keys[k]));
}

void
tm_torch_entry_read_keys (TmTorchSnapshot *self,
                          TmPickleValue    entry,
                          guint            keys,
                          TmTorchEntry    *out)
{
  TmPickle *p = self->pickle;
  TmPickleValue values[TM_PICKLE_MAX_SHAPE_KEYS];
  guint shape = tm_pickle_dict_shape (p, entry);
  const gint8 *slots;
  guint n = 0;

  out->present = 0;
  for (guint k = 0; k < TM_TORCH_N_KEYS; k++)
    out->value[k] = TM_PICKLE_VALUE_NONE;
  if (shape == 0 || shape >= self->n_shapes)
    {
      /* A dict of pairs: by name. */
      for (guint k = 0; k < TM_TORCH_N_KEYS; k++)
        if ((keys & (1u << k)) && tm_pickle_dict_lookup (p, entry, entry_keys[k], &out->value[k]))
          out->present |= 1u << k;
      return;
    }
  /* A lazy dict is read again only as far as the last key asked for. */
  slots = &self->slots[(gsize) shape * TM_TORCH_N_KEYS];
  for (guint k = 0; k < TM_TORCH_N_KEYS; k++)
    if ((keys & (1u << k)) && slots[k] >= 0)
      n = MAX (n, (guint) slots[k] + 1);
  if (n == 0 || tm_pickle_dict_get_first_values (p, entry, n, values) != shape)
    return;
  for (guint k = 0; k < TM_TORCH_N_KEYS; k++)
    if ((keys & (1u << k)) && slots[k] >= 0)
      {
        out->value[k] = values[slots[k]];
        out->present |= 1u << k;
      }
}

void
tm_torch_entry_read (TmTorchSnapshot *self,
                     TmPickleValue    entry,
                     TmTorchEntry    *out)
{
  tm_torch_entry_read_keys (self, entry, (1u << TM_TORCH_N_KEYS) - 1, out);
}

gint64
tm_torch_entry_field_int (TmTorchSnapshot *self,
                          TmPickleValue    entry,
                          guint            key)
{
  TmTorchEntry e;
  gint64 v = 0;

  tm_torch_entry_read_keys (self, entry, 1u << key, &e);
  tm_torch_entry_int (self->pickle, &e, key, &v);
  return v;
}

static gboolean
read_shape (TmTorchSnapshot *self,
            GCancellable    *cancellable,
            GError         **error)
{
  TmPickle *p = self->pickle;
  TmPickleValue root = tm_pickle_get_root (p), segments, traces = 0;
  const TmPickleValue *items;
  gboolean have_traces = FALSE;
  gsize n;

  self->devices = g_ptr_array_new_with_free_func (device_free);

  /* The legacy form is a bare list of segments. */
  if (tm_pickle_kind (p, root) == TM_PICKLE_LIST)
    segments = root;
  else if (tm_pickle_kind (p, root) != TM_PICKLE_DICT)
    return tm_torch_fail_shape (error, _("the pickle holds a %s, not a dict"),
                       tm_pickle_kind_name (tm_pickle_kind (p, root)));
  else if (!tm_pickle_dict_lookup (p, root, "segments", &segments) ||
           tm_pickle_kind (p, segments) != TM_PICKLE_LIST)
    return tm_torch_fail_shape (error, _("the dict has no “segments” list"));
  else
    have_traces = tm_pickle_dict_lookup (p, root, "device_traces", &traces);

  if (have_traces && tm_pickle_kind (p, traces) != TM_PICKLE_LIST)
    return tm_torch_fail_shape (error, _("“device_traces” is a %s, not a list"),
                       tm_pickle_kind_name (tm_pickle_kind (p, traces)));

  items = tm_pickle_get_items (p, segments, &n);
  for (gsize i = 0; i < n; i++)
    {
      gint64 device;
      TmPickleValue blocks;

      if (tm_pickle_kind (p, items[i]) != TM_PICKLE_DICT)
        return tm_torch_fail_shape (error, _("segment %zu is a %s, not a dict"),
                           i, tm_pickle_kind_name (tm_pickle_kind (p, items[i])));
      if (!tm_torch_lookup_int (p, items[i], "device", &device))
        device = 0;
      if (!tm_pickle_dict_lookup (p, items[i], "blocks", &blocks) ||
          tm_pickle_kind (p, blocks) != TM_PICKLE_LIST)
        return tm_torch_fail_shape (error, _("segment %zu has no “blocks” list"), i);
      g_array_append_val (device_for (self->devices, device)->segments, items[i]);
    }

  if (have_traces)
    {
      const TmPickleValue *lists = tm_pickle_get_items (p, traces, &n);

      for (gsize i = 0; i < n; i++)
        {
          if (tm_pickle_kind (p, lists[i]) != TM_PICKLE_LIST)
            return tm_torch_fail_shape (error, _("device_traces[%zu] is a %s, not a list"),
                               i, tm_pickle_kind_name (tm_pickle_kind (p, lists[i])));
          if (tm_pickle_get_length (p, lists[i]) > 0 &&
              !tm_torch_read_trace (self, device_for (self->devices, (gint64) i), lists[i], cancellable, error))
            return FALSE;
        }
    }
  g_ptr_array_sort (self->devices, compare_devices);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Analysis (docs/pytorch.md)                                             */

/* A block's requested bytes as `_memory_viz.py` takes them: requested_size,
 * or a legacy block's first history item, or its size. */
gint64
tm_torch_block_requested (TmPickle      *p,
                          TmPickleValue  block,
                          gint64         size)
{
  TmPickleValue history;
  gint64 v;

  if (tm_pickle_dict_lookup (p, block, "frames", &history) || !tm_pickle_dict_lookup (p, block, "history", &history))
    return tm_torch_lookup_int (p, block, "requested_size", &v) ? v : size;
  {
    gsize n;
    const TmPickleValue *items = tm_pickle_get_items (p, history, &n);

    return n > 0 && tm_torch_lookup_int (p, items[0], "real_size", &v) ? v : size;
  }
}

TmTorchBlockState
tm_torch_block_state (TmPickle      *p,
                      TmPickleValue  block)
{
  TmPickleValue v;

  if (!tm_pickle_dict_lookup (p, block, "state", &v))
    return TM_TORCH_BLOCK_OTHER;
  if (tm_pickle_string_equal (p, v, "active_allocated"))
    return TM_TORCH_BLOCK_ACTIVE;
  if (tm_pickle_string_equal (p, v, "active_pending_free"))
    return TM_TORCH_BLOCK_PENDING;
  if (tm_pickle_string_equal (p, v, "inactive"))
    return TM_TORCH_BLOCK_INACTIVE;
  return TM_TORCH_BLOCK_OTHER;
}

void
tm_torch_each_block (TmTorchSnapshot *self,
                     TmTorchDevice          *d,
                     TmTorchBlockFunc        func,
                     gpointer         data)
{
  TmPickle *p = self->pickle;

  for (guint s = 0; s < d->segments->len; s++)
    {
      TmPickleValue seg = g_array_index (d->segments, TmPickleValue, s), blocks;
      const TmPickleValue *items;
      guint64 address = 0;
      gsize n;

      tm_torch_lookup_addr (p, seg, "address", &address);
      tm_pickle_dict_lookup (p, seg, "blocks", &blocks);
      items = tm_pickle_get_items (p, blocks, &n);
      for (gsize b = 0; b < n; b++)
        {
          gint64 size = 0;
          guint64 at;

          if (tm_pickle_kind (p, items[b]) != TM_PICKLE_DICT)
            continue;
          tm_torch_lookup_int (p, items[b], "size", &size);
          size = MAX (size, 0);
          /* The writer sets address = segment address + the sizes before. */
          if (!tm_torch_lookup_addr (p, items[b], "address", &at))
            at = address;
          func (self, seg, items[b], at, size, data);
          address = at + (guint64) size;
        }
    }
}

static void
fold_block (TmTorchSnapshot *self,
            TmPickleValue    segment,
            TmPickleValue    block,
            guint64          address,
            gint64           size,
            gpointer         data)
{
  TmTorchFigures *f = data;
  TmTorchBlockState state = tm_torch_block_state (self->pickle, block);

  f->n_blocks++;
  if (state == TM_TORCH_BLOCK_ACTIVE)
    {
      gint64 requested = tm_torch_block_requested (self->pickle, block, size);

      f->n_active_allocated_blocks++;
      f->snapshot_allocated_bytes = tm_sat_add (f->snapshot_allocated_bytes, requested);
      f->snapshot_allocated_block_bytes = tm_sat_add (f->snapshot_allocated_block_bytes, size);
      f->free_internal_bytes = tm_sat_add (f->free_internal_bytes, size - requested);
    }
  else
    {
      f->free_external_bytes = tm_sat_add (f->free_external_bytes, size);
      f->n_active_pending_free_blocks += state == TM_TORCH_BLOCK_PENDING;
      f->n_inactive_blocks += state == TM_TORCH_BLOCK_INACTIVE;
      if (state == TM_TORCH_BLOCK_INACTIVE)
        f->largest_inactive_block_bytes = MAX (f->largest_inactive_block_bytes, size);
    }
}

static void
add_ghost (TmTorchSnapshot *self,
           TmPickleValue    segment,
           TmPickleValue    block,
           guint64          address,
           gint64           size,
           gpointer         data)
{
  TmTorchWalk *c = data;
  TmPickle *p = self->pickle;
  TmTorchAllocation a;

  if (tm_torch_block_state (p, block) != TM_TORCH_BLOCK_ACTIVE ||
      tm_addr_map_lookup (c->live, address, NULL))
    return;
  a.address = address;
  a.bytes = tm_torch_block_requested (p, block, size);
  a.start = -1;
  a.end = -1;
  a.origin = TM_TORCH_ORIGIN_SNAPSHOT;
  a.frames = tm_torch_lookup_or_none (p, block, "frames");
  a.stream = tm_torch_lookup_or_none (p, segment, "stream");
  g_array_append_val (c->ghosts, a);
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static void
collect_active (TmTorchSnapshot *self,
                TmPickleValue    segment,
                TmPickleValue    block,
                guint64          address,
                gint64           size,
                gpointer         data)
{
  if (tm_torch_block_state (self->pickle, block) == TM_TORCH_BLOCK_ACTIVE)
    g_array_append_val ((GArray *) data, address);
}

static void
analyse (TmTorchSnapshot *self,
         TmTorchDevice   *d)
{
  TmPickle *p = self->pickle;
  TmTorchFigures *f = &d->figures;
  TmTorchWalk *c = d->walk;
  gint64 v0 = 0;

  /* Snapshot-time state (`segsum`), and the reserved bytes. */
  f->n_segments = d->segments->len;
  for (guint s = 0; s < d->segments->len; s++)
    {
      gint64 total = 0;

      tm_torch_lookup_int (p, g_array_index (d->segments, TmPickleValue, s), "total_size", &total);
      f->snapshot_reserved_bytes = tm_sat_add (f->snapshot_reserved_bytes, total);
    }
  tm_torch_each_block (self, d, fold_block, f);

  /* Every active_allocated block at no live alloc's address is live from
   * the start too; they go first. */
  tm_torch_each_block (self, d, add_ghost, c);
  f->n_initially_from_snapshot = c->ghosts->len - f->n_initially_from_free;
  f->n_initially_allocated = c->ghosts->len;
  for (guint k = 0; k < c->ghosts->len; k++)
    v0 = tm_sat_add (v0, g_array_index (c->ghosts, TmTorchAllocation, k).bytes);
  /* The allocations a second alloc at their address left live: the map
   * of live addresses no longer leads to them. */
  for (guint k = 0; k < c->allocs->len; k++)
    {
      const TmTorchAllocation *a = &g_array_index (c->allocs, TmTorchAllocation, k);
      guint32 live, entry = (guint32) a->start;

      if (a->end < 0 && !(tm_addr_map_lookup (c->live, a->address, &live) && live == k))
        g_array_append_val (d->orphans, entry);
    }
  g_array_prepend_vals (c->allocs, c->ghosts->data, c->ghosts->len);
  d->n_allocs = c->allocs->len;
  d->allocs = (TmTorchAllocation *) (gpointer) g_array_free (g_steal_pointer (&c->allocs), FALSE);

  f->n_allocations = f->n_by_action[TM_TORCH_ALLOC];
  f->n_deallocations = f->n_by_action[TM_TORCH_FREE_COMPLETED];
  f->n_timeline_allocations = d->n_allocs;
  f->initially_allocated_bytes = v0;
  /* The peak is v0 unless an entry went higher (peak_index says which). */
  f->peak_bytes = tm_sat_add (v0, c->peak_rel);
  f->allocated_bytes_at_end = tm_sat_add (v0, c->rel_at_end);

  /* Live at the peak, and never freed. */
  {
    g_autoptr(GArray) never = g_array_new (FALSE, FALSE, sizeof (guint64));
    g_autoptr(GArray) active = g_array_new (FALSE, FALSE, sizeof (guint64));

    for (guint k = 0; k < d->n_allocs; k++)
      {
        const TmTorchAllocation *a = &d->allocs[k];

        if (a->start <= f->peak_index && (a->end < 0 || a->end > f->peak_index))
          f->n_live_at_peak++;
        if (a->end < 0)
          {
            f->n_never_freed++;
            f->never_freed_bytes = tm_sat_add (f->never_freed_bytes, a->bytes);
            g_array_append_val (never, a->address);
            if (a->start >= 0)
              {
                f->n_never_freed_traced++;
                f->never_freed_traced_bytes = tm_sat_add (f->never_freed_traced_bytes, a->bytes);
              }
          }
      }
    tm_torch_each_block (self, d, collect_active, active);
    g_array_sort (never, compare_u64);
    g_array_sort (active, compare_u64);
    f->end_matches_snapshot = never->len == active->len &&
                              (never->len == 0 ||
                               memcmp (never->data, active->data, never->len * sizeof (guint64)) == 0);
  }

  /* The reserved series: r0 = the snapshot's total minus the trace's net
   * segment change (docs/pytorch.md, "The reserved series"). */
  f->reserved_bytes_at_start = tm_sat_sub (f->snapshot_reserved_bytes, c->reserved_rel);
  f->peak_reserved_bytes = tm_sat_add (f->reserved_bytes_at_start, c->peak_reserved_rel);
  f->reserved_bytes_at_end = f->snapshot_reserved_bytes;

  if (f->has_time)
    {
      f->first_time_us = tm_torch_entry_field_int (self, d->entry[0], TM_TORCH_KEY_TIME);
      f->last_time_us = tm_torch_entry_field_int (self, d->entry[d->n - 1], TM_TORCH_KEY_TIME);
    }
  g_clear_pointer (&d->walk, tm_torch_walk_free);
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */

typedef struct
{
  TmTorchSnapshot *self;
  const guint8    *data;
  gsize            size;
  GCancellable    *cancellable;
  GBytes          *inflated;
} ReadJob;

/* A .pickle.gz, inflated within the limit for pickles (tm-gzip). */
static gboolean
inflate_job (gpointer   user_data,
             GError   **error)
{
  ReadJob *job = user_data;

  job->inflated = tm_gzip_inflate (job->data, job->size, TM_GZIP_PICKLE, job->cancellable, error);
  return job->inflated != NULL;
}

static gboolean
read_job (gpointer   user_data,
          GError   **error)
{
  ReadJob *job = user_data;
  TmTorchSnapshot *self = job->self;

  self->pickle = tm_pickle_read (job->data, job->size, error);
  if (self->pickle == NULL)
    return FALSE;
  find_slots (self);
  if (!read_shape (self, job->cancellable, error))
    return FALSE;
  for (guint i = 0; i < self->devices->len; i++)
    {
      if (g_cancellable_set_error_if_cancelled (job->cancellable, error))
        return FALSE;
      analyse (self, g_ptr_array_index (self->devices, i));
    }
  return TRUE;
}

TmTorchSnapshot *
tm_torch_snapshot_read (TmSource      *source,
                        GCancellable  *cancellable,
                        GError       **error)
{
  TmTorchReadOptions defaults = { TM_TORCH_CHECKPOINT, 2 * (gsize) TM_TORCH_CHECKPOINT };

  return tm_torch_snapshot_read_with_options (source, &defaults, cancellable, error);
}

TmTorchSnapshot *
tm_torch_snapshot_read_with_options (TmSource                 *source,
                                     const TmTorchReadOptions *options,
                                     GCancellable             *cancellable,
                                     GError                  **error)
{
  g_autoptr(TmTorchSnapshot) self = g_new0 (TmTorchSnapshot, 1);
  ReadJob job = { 0 };

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (options != NULL && options->checkpoint > 0, NULL);

  self->ref_count = 1;
  self->checkpoint = options->checkpoint;
  self->two_parts_min = options->two_parts_min;
  self->source = tm_source_ref (source);
  job.self = self;
  job.data = tm_source_get_data (source);
  job.size = tm_source_get_size (source);
  job.cancellable = cancellable;

  if (tm_gzip_sniff (job.data, job.size))
    {
      g_autoptr(GBytes) plain = NULL;

      if (!tm_source_run_guarded (source, inflate_job, &job, error))
        return NULL;
      plain = g_steal_pointer (&job.inflated);
      tm_source_unref (self->source);
      self->source = tm_source_new_from_bytes (plain, tm_source_get_path (source));
      job.data = tm_source_get_data (self->source);
      job.size = tm_source_get_size (self->source);
    }

  if (!tm_source_run_guarded (self->source, read_job, &job, error))
    return NULL;
  return g_steal_pointer (&self);
}

TmTorchSnapshot *
tm_torch_snapshot_ref (TmTorchSnapshot *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
tm_torch_snapshot_unref (TmTorchSnapshot *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  g_clear_pointer (&self->devices, g_ptr_array_unref);
  g_clear_pointer (&self->pickle, tm_pickle_free);
  g_clear_pointer (&self->slots, g_free);
  g_clear_pointer (&self->source, tm_source_unref);
  g_free (self);
}

guint
tm_torch_snapshot_get_protocol (TmTorchSnapshot *self)
{
  return tm_pickle_get_protocol (self->pickle);
}

TmPickle *
tm_torch_snapshot_get_pickle (TmTorchSnapshot *self)
{
  return self->pickle;
}

gsize
tm_torch_snapshot_get_memory_size (TmTorchSnapshot *self)
{
  gsize bytes = tm_pickle_get_memory_size (self->pickle);

  for (guint i = 0; i < self->devices->len; i++)
    {
      TmTorchDevice *d = g_ptr_array_index (self->devices, i);

      bytes += (gsize) d->n + (gsize) d->n_allocs * sizeof (TmTorchAllocation);
    }
  return bytes;
}

guint
tm_torch_snapshot_get_n_devices (TmTorchSnapshot *self)
{
  return self->devices->len;
}

TmTorchDevice *
tm_torch_get_device (TmTorchSnapshot *self,
                     guint            device)
{
  /* A device number from this snapshot's own range. */
  g_assert (device < self->devices->len);
  return g_ptr_array_index (self->devices, device);
}

const char *
tm_torch_snapshot_get_device_id (TmTorchSnapshot *self,
                                 guint            device)
{
  return tm_torch_get_device (self, device)->id;
}

const TmTorchFigures *
tm_torch_snapshot_get_figures (TmTorchSnapshot *self,
                               guint            device)
{
  return &tm_torch_get_device (self, device)->figures;
}

gboolean
tm_torch_snapshot_get_time (TmTorchSnapshot *self,
                            guint            device,
                            gint64           index,
                            gint64          *time_us)
{
  TmTorchDevice *d = tm_torch_get_device (self, device);

  if (!d->figures.has_time || d->n == 0 || index >= (gint64) d->n)
    return FALSE;
  *time_us = tm_torch_entry_field_int (self, d->entry[MAX (index, 0)], TM_TORCH_KEY_TIME);
  return TRUE;
}

const TmTorchAllocation *
tm_torch_snapshot_get_allocations (TmTorchSnapshot *self,
                                   guint            device,
                                   guint           *n_allocations)
{
  TmTorchDevice *d = tm_torch_get_device (self, device);

  *n_allocations = d->n_allocs;
  return d->allocs;
}

static int
compare_live (gconstpointer a,
              gconstpointer b,
              gpointer      allocs)
{
  const TmTorchAllocation *x = &((const TmTorchAllocation *) allocs)[*(const guint *) a];
  const TmTorchAllocation *y = &((const TmTorchAllocation *) allocs)[*(const guint *) b];

  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  if (x->address != y->address)
    return x->address < y->address ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

GArray *
tm_torch_snapshot_live_at_peak (TmTorchSnapshot *self,
                                guint            device)
{
  TmTorchDevice *d = tm_torch_get_device (self, device);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));
  gint64 at = d->figures.peak_index;

  for (guint k = 0; k < d->n_allocs; k++)
    if (d->allocs[k].start <= at && (d->allocs[k].end < 0 || d->allocs[k].end > at))
      g_array_append_val (rows, k);
  g_array_sort_with_data (rows, compare_live, d->allocs);
  return rows;
}

/* ------------------------------------------------------------------ */
/* Stacks                                                               */

/* `_frame_filter` of PyTorch: interpreter and dispatcher frames out. */
static gboolean
frame_kept (const char *name,
            const char *filename)
{
  static const char * const omit_functions[] = {
    "unwind::unwind", "CapturedTraceback::gather", "gather_with_cpp", "_start",
    "__libc_start_main", "PyEval_", "PyObject_", "PyFunction_",
  };
  static const char * const omit_filenames[] = {
    "core/boxing", "/Register", "/Redispatch", "pythonrun.c", "Modules/main.c",
    "Objects/call.c", "Objects/methodobject.c", "pycore_ceval.h", "ceval.c",
    "cpython/abstract.h",
  };

  for (guint i = 0; i < G_N_ELEMENTS (omit_functions); i++)
    if (strstr (name, omit_functions[i]) != NULL)
      return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (omit_filenames); i++)
    if (strstr (filename, omit_filenames[i]) != NULL)
      return FALSE;
  return TRUE;
}

char *
tm_torch_snapshot_format_int (TmTorchSnapshot *self,
                              TmPickleValue    value)
{
  gint64 i;
  guint64 u;

  if (tm_pickle_get_int (self->pickle, value, &i))
    return g_strdup_printf ("%" G_GINT64_FORMAT, i);
  if (tm_pickle_get_uint (self->pickle, value, &u))
    return g_strdup_printf ("%" G_GUINT64_FORMAT, u);
  return g_strdup ("None");
}

/* Appends frame as file:line:name; FALSE if the filter drops it. */
static gboolean
append_frame (TmTorchSnapshot *self,
              GString         *out,
              TmPickleValue    frame)
{
  TmPickle *p = self->pickle;
  TmPickleValue v;
  g_autofree char *name = NULL;
  g_autofree char *filename = NULL;
  g_autofree char *line = NULL;
  const char *s, *base;
  gsize n;

  if (tm_pickle_dict_lookup (p, frame, "name", &v) && (s = tm_pickle_get_string (p, v, &n)) != NULL)
    name = g_strndup (s, n);
  if (tm_pickle_dict_lookup (p, frame, "filename", &v) && (s = tm_pickle_get_string (p, v, &n)) != NULL)
    filename = g_strndup (s, n);
  line = tm_pickle_dict_lookup (p, frame, "line", &v) ? tm_torch_snapshot_format_int (self, v) : g_strdup ("None");
  if (name == NULL)
    name = g_strdup ("");
  if (filename == NULL)
    filename = g_strdup ("");
  if (!frame_kept (name, filename))
    return FALSE;
  base = strrchr (filename, '/');
  g_string_append_printf (out, "%s:%s:%s", base != NULL ? base + 1 : filename, line, name);
  return TRUE;
}

char *
tm_torch_snapshot_format_stack (TmTorchSnapshot *self,
                                TmPickleValue    frames)
{
  gsize n;
  const TmPickleValue *items = tm_pickle_get_items (self->pickle, frames, &n);
  GString *out;
  gboolean first = TRUE;

  if (n == 0)
    return g_strdup ("<non-python>");
  out = g_string_new (NULL);
  for (gsize i = n; i-- > 0;)
    {
      gsize len = out->len;

      if (!first)
        g_string_append_c (out, ';');
      if (append_frame (self, out, items[i]))
        first = FALSE;
      else
        g_string_truncate (out, len);
    }
  return g_string_free (out, FALSE);
}

char *
tm_torch_snapshot_format_top_frame (TmTorchSnapshot *self,
                                    TmPickleValue    frames)
{
  gsize n;
  const TmPickleValue *items = tm_pickle_get_items (self->pickle, frames, &n);
  GString *out = g_string_new (NULL);

  for (gsize i = 0; i < n; i++)
    if (append_frame (self, out, items[i]))
      break;
  return g_string_free (out, FALSE);
}

char *
tm_torch_snapshot_format_frames (TmTorchSnapshot *self,
                                 TmPickleValue    frames)
{
  TmPickle *p = self->pickle;
  gsize n;
  const TmPickleValue *items = tm_pickle_get_items (p, frames, &n);
  GString *out = g_string_new (NULL);

  for (gsize i = 0; i < n; i++)
    {
      TmPickleValue v;
      const char *name = NULL, *file = NULL;
      gsize name_len = 0, file_len = 0;
      g_autofree char *line = NULL;

      if (tm_pickle_dict_lookup (p, items[i], "name", &v))
        name = tm_pickle_get_string (p, v, &name_len);
      if (tm_pickle_dict_lookup (p, items[i], "filename", &v))
        file = tm_pickle_get_string (p, v, &file_len);
      line = tm_pickle_dict_lookup (p, items[i], "line", &v) ? tm_torch_snapshot_format_int (self, v) : g_strdup ("?");
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append_len (out, name != NULL ? name : "?", name != NULL ? (gssize) name_len : 1);
      g_string_append (out, " (");
      g_string_append_len (out, file != NULL ? file : "?", file != NULL ? (gssize) file_len : 1);
      g_string_append_printf (out, ":%s)", line);
    }
  return g_string_free (out, FALSE);
}
