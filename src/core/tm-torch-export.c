/* tm-torch-export.c — the summary, the tables and the collapsed stacks of a snapshot
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tm-export.h"
#include "tm-torch-export.h"
#include "tm-torch-snapshot-private.h"

/* ------------------------------------------------------------------ */
/* Collapsed stacks (`_memory_viz.py memory` and `segments`)            */

typedef struct
{
  GHashTable *sums;     /* line prefix → gint64 bytes */
  GHashTable *stacks;   /* frames word → formatted stack */
  gboolean    segments;
} Collapsed;

static void
add_line (Collapsed  *c,
          char       *stack_line,
          gint64      bytes)
{
  gint64 *sum = g_hash_table_lookup (c->sums, stack_line);

  if (sum == NULL)
    {
      sum = g_new0 (gint64, 1);
      g_hash_table_insert (c->sums, stack_line, sum);
    }
  else
    g_free (stack_line);
  *sum = tm_sat_add (*sum, bytes);
}

static const char *
cached_stack (TmTorchSnapshot *self,
              Collapsed       *c,
              TmPickleValue    frames)
{
  char *s = g_hash_table_lookup (c->stacks, &frames);

  if (s == NULL)
    {
      TmPickleValue *key = g_new (TmPickleValue, 1);

      *key = frames;
      s = tm_torch_snapshot_format_stack (self, frames);
      g_hash_table_insert (c->stacks, key, s);
    }
  return s;
}

