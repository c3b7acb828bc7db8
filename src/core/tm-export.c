/* tm-export.c — XProf's memory-profile JSON, CSV and summary out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * JSON is written straight to the stream, memory id by memory id, so that an
 * export never holds a document tree: the numbers must come out exactly as
 * XProf prints them (64-bit integers as strings, shortest round-trip
 * doubles), which a generic JSON tree writer does not do.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "tm-alloc-stats.h"
#include "tm-allocations.h"
#include "tm-export.h"
#include "tm-format.h"
#include "tm-run-summary.h"
#include "tm-scopes.h"
#include "tm-static-plan.h"

void
tm_export_append_double (GString *str,
                         double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    {
      g_string_append (str, "\"NaN\"");
      return;
    }
  if (isinf (value))
    {
      g_string_append (str, value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
      return;
    }

  /* The shortest %g that reads back as the same double; g_ascii_formatd()
   * keeps the decimal point a '.' whatever the locale. */
  for (int precision = 1; precision <= 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }

  g_string_append (str, buf);
}

guint
tm_export_append_string (GString    *str,
                         const char *value)
{
  guint n_replaced = 0;

  g_string_append_c (str, '"');
  for (const guchar *p = (const guchar *) value; *p; p++)
    {
      switch (*p)
        {
        case '"': g_string_append (str, "\\\""); break;
        case '\\': g_string_append (str, "\\\\"); break;
        case '\n': g_string_append (str, "\\n"); break;
        case '\r': g_string_append (str, "\\r"); break;
        case '\t': g_string_append (str, "\\t"); break;
        case '\b': g_string_append (str, "\\b"); break;
        case '\f': g_string_append (str, "\\f"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (str, "\\u%04x", *p);
          else if (p[0] == 0xc0 && p[1] == 0x80)
            {
              /* A NUL kept in a name (tm-format.h). */
              g_string_append (str, "\\u0000");
              p++;
            }
          else if (*p < 0x80)
            g_string_append_c (str, (char) *p);
          else
            {
              /* A whole valid UTF-8 sequence as it is; each byte that
               * starts none becomes U+FFFD. */
              int len = tm_format_utf8_sequence ((const char *) p);

              if (len > 1)
                {
                  g_string_append_len (str, (const char *) p, len);
                  p += len - 1;
                }
              else
                {
                  g_string_append (str, "\xef\xbf\xbd");
                  n_replaced++;
                }
            }
        }
    }
  g_string_append_c (str, '"');
  return n_replaced;
}

static void
append_int64 (GString *str,
              gint64   value)
{
  g_string_append_printf (str, "\"%" G_GINT64_FORMAT "\"", value);
}

static void
append_uint64 (GString *str,
               guint64  value)
{
  g_string_append_printf (str, "\"%" G_GUINT64_FORMAT "\"", value);
}

static gboolean
flush (GOutputStream  *out,
       GString        *str,
       GCancellable   *cancellable,
       GError        **error)
{
  gboolean ok = g_output_stream_write_all (out, str->str, str->len, NULL, cancellable, error);

  g_string_truncate (str, 0);
  return ok;
}

static void
append_stats (GString *str,
              gint64   stack,
              gint64   heap,
              gint64   free_bytes,
              double   fragmentation,
              gint64   peak_bytes_in_use)
{
  g_string_append (str, "{\"stackReservedBytes\":");
  append_int64 (str, stack);
  g_string_append (str, ",\"heapAllocatedBytes\":");
  append_int64 (str, heap);
  g_string_append (str, ",\"freeMemoryBytes\":");
  append_int64 (str, free_bytes);
  g_string_append (str, ",\"fragmentation\":");
  tm_export_append_double (str, fragmentation);
  g_string_append (str, ",\"peakBytesInUse\":");
  append_int64 (str, peak_bytes_in_use);
  g_string_append_c (str, '}');
}

static void
append_metadata (GString        *str,
                 TmActivityKind  kind,
                 gint64          requested,
                 gint64          allocation,
                 guint64         address,
                 const char     *op,
                 gint64          step,
                 const char     *region,
                 const char     *data_type,
                 const char     *shape,
                 guint          *bad)
{
  g_string_append (str, "{\"memoryActivity\":");
  g_string_append (str, kind == TM_ACTIVITY_ALLOCATION ? "\"ALLOCATION\""
                        : kind == TM_ACTIVITY_DEALLOCATION ? "\"DEALLOCATION\""
                        : "\"UNKNOWN_ACTIVITY\"");
  g_string_append (str, ",\"requestedBytes\":");
  append_int64 (str, requested);
  g_string_append (str, ",\"allocationBytes\":");
  append_int64 (str, allocation);
  g_string_append (str, ",\"address\":");
  append_uint64 (str, address);
  g_string_append (str, ",\"tfOpName\":");
  *bad += tm_export_append_string (str, op);
  g_string_append (str, ",\"stepId\":");
  append_int64 (str, step);
  g_string_append (str, ",\"regionType\":");
  *bad += tm_export_append_string (str, region);
  g_string_append (str, ",\"dataType\":");
  *bad += tm_export_append_string (str, data_type);
  g_string_append (str, ",\"tensorShape\":");
  *bad += tm_export_append_string (str, shape);
  g_string_append_c (str, '}');
}

static gboolean
append_snapshot (GString        *str,
                 TmMemoryStore  *store,
                 guint           index,
                 guint          *bad,
                 GError        **error)
{
  TmActivity act;

  if (!tm_memory_store_get_activity (store, index, &act, error))
    return FALSE;

  g_string_append (str, "{\"timeOffsetPs\":");
  append_int64 (str, act.time_ps);
  g_string_append (str, ",\"aggregationStats\":");
  append_stats (str, act.stack_bytes, act.heap_bytes, act.free_bytes,
                act.fragmentation, act.peak_bytes_in_use);
  g_string_append (str, ",\"activityMetadata\":");
  append_metadata (str, act.kind, act.requested_bytes, act.allocation_bytes, act.address,
                   act.op_name, act.step_id, act.region_type, act.data_type, act.shape, bad);
  g_string_append_c (str, '}');

  tm_activity_clear (&act);
  return TRUE;
}

static gboolean
is_stack_row (const TmBreakdownRow *row)
{
  return strcmp (row->op_name, "stack") == 0 && strcmp (row->region_type, "stack") == 0;
}

static gboolean
write_allocator (GString        *str,
                 TmAnalysis     *analysis,
                 guint          *bad,
                 GOutputStream  *out,
                 GCancellable   *cancellable,
                 GError        **error)
{
  TmMemoryStore *store = tm_analysis_get_store (analysis);
  const TmSummary *s = tm_memory_store_get_summary (store);
  GPtrArray *rows = tm_analysis_get_peak_breakdown (analysis);
  g_autoptr(GArray) sampled = NULL;
  g_autoptr(GPtrArray) specials = g_ptr_array_new ();  /* TmBreakdownRow, borrowed */
  gboolean swapped;
  guint n_snapshots = 0;
  gboolean first;

  /* memoryProfileSnapshots: the snapshots of the breakdown rows, in row
   * order; a JSON-born store has no snapshot of its own for them. */
  g_string_append (str, "{\"memoryProfileSnapshots\":[");
  first = TRUE;
  for (guint r = 0; r < rows->len; r++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (rows, r);

      if (row->special)
        continue;
      if (!first)
        g_string_append_c (str, ',');
      first = FALSE;

      if (row->snapshot_index != G_MAXUINT)
        {
          if (!append_snapshot (str, store, row->snapshot_index, bad, error))
            return FALSE;
        }
      else
        {
          g_string_append (str, "{\"timeOffsetPs\":");
          append_int64 (str, row->time_ps);
          g_string_append (str, ",\"aggregationStats\":");
          append_stats (str, 0, 0, 0, 0.0, 0);
          g_string_append (str, ",\"activityMetadata\":");
          append_metadata (str, TM_ACTIVITY_ALLOCATION, row->requested_bytes, row->allocation_bytes,
                           row->address, row->op_name, row->step_id, row->region_type,
                           row->data_type, row->shape, bad);
          g_string_append_c (str, '}');
        }
      if (str->len > 65536 && !flush (out, str, cancellable, error))
        return FALSE;
    }

  g_string_append (str, "],\"profileSummary\":{\"peakBytesUsageLifetime\":");
  append_int64 (str, s->peak_bytes_usage_lifetime);
  g_string_append (str, ",\"peakStats\":");
  append_stats (str, s->peak_stack_bytes, s->peak_heap_bytes, s->peak_free_bytes,
                s->peak_fragmentation, s->peak_stats_peak_bytes_in_use);
  g_string_append (str, ",\"peakStatsTimePs\":");
  append_int64 (str, s->peak_time_ps);
  g_string_append (str, ",\"memoryCapacity\":");
  append_int64 (str, s->memory_capacity);
  g_string_append (str, "},\"activeAllocations\":[");

  /* XProf inserts the special allocations in this order, unused memory
   * then stack, and rows name them by that index. */
  for (guint r = 0; r < rows->len; r++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (rows, r);

      if (row->special)
        g_ptr_array_add (specials, (gpointer) row);
    }
  swapped = specials->len == 2 && is_stack_row (g_ptr_array_index (specials, 0));
  if (swapped)
    {
      gpointer t = specials->pdata[0];
      specials->pdata[0] = specials->pdata[1];
      specials->pdata[1] = t;
    }

  /* Any number of special rows (a hand-made file may hold many), each
   * named by its index in specialAllocations. */
  for (guint r = 0, k = 0; r < rows->len; r++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (rows, r);
      gint64 special_index = -1;

      if (row->special)
        {
          special_index = swapped ? 1 - k : k;
          k++;
        }

      if (r > 0)
        g_string_append_c (str, ',');
      g_string_append (str, "{\"snapshotIndex\":");
      /* XProf leaves a special row's snapshot index at -(special index + 1). */
      append_int64 (str, row->special ? -(special_index + 1) : (gint64) n_snapshots++);
      g_string_append (str, ",\"specialIndex\":");
      append_int64 (str, special_index);
      g_string_append (str, ",\"numOccurrences\":");
      append_int64 (str, (gint64) row->n_occurrences);
      g_string_append_c (str, '}');
    }

  g_string_append (str, "],\"specialAllocations\":[");
  for (guint k = 0; k < specials->len; k++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (specials, k);

      if (k > 0)
        g_string_append_c (str, ',');
      append_metadata (str, TM_ACTIVITY_ALLOCATION, row->requested_bytes, row->allocation_bytes,
                       0, row->op_name, row->step_id, row->region_type, row->data_type, row->shape, bad);
    }

  g_string_append (str, "],\"sampledTimelineSnapshots\":[");
  sampled = tm_analysis_sample (store, TM_XPROF_MAX_SNAPSHOTS);
  for (guint k = 0; k < sampled->len; k++)
    {
      if (k > 0)
        g_string_append_c (str, ',');
      if (!append_snapshot (str, store, g_array_index (sampled, guint, k), bad, error))
        return FALSE;
      if (str->len > 65536 && !flush (out, str, cancellable, error))
        return FALSE;
    }
  g_string_append (str, "]}");

  return TRUE;
}

gboolean
tm_export_xprof_json (TmProfile      *profile,
                      GOutputStream  *out,
                      GCancellable   *cancellable,
                      GError        **error)
{
  return tm_export_xprof_json_full (profile, out, NULL, cancellable, error);
}

gboolean
tm_export_xprof_json_full (TmProfile      *profile,
                           GOutputStream  *out,
                           guint          *n_replaced,
                           GCancellable   *cancellable,
                           GError        **error)
{
  g_autoptr(GString) str = g_string_sized_new (65536 + 4096);
  GArray *modules;
  guint n, bad = 0;

  g_return_val_if_fail (TM_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  n = tm_profile_get_n_memory_ids (profile);

  g_string_append (str, "{\"memoryProfilePerAllocator\":{");
  for (guint i = 0; i < n; i++)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (profile, i);

      if (i > 0)
        g_string_append_c (str, ',');
      bad += tm_export_append_string (str, tm_memory_store_get_id (store));
      g_string_append_c (str, ':');
      if (!write_allocator (str, tm_profile_get_analysis (profile, i), &bad, out, cancellable, error))
        return FALSE;
      if (!flush (out, str, cancellable, error))
        return FALSE;
    }

  g_string_append (str, "},\"numHosts\":1,\"memoryIds\":[");
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (str, ',');
      bad += tm_export_append_string (str, tm_memory_store_get_id (tm_profile_get_memory_store (profile, i)));
    }

  g_string_append (str, "],\"version\":1,\"hloModules\":[");
  modules = tm_profile_get_hlo_modules (profile);
  for (guint i = 0; modules != NULL && i < modules->len; i++)
    {
      const TmHloModule *m = &g_array_index (modules, TmHloModule, i);

      if (i > 0)
        g_string_append_c (str, ',');
      g_string_append (str, "{\"name\":");
      bad += tm_export_append_string (str, m->name);
      g_string_append (str, ",\"startTimePs\":");
      append_int64 (str, m->start_ps);
      g_string_append (str, ",\"endTimePs\":");
      append_int64 (str, m->end_ps);
      g_string_append (str, ",\"id\":");
      append_int64 (str, m->id);
      g_string_append (str, ",\"planeName\":");
      bad += tm_export_append_string (str, m->device);
      g_string_append_c (str, '}');
    }
  g_string_append (str, "]}\n");

  if (n_replaced != NULL)
    *n_replaced = bad;
  return flush (out, str, cancellable, error);
}

