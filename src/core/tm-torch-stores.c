/* tm-torch-stores.c — a snapshot's devices as memory stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One store per device (its memory id), one snapshot per trace entry in
 * entry order (docs/pytorch.md, "In the views"): heap = the allocated
 * series, free = reserved − allocated, no stack. Entries are decoded again
 * from the pickle on demand; a deallocation shows its allocation's stack.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-torch-snapshot-private.h"
#include "tm-torch-stores.h"

/* A device's trace, as the store decodes it. */
typedef struct
{
  TmTorchSnapshot *snap;
  guint            device;
  GMutex           lock;
  GHashTable      *scopes;  /* frames word → its scope path ('/'-joined) */
} Decoder;

/* The ref of the one snapshot of a device without trace entries. */
#define STATE_REF G_GUINT64_CONSTANT (0xffffffff)

static void
decoder_free (gpointer data)
{
  Decoder *dec = data;

  g_mutex_clear (&dec->lock);
  g_hash_table_unref (dec->scopes);
  tm_torch_snapshot_unref (dec->snap);
  g_free (dec);
}

/* The stack as a scope path: outermost frame first, one scope per frame
 * that PyTorch's filter keeps, joined by '/' (a '/' inside a frame becomes
 * '\'); "<non-python>" without frames. */
static char *
scope_path (Decoder       *dec,
            TmPickleValue  frames)
{
  char *path;

  g_mutex_lock (&dec->lock);
  path = g_strdup (g_hash_table_lookup (dec->scopes, &frames));
  g_mutex_unlock (&dec->lock);
  if (path != NULL)
    return path;

  {
    g_autofree char *stack = tm_torch_snapshot_format_stack (dec->snap, frames);
    TmPickleValue *key = g_new (TmPickleValue, 1);

    for (char *c = stack; *c != '\0'; c++)
      *c = *c == '/' ? '\\' : *c == ';' ? '/' : *c;
    *key = frames;
    g_mutex_lock (&dec->lock);
    if (g_hash_table_size (dec->scopes) < 1 << 20)
      g_hash_table_replace (dec->scopes, key, g_strdup (stack));
    else
      g_free (key);
    g_mutex_unlock (&dec->lock);
    return g_steal_pointer (&stack);
  }
}

static const char *
action_name (guint8 action)
{
  static const char * const names[] = {
    "alloc", "free_requested", "free_completed", "segment_alloc", "segment_free",
    "segment_map", "segment_unmap", "snapshot", "oom", "other",
  };

  return names[MIN (action, G_N_ELEMENTS (names) - 1)];
}

static gboolean
decode (gpointer     data,
        guint64      ref,
        guint64      meta_ref,
        TmActivity  *activity,
        GError     **error)
{
  Decoder *dec = data;
  TmTorchDevice *d = tm_torch_get_device (dec->snap, dec->device);
  TmPickle *p = dec->snap->pickle;
  TmTorchSlotCache slots = { { 0 }, { { 0 } }, 0 };
  TmPickleValue entry, stream;
  g_autofree char *stream_text = NULL;

  if (ref == STATE_REF || ref >= d->n)
    {
      activity->op_name = g_strdup (_("(the state at snapshot time)"));
      activity->region_type = g_strdup ("snapshot");
      activity->data_type = g_strdup ("");
      activity->shape = g_strdup ("");
      return TRUE;
    }
  entry = d->entry[ref];
  activity->address = tm_torch_entry_uint (p, &slots, entry, TM_TORCH_KEY_ADDR);
  activity->requested_bytes = tm_torch_entry_int (p, &slots, entry, TM_TORCH_KEY_SIZE);
  activity->allocation_bytes = activity->requested_bytes;
  activity->op_name = scope_path (dec, tm_torch_entry_get_or_none (p, &slots, d->entry[MIN (meta_ref, d->n - 1)],
                                                                   TM_TORCH_KEY_FRAMES));
  activity->region_type = g_strdup (action_name (d->action[ref]));
  activity->data_type = g_strdup ("");
  stream = tm_torch_entry_get_or_none (p, &slots, entry, TM_TORCH_KEY_STREAM);
  stream_text = tm_torch_snapshot_format_int (dec->snap, stream);
  activity->shape = g_strdup_printf ("stream %s", stream_text);
  return TRUE;
}

static gboolean
sizes (gpointer     data,
       guint64      ref,
       guint64     *address,
       gint64      *allocation_bytes,
       GError     **error)
{
  Decoder *dec = data;
  TmTorchDevice *d = tm_torch_get_device (dec->snap, dec->device);
  TmTorchSlotCache slots = { { 0 }, { { 0 } }, 0 };

  *address = 0;
  *allocation_bytes = 0;
  if (ref < d->n)
    {
      *address = tm_torch_entry_uint (dec->snap->pickle, &slots, d->entry[ref], TM_TORCH_KEY_ADDR);
      *allocation_bytes = tm_torch_entry_int (dec->snap->pickle, &slots, d->entry[ref], TM_TORCH_KEY_SIZE);
    }
  return TRUE;
}