static void
collapse_block (TmTorchSnapshot *self,
                TmPickleValue    segment,
                TmPickleValue    block,
                guint64          address,
                gint64           size,
                gpointer         data)
{
  Collapsed *c = data;
  TmPickle *p = self->pickle;
  TmPickleValue v, history;
  g_autofree char *stream = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *state = NULL;
  const char *s;
  gsize n;
  gint64 accounted = 0;

  stream = tm_pickle_dict_lookup (p, segment, "stream", &v) ? tm_torch_snapshot_format_int (self, v) : g_strdup ("0");
  if (c->segments)
    {
      guint64 seg_address = 0;

      tm_torch_lookup_addr (p, segment, "address", &seg_address);
      prefix = g_strdup_printf ("stream_%s;seg_%" G_GUINT64_FORMAT, stream, seg_address);
    }
  else
    prefix = g_strdup_printf ("stream_%s", stream);
  state = tm_pickle_dict_lookup (p, block, "state", &v) && (s = tm_pickle_get_string (p, v, &n)) != NULL
          ? g_strndup (s, n) : g_strdup ("None");

  if (!tm_pickle_dict_lookup (p, block, "history", &history))
    {
      /* A legacy block without frames counts as "<non-python>" too. */
      accounted = tm_torch_block_requested (p, block, size);
      add_line (c, g_strdup_printf ("%s;%s;%s", prefix, state,
                                    cached_stack (self, c, tm_torch_lookup_or_none (p, block, "frames"))),
                accounted);
    }
  else
    {
      const TmPickleValue *items = tm_pickle_get_items (p, history, &n);

      for (gsize h = 0; h < n; h++)
        {
          gint64 real = 0;

          tm_torch_lookup_int (p, items[h], "real_size", &real);
          accounted = tm_sat_add (accounted, real);
          if (tm_pickle_dict_lookup (p, items[h], "frames", &v))
            add_line (c, g_strdup_printf ("%s;%s;%s", prefix, state, cached_stack (self, c, v)), real);
          else
            add_line (c, g_strdup_printf ("%s;%s;<no-context>", prefix, state), real);
        }
    }
  if (size != accounted)
    add_line (c, g_strdup_printf ("%s;%s;<gaps>", prefix, state), tm_sat_sub (size, accounted));
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

char *
tm_torch_export_collapsed (TmTorchSnapshot *self,
                             guint            device,
                             gboolean         segments)
{
  TmTorchDevice *d = tm_torch_get_device (self, device);
  Collapsed c;
  g_autofree gpointer *keys = NULL;
  guint n_keys = 0;
  GString *out = g_string_new (NULL);

  c.sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  c.stacks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  c.segments = segments;
  tm_torch_each_block (self, d, collapse_block, &c);

  keys = g_hash_table_get_keys_as_array (c.sums, &n_keys);
  qsort (keys, n_keys, sizeof (gpointer), compare_lines);
  for (guint i = 0; i < n_keys; i++)
    {
      const char *line = keys[i];
      gint64 bytes = *(gint64 *) g_hash_table_lookup (c.sums, line);

      if (bytes != 0)
        g_string_append_printf (out, "%s %" G_GINT64_FORMAT "\n", line, bytes);
    }
  g_hash_table_unref (c.sums);
  g_hash_table_unref (c.stacks);
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Summary                                                              */

static void
append_time (GString         *out,
             TmTorchSnapshot *self,
             guint            device,
             gint64           index)
{
  gint64 t;

  if (tm_torch_snapshot_get_time (self, device, index, &t))
    g_string_append_printf (out, "%" G_GINT64_FORMAT, t);
  else
    g_string_append (out, "null");
}

static const char *
origin_name (TmTorchOrigin origin)
{
  switch (origin)
    {
    case TM_TORCH_ORIGIN_TRACE: return "trace";
    case TM_TORCH_ORIGIN_SNAPSHOT: return "snapshot";
    case TM_TORCH_ORIGIN_FREE: return "free";
    default: return "?";
    }
}

static const char * const action_keys[] = {
  "alloc", "free_requested", "free_completed", "segment_alloc", "segment_free",
  "segment_map", "segment_unmap", "snapshot", "oom", "other",
};

static guint
append_device (TmTorchSnapshot *self,
               guint            device,
               GString         *out)
{
  const TmTorchFigures *f = tm_torch_snapshot_get_figures (self, device);
  const TmTorchAllocation *allocs;
  g_autoptr(GArray) live = tm_torch_snapshot_live_at_peak (self, device);
  gboolean first = TRUE;
  guint n_allocs, bad = 0;

  allocs = tm_torch_snapshot_get_allocations (self, device, &n_allocs);

#define INT(key, v) g_string_append_printf (out, ", \"" key "\": %" G_GINT64_FORMAT, (gint64) (v))
  g_string_append_printf (out, "{\"peak_bytes_in_use\": %" G_GINT64_FORMAT, f->peak_bytes);
  g_string_append (out, ", \"peak_time_us\": ");
  if (f->n_entries > 0)
    append_time (out, self, device, f->peak_index);
  else
    g_string_append (out, "null");
  INT ("peak_trace_index", f->peak_index);
  INT ("num_allocations", f->n_allocations);
  INT ("num_timeline_allocations", f->n_timeline_allocations);
  INT ("num_never_freed", f->n_never_freed);
  INT ("never_freed_bytes", f->never_freed_bytes);
  INT ("num_deallocations", f->n_deallocations);
  INT ("num_trace_entries", f->n_entries);
  g_string_append (out, ", \"trace_actions\": {");
  for (guint a = 0; a < G_N_ELEMENTS (action_keys); a++)
    if (f->n_by_action[a] > 0)
      {
        g_string_append_printf (out, "%s\"%s\": %u", first ? "" : ", ", action_keys[a], f->n_by_action[a]);
        first = FALSE;
      }
  g_string_append_printf (out, "}, \"time_axis\": \"%s\"", f->has_time ? "time_us" : "trace_index");
  g_string_append (out, ", \"first_time_us\": ");
  append_time (out, self, device, 0);
  g_string_append (out, ", \"last_time_us\": ");
  append_time (out, self, device, (gint64) f->n_entries - 1);
  INT ("num_initially_allocated", f->n_initially_allocated);
  INT ("initially_allocated_bytes", f->initially_allocated_bytes);
  INT ("num_initially_allocated_from_snapshot", f->n_initially_from_snapshot);
  INT ("num_initially_allocated_from_free", f->n_initially_from_free);
  INT ("num_live_at_peak", f->n_live_at_peak);
  INT ("allocated_bytes_at_end", f->allocated_bytes_at_end);
  INT ("num_never_freed_traced", f->n_never_freed_traced);
  INT ("never_freed_traced_bytes", f->never_freed_traced_bytes);
  g_string_append_printf (out, ", \"end_matches_snapshot\": %s", f->end_matches_snapshot ? "true" : "false");
  INT ("reserved_bytes_at_start", f->reserved_bytes_at_start);
  INT ("peak_reserved_bytes", f->peak_reserved_bytes);
  INT ("peak_reserved_trace_index", f->peak_reserved_index);
  g_string_append (out, ", \"peak_reserved_time_us\": ");
  if (f->n_entries > 0)
    append_time (out, self, device, f->peak_reserved_index);
  else
    g_string_append (out, "null");
  INT ("reserved_bytes_at_end", f->reserved_bytes_at_end);
  INT ("num_oom", f->n_by_action[TM_TORCH_OOM]);
  g_string_append_printf (out, ", \"snapshot\": {\"num_segments\": %u", f->n_segments);
  INT ("num_blocks", f->n_blocks);
  INT ("num_active_allocated_blocks", f->n_active_allocated_blocks);
  INT ("num_active_pending_free_blocks", f->n_active_pending_free_blocks);
  INT ("num_inactive_blocks", f->n_inactive_blocks);
  INT ("reserved_bytes", f->snapshot_reserved_bytes);
  INT ("allocated_bytes", f->snapshot_allocated_bytes);
  INT ("allocated_block_bytes", f->snapshot_allocated_block_bytes);
  INT ("free_internal_bytes", f->free_internal_bytes);
  INT ("free_external_bytes", f->free_external_bytes);
  INT ("largest_inactive_block_bytes", f->largest_inactive_block_bytes);
  g_string_append (out, "}, \"breakdown\": [");
  for (guint r = 0; r < live->len; r++)
    {
      const TmTorchAllocation *a = &allocs[g_array_index (live, guint, r)];
      g_autofree char *stream = tm_torch_snapshot_format_int (self, a->stream);
      g_autofree char *stack = tm_torch_snapshot_format_stack (self, a->frames);

      g_string_append_printf (out, "%s{\"address\": %" G_GUINT64_FORMAT, r > 0 ? ", " : "", a->address);
      INT ("bytes", a->bytes);
      g_string_append_printf (out, ", \"origin\": \"%s\"", origin_name (a->origin));
      INT ("trace_index", a->start);
      g_string_append (out, ", \"time_us\": ");
      if (a->start >= 0)
        append_time (out, self, device, a->start);
      else
        g_string_append (out, "null");
      g_string_append_printf (out, ", \"stream\": %s, \"stack\": ", stream);
      bad += tm_export_append_string (out, stack);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "]}");
#undef INT
  return bad;
}

guint
tm_torch_export_summary_json (TmTorchSnapshot *self,
                              const char      *input,
                              const char      *path,
                              GString         *out)
{
  guint n = tm_torch_snapshot_get_n_devices (self);
  guint bad = 0;

  g_string_append (out, "{\"input\": ");
  bad += tm_export_append_string (out, input);
  g_string_append (out, ", \"file\": ");
  bad += tm_export_append_string (out, path);
  g_string_append_printf (out, ", \"format\": \"pytorch-snapshot\", \"complete\": true, \"num_hosts\": 1, "
                          "\"version\": 1, \"pickle_protocol\": %u, \"memory_ids\": [",
                          tm_torch_snapshot_get_protocol (self));
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s\"%s\"", i > 0 ? ", " : "", tm_torch_snapshot_get_device_id (self, i));
  g_string_append (out, "], \"memory\": {");
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (out, "%s\"%s\": ", i > 0 ? ", " : "", tm_torch_snapshot_get_device_id (self, i));
      bad += append_device (self, i, out);
    }
  g_string_append (out, "}}\n");
  return bad;
}