static void
append_csv_field (GString    *str,
                  const char *value)
{
  g_autoptr(GString) escaped = NULL;

  /* Control characters and a NUL kept in a name as \xHH (docs/formats.md,
   * section 5); line breaks stay, inside quotes. */
  if (tm_format_has_controls (value))
    {
      escaped = g_string_new (NULL);
      tm_format_append_controls_escaped (escaped, value);
      value = escaped->str;
    }
  if (strpbrk (value, ",\"\r\n") == NULL)
    {
      g_string_append (str, value);
      return;
    }

  g_string_append_c (str, '"');
  for (const char *p = value; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (str, '"');
      g_string_append_c (str, *p);
    }
  g_string_append_c (str, '"');
}

gboolean
tm_export_breakdown_csv (GPtrArray      *rows,
                         GOutputStream  *out,
                         GCancellable   *cancellable,
                         GError        **error)
{
  g_autoptr(GString) str = g_string_new (NULL);

  g_return_val_if_fail (rows != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  g_string_append (str, "op_name,allocation_bytes,requested_bytes,occurrences,region_type,data_type,shape,step_id,address\r\n");
  for (guint i = 0; i < rows->len; i++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (rows, i);

      append_csv_field (str, row->op_name);
      g_string_append_printf (str, ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GUINT64_FORMAT ",",
                              row->allocation_bytes, row->requested_bytes, row->n_occurrences);
      append_csv_field (str, row->region_type);
      g_string_append_c (str, ',');
      append_csv_field (str, row->data_type);
      g_string_append_c (str, ',');
      append_csv_field (str, row->shape);
      g_string_append_printf (str, ",%" G_GINT64_FORMAT ",%" G_GUINT64_FORMAT "\r\n",
                              row->step_id, row->address);
      if (str->len > 65536 && !flush (out, str, cancellable, error))
        return FALSE;
    }

  return flush (out, str, cancellable, error);
}

typedef struct
{
  GString       *str;
  GOutputStream *out;
  GCancellable  *cancellable;
  GError        *error;
} AllocationsCsv;

static gboolean
allocation_csv_row (TmMemoryStore *store,
                    guint32        start,
                    guint32        end,
                    gpointer       user_data)
{
  AllocationsCsv *csv = user_data;
  const gint64 *times = tm_memory_store_get_times (store);
  TmActivity act;

  if (!tm_memory_store_get_activity (store, start != TM_ALLOCATIONS_OPEN ? start : end, &act, &csv->error))
    return FALSE;

  g_string_append_printf (csv->str, "%" G_GUINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",",
                          act.address, act.allocation_bytes, act.requested_bytes);
  if (start != TM_ALLOCATIONS_OPEN)
    g_string_append_printf (csv->str, "%" G_GINT64_FORMAT, times[start]);
  g_string_append_c (csv->str, ',');
  if (end != TM_ALLOCATIONS_OPEN)
    g_string_append_printf (csv->str, "%" G_GINT64_FORMAT, times[end]);
  g_string_append_c (csv->str, ',');
  append_csv_field (csv->str, act.op_name);
  g_string_append_c (csv->str, ',');
  append_csv_field (csv->str, act.region_type);
  g_string_append_c (csv->str, ',');
  append_csv_field (csv->str, act.data_type);
  g_string_append_c (csv->str, ',');
  append_csv_field (csv->str, act.shape);
  g_string_append (csv->str, "\r\n");
  tm_activity_clear (&act);

  return csv->str->len <= 65536 || flush (csv->out, csv->str, csv->cancellable, &csv->error);
}

gboolean
tm_export_allocations_csv (TmMemoryStore  *store,
                           GOutputStream  *out,
                           GCancellable   *cancellable,
                           GError        **error)
{
  g_autoptr(GString) str = g_string_new (NULL);
  AllocationsCsv csv = { str, out, cancellable, NULL };

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  g_string_append (str, "address,allocation_bytes,requested_bytes,allocated_at_ps,freed_at_ps,"
                        "op_name,region_type,data_type,shape\r\n");
  if (!tm_allocations_foreach (store, allocation_csv_row, &csv, cancellable, error))
    return FALSE;
  if (csv.error != NULL)
    {
      g_propagate_error (error, csv.error);
      return FALSE;
    }
  return flush (out, str, cancellable, error);
}

/* Returns how many bytes were not valid UTF-8 (tm_export_append_string). */
static guint
append_host_and_file (GString    *str,
                      const char *host,
                      GFile      *file)
{
  g_autofree char *path = g_file_get_path (file);
  guint bad = 0;

  if (path == NULL)
    path = g_file_get_uri (file);

  g_string_append (str, ", \"host\": ");
  bad += tm_export_append_string (str, host);
  g_string_append (str, ", \"file\": ");
  bad += tm_export_append_string (str, path);
  return bad;
}

gboolean
tm_export_summary_json_error (GFile          *file,
                              const char     *host,
                              const char     *message,
                              GOutputStream  *out,
                              GCancellable   *cancellable,
                              GError        **error)
{
  g_autoptr(GString) str = g_string_new ("{\"input\": ");
  g_autofree char *basename = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (host != NULL && message != NULL, FALSE);

  basename = g_file_get_basename (file);
  tm_export_append_string (str, basename);
  append_host_and_file (str, host, file);
  g_string_append (str, ", \"error\": ");
  tm_export_append_string (str, message);
  g_string_append (str, "}\n");
  return flush (out, str, cancellable, error);
}

gboolean
tm_export_summary_json (TmProfile      *profile,
                        const char     *host,
                        GOutputStream  *out,
                        GCancellable   *cancellable,
                        GError        **error)
{
  return tm_export_summary_json_full (profile, host, out, NULL, cancellable, error);
}

static int
compare_plan_names (gconstpointer a,
                    gconstpointer b)
{
  return strcmp (((const TmModulePlan *) a)->name, ((const TmModulePlan *) b)->name);
}

/* The modules whose HloProtos the profile holds (and the sidecars beside
 * it), by name, with their static peaks in memory space 0
 * (docs/buffer-assignment.md, section 5); nothing without any. */
static gboolean
append_xla_modules (GString       *str,
                    TmProfile     *profile,
                    guint         *bad,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(GArray) entries = tm_profile_list_hlo_entries (profile);
  g_autoptr(GArray) plans = NULL;

  if (entries->len == 0)
    return TRUE;
  plans = tm_static_plan_summarize (entries, NULL, NULL, cancellable, error);
  if (plans == NULL)
    return FALSE;
  g_array_sort (plans, compare_plan_names);

  g_string_append (str, ", \"xla_modules\": [");
  for (guint i = 0; i < plans->len; i++)
    {
      const TmModulePlan *p = &g_array_index (plans, TmModulePlan, i);

      g_string_append (str, i > 0 ? ", {\"module\": " : "{\"module\": ");
      *bad += tm_export_append_string (str, p->name);
      if (p->error != NULL)
        {
          g_string_append (str, ", \"error\": ");
          *bad += tm_export_append_string (str, p->error);
        }
      else
        {
          g_string_append_printf (str, ", \"static_peak_bytes\": %" G_GINT64_FORMAT
                                  ", \"heap_simulator_events\": %" G_GINT64_FORMAT ", \"memory_spaces\": [",
                                  p->peak, p->n_trace_events);
          for (guint k = 0; k < p->memory_spaces->len; k++)
            g_string_append_printf (str, k > 0 ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT,
                                    g_array_index (p->memory_spaces, gint64, k));
          g_string_append_c (str, ']');
        }
      g_string_append_c (str, '}');
    }
  g_string_append_c (str, ']');
  return TRUE;
}

gboolean
tm_export_summary_json_full (TmProfile      *profile,
                             const char     *host,
                             GOutputStream  *out,
                             guint          *n_replaced,
                             GCancellable   *cancellable,
                             GError        **error)
{
  g_autoptr(GString) str = g_string_new (NULL);
  g_autofree char *basename = NULL;
  guint n, bad = 0;

  g_return_val_if_fail (TM_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (host != NULL, FALSE);

  n = tm_profile_get_n_memory_ids (profile);
  basename = g_file_get_basename (tm_profile_get_file (profile));

  g_string_append (str, "{\"input\": ");
  bad += tm_export_append_string (str, basename);
  bad += append_host_and_file (str, host, tm_profile_get_file (profile));
  g_string_append_printf (str, ", \"format\": \"%s\", \"complete\": %s, \"max_snapshots\": %d, \"num_hosts\": 1, \"version\": 1, \"memory_ids\": [",
                          tm_input_format_get_info (tm_profile_get_format (profile))->id,
                          tm_profile_get_features (profile) & TM_INPUT_COMPLETE ? "true" : "false",
                          TM_XPROF_MAX_SNAPSHOTS);
  for (guint i = 0; i < n; i++)
    {
      g_string_append (str, i > 0 ? ", " : "");
      bad += tm_export_append_string (str, tm_memory_store_get_id (tm_profile_get_memory_store (profile, i)));
    }
  g_string_append_printf (str, "], \"num_hlo_modules\": %u, \"memory\": {",
                          tm_profile_get_hlo_modules (profile)->len);

  for (guint i = 0; i < n; i++)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (profile, i);
      TmAnalysis *analysis = tm_profile_get_analysis (profile, i);
      const TmSummary *s = tm_memory_store_get_summary (store);
      GPtrArray *rows = tm_analysis_get_peak_breakdown (analysis);
      g_autoptr(GArray) sampled = tm_analysis_sample (store, TM_XPROF_MAX_SNAPSHOTS);
      g_autoptr(GArray) sparkline = tm_run_sparkline (store, TM_RUN_SPARKLINE_POINTS);
      /* What was never freed, the temporary allocations and the steps in
       * one walk, without the sizes of the rest (docs/analysis.md,
       * "Temporary allocations and the rate per step"). */
      g_autoptr(TmAllocStats) stats = tm_alloc_stats_new_for_store (store, TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS,
                                                                    cancellable, error);
      const TmStepStats *busiest;

      if (stats == NULL)
        return FALSE;
      busiest = stats->busiest_step != G_MAXUINT ? &g_array_index (stats->steps, TmStepStats, stats->busiest_step) : NULL;

      g_string_append (str, i > 0 ? ", " : "");
      bad += tm_export_append_string (str, tm_memory_store_get_id (store));
      g_string_append_printf (str,
                              ": {"
                              "\"num_snapshots\": %u, "
                              "\"num_allocations\": %u, "
                              "\"num_deallocations\": %u, "
                              "\"num_never_freed\": %u, "
                              "\"never_freed_bytes\": %" G_GINT64_FORMAT ", "
                              "\"num_sampled_timeline_snapshots\": %u, "
                              "\"memory_capacity\": %" G_GINT64_FORMAT ", "
                              "\"peak_bytes_usage_lifetime\": %" G_GINT64_FORMAT ", "
                              "\"xprof_reported_lifetime_peak_last_in_file_order\": %" G_GINT64_FORMAT ", "
                              "\"peak_bytes_in_use\": %" G_GINT64_FORMAT ", "
                              "\"peak_stats_time_ps\": %" G_GINT64_FORMAT ", "
                              "\"peak_stack_reserved_bytes\": %" G_GINT64_FORMAT ", "
                              "\"peak_heap_allocated_bytes\": %" G_GINT64_FORMAT ", "
                              "\"peak_free_memory_bytes\": %" G_GINT64_FORMAT ", "
                              "\"peak_fragmentation\": ",
                              s->n_snapshots, s->n_allocations, s->n_deallocations,
                              stats->n_never_freed, stats->never_freed_bytes, sampled->len,
                              s->memory_capacity, s->peak_bytes_usage_lifetime,
                              s->last_peak_bytes_in_use, s->peak_bytes_in_use, s->peak_time_ps,
                              s->peak_stack_bytes, s->peak_heap_bytes, s->peak_free_bytes);
      tm_export_append_double (str, s->peak_fragmentation);
      /* Objects of their own: --compare takes the flat figures. */
      g_string_append_printf (str,
                              ", \"temporary\": {\"threshold_ps\": %" G_GINT64_FORMAT ", "
                              "\"num_within_threshold\": %u, \"num_freed_in_same_step\": %u}, "
                              "\"steps\": {\"num_steps\": %u, \"allocations_per_step\": ",
                              stats->temporary_ps, stats->n_temporary, stats->n_same_step, stats->steps->len);
      tm_export_append_double (str, tm_alloc_stats_get_allocations_per_step (stats));
      if (busiest != NULL)
        g_string_append_printf (str, ", \"busiest_step_id\": %" G_GINT64_FORMAT ", \"busiest_step_allocations\": %u",
                                busiest->step_id, busiest->n_allocations);
      g_string_append_c (str, '}');
      g_string_append_printf (str,
                              ", \"peak_step_id\": %" G_GINT64_FORMAT ", "
                              "\"num_breakdown_rows\": %u, "
                              "\"breakdown\": [",
                              tm_analysis_get_peak_step_id (analysis), rows->len);

      for (guint r = 0; r < rows->len; r++)
        {
          const TmBreakdownRow *row = g_ptr_array_index (rows, r);

          g_string_append (str, r > 0 ? ", {" : "{");
          g_string_append (str, "\"op_name\": ");
          bad += tm_export_append_string (str, row->op_name);
          g_string_append_printf (str, ", \"allocation_bytes\": %" G_GINT64_FORMAT
                                  ", \"requested_bytes\": %" G_GINT64_FORMAT
                                  ", \"num_occurrences\": %" G_GUINT64_FORMAT ", \"region_type\": ",
                                  row->allocation_bytes, row->requested_bytes, row->n_occurrences);
          bad += tm_export_append_string (str, row->region_type);
          g_string_append (str, ", \"data_type\": ");
          bad += tm_export_append_string (str, row->data_type);
          g_string_append (str, ", \"shape\": ");
          bad += tm_export_append_string (str, row->shape);
          g_string_append_printf (str, ", \"special\": %s", row->special ? "true" : "false");
          if (!row->special)
            g_string_append_printf (str, ", \"time_offset_ps\": %" G_GINT64_FORMAT ", \"address\": %" G_GUINT64_FORMAT,
                                    row->time_ps, row->address);
          g_string_append_c (str, '}');
        }
      g_string_append (str, "], \"sparkline\": [");
      for (guint p = 0; p < sparkline->len; p++)
        g_string_append_printf (str, p > 0 ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT,
                                g_array_index (sparkline, gint64, p));
      g_string_append (str, "]}");

      if (!flush (out, str, cancellable, error))
        return FALSE;
    }

  g_string_append_c (str, '}');
  if (!append_xla_modules (str, profile, &bad, cancellable, error))
    return FALSE;
  /* Only when names were not valid UTF-8 (docs/formats.md, section 1.10). */
  if (bad > 0)
    g_string_append_printf (str, ", \"invalid_utf8_replaced\": %u", bad);
  g_string_append (str, "}\n");

  if (n_replaced != NULL)
    *n_replaced = bad;
  return flush (out, str, cancellable, error);
}

gboolean
tm_export_never_freed_collapsed (TmProfile      *profile,
                                 TmMemoryStore  *store,
                                 GOutputStream  *out,
                                 guint          *n_never_freed,
                                 GCancellable   *cancellable,
                                 GError        **error)
{
  TmAllocations *allocations;
  g_autoptr(GArray) events = NULL;
  g_autoptr(TmScopeTree) tree = NULL;

  g_return_val_if_fail (TM_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), FALSE);

  allocations = tm_profile_lookup_allocations (profile, store);
  if (allocations == NULL)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_CHANGED, _("changed while reading: the file was modified by another program"));
      return FALSE;
    }
  events = tm_allocations_query_never_freed_events (allocations);
  if (n_never_freed != NULL)
    *n_never_freed = events->len;
  tree = tm_scope_tree_new_for_allocations (store, (const guint *) events->data, events->len,
                                            TM_SCOPE_GROUPING_NAME, cancellable, error);
  return tree != NULL && tm_scope_tree_write_collapsed (tree, out, cancellable, error);
}