static const TmMemoryStoreDecoder decoder = { decode, sizes };

/* Microseconds since the first entry as picoseconds, saturating. */
static gint64
entry_time_ps (gint64 time_us,
               gint64 first_us)
{
  return tm_sat_mul (tm_sat_sub (time_us, first_us), 1000000);
}

static TmMemoryStore *
build_store (TmTorchSnapshot *self,
             guint            device)
{
  TmTorchDevice *d = tm_torch_get_device (self, device);
  const TmTorchFigures *f = &d->figures;
  TmPickle *p = self->pickle;
  TmTorchSlotCache slots = { { 0 }, { { 0 } }, 0 };
  Decoder *dec = g_new0 (Decoder, 1);
  TmMemoryStore *store;
  g_autofree gint64 *freed = NULL;
  TmSnapshot snap = { 0 };
  gint64 v = f->initially_allocated_bytes;
  gint64 r = f->reserved_bytes_at_start;
  gint64 high = v;

  dec->snap = tm_torch_snapshot_ref (self);
  dec->device = device;
  g_mutex_init (&dec->lock);
  dec->scopes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  store = tm_memory_store_new_with_decoder (d->id, &decoder, dec, decoder_free);

  snap.step_id = -1;
  if (d->n == 0)
    {
      /* No trace: the state at snapshot time, everything live from the
       * start, a flat timeline. */
      snap.heap_bytes = v;
      snap.free_bytes = MAX (tm_sat_sub (r, v), 0);
      snap.peak_bytes_in_use = v;
      snap.kind = TM_ACTIVITY_UNKNOWN;
      snap.ref = STATE_REF;
      tm_memory_store_add (store, &snap);
      return store;
    }

  /* The bytes each entry frees: those of the allocation it ends. */
  freed = g_new0 (gint64, d->n);
  for (guint k = 0; k < d->n_allocs; k++)
    if (d->allocs[k].end >= 0)
      freed[d->allocs[k].end] = d->allocs[k].bytes;

  for (guint i = 0; i < d->n; i++)
    {
      TmPickleValue e = d->entry[i];
      gint64 size = 0;

      switch (d->action[i])
        {
        case TM_TORCH_ALLOC:
          size = tm_torch_entry_int (p, &slots, e, TM_TORCH_KEY_SIZE);
          v = tm_sat_add (v, size);
          snap.kind = TM_ACTIVITY_ALLOCATION;
          break;
        case TM_TORCH_FREE_COMPLETED:
          v = tm_sat_sub (v, freed[i]);
          snap.kind = TM_ACTIVITY_DEALLOCATION;
          break;
        case TM_TORCH_SEGMENT_ALLOC:
        case TM_TORCH_SEGMENT_MAP:
          r = tm_sat_add (r, tm_torch_entry_int (p, &slots, e, TM_TORCH_KEY_SIZE));
          snap.kind = TM_ACTIVITY_UNKNOWN;
          break;
        case TM_TORCH_SEGMENT_FREE:
        case TM_TORCH_SEGMENT_UNMAP:
          r = tm_sat_sub (r, tm_torch_entry_int (p, &slots, e, TM_TORCH_KEY_SIZE));
          snap.kind = TM_ACTIVITY_UNKNOWN;
          break;
        default:
          snap.kind = TM_ACTIVITY_UNKNOWN;
          break;
        }
      high = MAX (high, v);
      snap.time_ps = f->has_time
                     ? entry_time_ps (tm_torch_entry_int (p, &slots, e, TM_TORCH_KEY_TIME), f->first_time_us)
                     : tm_sat_mul (i, 1000000);
      snap.heap_bytes = v;
      snap.free_bytes = MAX (tm_sat_sub (r, v), 0);
      snap.peak_bytes_in_use = high;
      snap.address = snap.kind != TM_ACTIVITY_UNKNOWN ? tm_torch_entry_uint (p, &slots, e, TM_TORCH_KEY_ADDR) : 0;
      snap.ref = i;
      tm_memory_store_add (store, &snap);
    }
  return store;
}

GPtrArray *
tm_torch_snapshot_build_stores (TmTorchSnapshot *self)
{
  GPtrArray *stores = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (self != NULL, stores);

  for (guint i = 0; i < self->devices->len; i++)
    g_ptr_array_add (stores, build_store (self, i));
  return stores;
}