/* ------------------------------------------------------------------ */
/* Tables                                                               */

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void
append_csv (GString    *out,
            const char *s)
{
  if (strpbrk (s, ",\"\r\n") == NULL)
    {
      g_string_append (out, s);
      return;
    }
  g_string_append_c (out, '"');
  for (; *s; s++)
    {
      if (*s == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
}

static void
append_row (TmTorchSnapshot         *self,
            guint                    device,
            const TmTorchAllocation *a,
            gboolean                 with_end,
            GString                 *out)
{
  g_autofree char *stream = tm_torch_snapshot_format_int (self, a->stream);
  g_autofree char *top = tm_torch_snapshot_format_top_frame (self, a->frames);
  g_autofree char *stack = tm_torch_snapshot_format_stack (self, a->frames);
  gint64 t;

  g_string_append_printf (out, "%" G_GUINT64_FORMAT ",%" G_GINT64_FORMAT ",%s,%" G_GINT64_FORMAT ",",
                          a->address, a->bytes, origin_name (a->origin), a->start);
  if (a->start >= 0 && tm_torch_snapshot_get_time (self, device, a->start, &t))
    g_string_append_printf (out, "%" G_GINT64_FORMAT, t);
  if (with_end)
    {
      g_string_append_printf (out, ",%" G_GINT64_FORMAT ",", a->end);
      if (a->end >= 0 && tm_torch_snapshot_get_time (self, device, a->end, &t))
        g_string_append_printf (out, "%" G_GINT64_FORMAT, t);
    }
  g_string_append_printf (out, ",%s,", stream);
  append_csv (out, top);
  g_string_append_c (out, ',');
  append_csv (out, stack);
  g_string_append_c (out, '\n');
}

void
tm_torch_export_breakdown_csv (TmTorchSnapshot *self,
                               guint            device,
                               GString         *out)
{
  g_autoptr(GArray) live = tm_torch_snapshot_live_at_peak (self, device);
  const TmTorchAllocation *allocs;
  guint n;

  allocs = tm_torch_snapshot_get_allocations (self, device, &n);
  g_string_append (out, "address,bytes,origin,trace_index,time_us,stream,top_frame,stack\n");
  for (guint r = 0; r < live->len; r++)
    append_row (self, device, &allocs[g_array_index (live, guint, r)], FALSE, out);
}

void
tm_torch_export_allocations_csv (TmTorchSnapshot *self,
                                 guint            device,
                                 GString         *out)
{
  const TmTorchAllocation *allocs;
  guint n;

  allocs = tm_torch_snapshot_get_allocations (self, device, &n);
  g_string_append (out, "address,bytes,origin,trace_index,time_us,freed_trace_index,freed_time_us,stream,top_frame,stack\n");
  for (guint k = 0; k < n; k++)
    append_row (self, device, &allocs[k], TRUE, out);
}
