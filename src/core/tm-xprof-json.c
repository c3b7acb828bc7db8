/* tm-xprof-json.c — XProf's memory-profile JSON in (docs/formats.md, section 2)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A store read from JSON holds XProf's sampled timeline points (at most
 * 1000 per memory id) and XProf's own summary and breakdown rows; it is
 * incomplete, so that views can say so. Parses with json-glib and builds
 * stores with tm-memory-store's builder, nothing else of the core.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "tm-error.h"
#include "tm-format.h"
#include "tm-memory-store.h"
#include "tm-xprof-json.h"

#define MAX_DEPTH 64
#define CANCEL_CHECK_INTERVAL 4096

/* json-glib ends a string at "\u0000". Before parsing, each "\u0000"
 * inside a string becomes U+FDD0 (a noncharacter, kept for a program's own
 * use) followed by "0", and each U+FDD0 already there (raw or escaped)
 * becomes U+FDD0 followed by "1"; every string read back turns the first
 * into TM_FORMAT_NUL and the second into U+FDD0 again (docs/formats.md,
 * section 2, "Names with NUL bytes"). */
#define MARK "\xef\xb7\x90"
#define MARK_LEN 3

/* Whether the 6 bytes at p are the escape \uXXXX of hex, in any case. */
static gboolean
is_escape (const guint8 *p,
           gsize         left,
           const char   *hex)
{
  return left >= 6 && p[0] == '\\' && p[1] == 'u' && g_ascii_strncasecmp ((const char *) p + 2, hex, 4) == 0;
}

/* json-glib recurses per nesting level: refuse deep input before parsing.
 * json-glib 1.6 also keeps the first of several values and ignores the
 * rest: refuse anything but white space after the first object or array. */
static gboolean
check_depth (const guint8  *data,
             gsize          size,
             gboolean      *has_nul,
             GError       **error)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  *has_nul = FALSE;

  for (gsize i = 0; i < size; i++)
    {
      if (depth == 0 && !in_string && i > 0 && (data[i - 1] == '}' || data[i - 1] == ']'))
        {
          for (gsize j = i; j < size; j++)
            if (data[j] != ' ' && data[j] != '\t' && data[j] != '\n' && data[j] != '\r')
              {
                g_set_error (error, TM_ERROR, TM_ERROR_JSON,
                             _("invalid JSON: data at byte %zu after the JSON value"), j);
                return FALSE;
              }
          return TRUE;
        }

      guint8 c = data[i];

      if (in_string)
        {
          if (c == '\\')
            {
              if (is_escape (data + i, size - i, "0000") || is_escape (data + i, size - i, "fdd0"))
                *has_nul = TRUE;
              i++;
            }
          else if (c == '"')
            in_string = FALSE;
          else if (c == 0xef && size - i >= MARK_LEN && memcmp (data + i, MARK, MARK_LEN) == 0)
            *has_nul = TRUE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '{' || c == '[')
        {
          if (++depth > MAX_DEPTH)
            {
              g_set_error (error, TM_ERROR, TM_ERROR_TOO_DEEP,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "nested too deep at byte %zu: more than %u level of JSON objects or arrays",
                                        "nested too deep at byte %zu: more than %u levels of JSON objects or arrays",
                                        MAX_DEPTH),
                           i, MAX_DEPTH);
              return FALSE;
            }
        }
      else if ((c == '}' || c == ']') && depth > 0)
        depth--;
    }

  return TRUE;
}

/* The text with "\u0000" and U+FDD0 marked inside strings, as above. */
static GBytes *
mark_nul (const guint8 *data,
          gsize         size)
{
  GString *out = g_string_sized_new (size + size / 16 + 16);
  gboolean in_string = FALSE;
  gsize copied = 0;  /* the bytes of data before this are in out */

  for (gsize i = 0; i < size; i++)
    {
      const char *mark = NULL;
      gsize skip = 6;

      if (!in_string)
        in_string = data[i] == '"';
      else if (data[i] == '"')
        in_string = FALSE;
      else if (is_escape (data + i, size - i, "0000"))
        mark = "\\ufdd0" "0";
      else if (is_escape (data + i, size - i, "fdd0"))
        mark = "\\ufdd0" "1";
      else if (data[i] == '\\')
        i++;
      else if (size - i >= MARK_LEN && memcmp (data + i, MARK, MARK_LEN) == 0)
        {
          mark = MARK "1";
          skip = MARK_LEN;
        }

      if (mark != NULL)
        {
          g_string_append_len (out, (const char *) data + copied, (gssize) (i - copied));
          g_string_append (out, mark);
          copied = i + skip;
          i = copied - 1;
        }
    }
  g_string_append_len (out, (const char *) data + copied, (gssize) (size - copied));
  return g_string_free_to_bytes (out);
}

/* A string read from the parser, whole: the marks of mark_nul() undone. */
static char *
unmark_nul (const char *text)
{
  const char *mark = strstr (text, MARK);
  GString *out;

  if (mark == NULL)
    return g_strdup (text);
  out = g_string_sized_new (strlen (text));
  for (const char *p = text; *p != '\0';)
    {
      if (p[0] == MARK[0] && strncmp (p, MARK, MARK_LEN) == 0 && (p[MARK_LEN] == '0' || p[MARK_LEN] == '1'))
        {
          g_string_append (out, p[MARK_LEN] == '0' ? TM_FORMAT_NUL : MARK);
          p += MARK_LEN + 1;
        }
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

/* Protobuf JSON names: camelCase, but parsers accept the proto names too. */
static JsonNode *
member (JsonObject *obj,
        const char *camel,
        const char *snake)
{
  JsonNode *node;

  if (obj == NULL)
    return NULL;
  node = json_object_get_member (obj, camel);
  if (node == NULL && snake != NULL)
    node = json_object_get_member (obj, snake);
  if (node != NULL && JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return node;
}

static JsonObject *
get_object (JsonObject *obj,
            const char *camel,
            const char *snake)
{
  JsonNode *node = member (obj, camel, snake);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static JsonArray *
get_array (JsonObject *obj,
           const char *camel,
           const char *snake)
{
  JsonNode *node = member (obj, camel, snake);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* 64-bit integers are strings in protobuf JSON; accept numbers as well. */
static gint64
node_int (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return 0;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      {
        const char *s = json_node_get_string (node);

        if (s[0] != '-' && g_ascii_isdigit (s[0]) && strlen (s) >= 19)
          return (gint64) g_ascii_strtoull (s, NULL, 10);  /* uint64 above G_MAXINT64 */
        return g_ascii_strtoll (s, NULL, 10);
      }
    case G_TYPE_DOUBLE:
      return tm_sat_from_double (json_node_get_double (node));
    case G_TYPE_INT64:
      return json_node_get_int (node);
    case G_TYPE_BOOLEAN:
      return json_node_get_boolean (node);
    default:
      return 0;
    }
}

static gint64
get_int (JsonObject *obj,
         const char *camel,
         const char *snake)
{
  return node_int (member (obj, camel, snake));
}

static double
get_double (JsonObject *obj,
            const char *camel,
            const char *snake)
{
  JsonNode *node = member (obj, camel, snake);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return 0.0;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_DOUBLE:
      return json_node_get_double (node);
    case G_TYPE_INT64:
      return (double) json_node_get_int (node);
    case G_TYPE_STRING:
      {
        const char *s = json_node_get_string (node);

        if (g_strcmp0 (s, "NaN") == 0)
          return NAN;
        if (g_strcmp0 (s, "Infinity") == 0)
          return INFINITY;
        if (g_strcmp0 (s, "-Infinity") == 0)
          return -INFINITY;
        return g_ascii_strtod (s, NULL);
      }
    default:
      return 0.0;
    }
}

static char *
get_string (JsonObject *obj,
            const char *camel,
            const char *snake)
{
  JsonNode *node = member (obj, camel, snake);

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    return unmark_nul (json_node_get_string (node));
  return g_strdup ("");
}

static TmActivityKind
get_activity_kind (JsonObject *meta)
{
  JsonNode *node = member (meta, "memoryActivity", "memory_activity");

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return TM_ACTIVITY_UNKNOWN;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (node);

      if (g_str_equal (s, "ALLOCATION"))
        return TM_ACTIVITY_ALLOCATION;
      if (g_str_equal (s, "DEALLOCATION"))
        return TM_ACTIVITY_DEALLOCATION;
      return TM_ACTIVITY_UNKNOWN;
    }
  switch (node_int (node))
    {
    case 1: return TM_ACTIVITY_ALLOCATION;
    case 2: return TM_ACTIVITY_DEALLOCATION;
    default: return TM_ACTIVITY_UNKNOWN;
    }
}

static void
read_activity (JsonObject *snapshot,
               JsonObject *meta,
               TmActivity *act)
{
  JsonObject *stats = get_object (snapshot, "aggregationStats", "aggregation_stats");

  memset (act, 0, sizeof *act);
  act->time_ps = get_int (snapshot, "timeOffsetPs", "time_offset_ps");
  act->stack_bytes = get_int (stats, "stackReservedBytes", "stack_reserved_bytes");
  act->heap_bytes = get_int (stats, "heapAllocatedBytes", "heap_allocated_bytes");
  act->free_bytes = get_int (stats, "freeMemoryBytes", "free_memory_bytes");
  act->fragmentation = get_double (stats, "fragmentation", NULL);
  act->peak_bytes_in_use = get_int (stats, "peakBytesInUse", "peak_bytes_in_use");

  act->kind = get_activity_kind (meta);
  act->requested_bytes = get_int (meta, "requestedBytes", "requested_bytes");
  act->allocation_bytes = get_int (meta, "allocationBytes", "allocation_bytes");
  act->address = (guint64) get_int (meta, "address", NULL);
  act->step_id = get_int (meta, "stepId", "step_id");
  act->op_name = get_string (meta, "tfOpName", "tf_op_name");
  act->region_type = get_string (meta, "regionType", "region_type");
  act->data_type = get_string (meta, "dataType", "data_type");
  act->shape = get_string (meta, "tensorShape", "tensor_shape");
}

static TmBreakdownRow *
row_from_meta (JsonObject *meta,
               gint64      time_ps,
               gboolean    special)
{
  TmBreakdownRow *row = g_new0 (TmBreakdownRow, 1);

  row->op_name = get_string (meta, "tfOpName", "tf_op_name");
  row->region_type = get_string (meta, "regionType", "region_type");
  row->data_type = get_string (meta, "dataType", "data_type");
  row->shape = get_string (meta, "tensorShape", "tensor_shape");
  row->allocation_bytes = get_int (meta, "allocationBytes", "allocation_bytes");
  row->requested_bytes = get_int (meta, "requestedBytes", "requested_bytes");
  row->address = (guint64) get_int (meta, "address", NULL);
  row->step_id = get_int (meta, "stepId", "step_id");
  row->time_ps = time_ps;
  row->snapshot_index = G_MAXUINT;
  row->special = special;
  row->n_occurrences = 1;
  return row;
}

static JsonObject *
array_object (JsonArray *array,
              gint64     index)
{
  JsonNode *node;

  if (array == NULL || index < 0 || index >= (gint64) json_array_get_length (array))
    return NULL;
  node = json_array_get_element (array, (guint) index);
  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static TmMemoryStore *
read_allocator (const char    *id,
                JsonObject    *per,
                gint64         version,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(TmMemoryStore) store = tm_memory_store_new (id, NULL);
  JsonArray *snapshots = get_array (per, "memoryProfileSnapshots", "memory_profile_snapshots");
  JsonArray *sampled = get_array (per, "sampledTimelineSnapshots", "sampled_timeline_snapshots");
  JsonArray *active = get_array (per, "activeAllocations", "active_allocations");
  JsonArray *special = get_array (per, "specialAllocations", "special_allocations");
  JsonObject *summary = get_object (per, "profileSummary", "profile_summary");
  JsonObject *peak = get_object (summary, "peakStats", "peak_stats");
  /* Version 0 (TensorFlow) drew the timeline from memoryProfileSnapshots. */
  JsonArray *timeline = version >= 1 && sampled != NULL ? sampled : snapshots;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_breakdown_row_free);
  guint n = timeline != NULL ? json_array_get_length (timeline) : 0;
  TmSummary given = { 0 };
  gint64 peak_step = -1;

  for (guint k = 0; k < n; k++)
    {
      JsonObject *snap = array_object (timeline, k);
      JsonObject *meta = get_object (snap, "activityMetadata", "activity_metadata");
      TmActivity act;

      if ((k % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;

      read_activity (snap, meta, &act);
      tm_memory_store_add_activity (store, &act);
    }

  /* XProf's own summary replaces the fold's peak figures. */
  given.peak_bytes_usage_lifetime = get_int (summary, "peakBytesUsageLifetime", "peak_bytes_usage_lifetime");
  given.last_peak_bytes_in_use = given.peak_bytes_usage_lifetime;
  given.peak_stack_bytes = get_int (peak, "stackReservedBytes", "stack_reserved_bytes");
  given.peak_heap_bytes = get_int (peak, "heapAllocatedBytes", "heap_allocated_bytes");
  given.peak_free_bytes = get_int (peak, "freeMemoryBytes", "free_memory_bytes");
  given.peak_fragmentation = get_double (peak, "fragmentation", NULL);
  given.peak_stats_peak_bytes_in_use = get_int (peak, "peakBytesInUse", "peak_bytes_in_use");
  given.peak_bytes_in_use = tm_sat_add (given.peak_stack_bytes, given.peak_heap_bytes);
  given.peak_time_ps = get_int (summary, "peakStatsTimePs", "peak_stats_time_ps");
  given.memory_capacity = get_int (summary, "memoryCapacity", "memory_capacity");

  for (guint k = 0; active != NULL && k < json_array_get_length (active); k++)
    {
      JsonObject *a = array_object (active, k);
      gint64 snapshot_index = get_int (a, "snapshotIndex", "snapshot_index");
      gint64 special_index = get_int (a, "specialIndex", "special_index");
      JsonObject *meta = NULL;
      gint64 time_ps = 0;
      gboolean is_special = FALSE;
      TmBreakdownRow *row;

      if ((k % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (a == NULL)
        continue;
      if (member (a, "snapshotIndex", "snapshot_index") != NULL && snapshot_index >= 0)
        {
          JsonObject *snap = array_object (snapshots, snapshot_index);

          meta = get_object (snap, "activityMetadata", "activity_metadata");
          time_ps = get_int (snap, "timeOffsetPs", "time_offset_ps");
        }
      else if (special_index >= 0)
        {
          meta = array_object (special, special_index);
          is_special = TRUE;
        }

      if (meta == NULL)
        {
          /* Some XProf versions leave memoryProfileSnapshots out: the row
           * is there, its details are not. */
          row = g_new0 (TmBreakdownRow, 1);
          row->op_name = g_strdup (_("(details not in this file)"));
          row->region_type = g_strdup ("unknown");
          row->data_type = g_strdup ("unknown");
          row->shape = g_strdup ("unknown");
          row->step_id = -1;
          row->snapshot_index = G_MAXUINT;
        }
      else
        row = row_from_meta (meta, time_ps, is_special);
      row->n_occurrences = MAX (get_int (a, "numOccurrences", "num_occurrences"), 1);
      if (peak_step < 0 && row->step_id >= 0)
        peak_step = row->step_id;
      g_ptr_array_add (rows, row);
    }

  /* XProf's rows are already in order: tm-analysis keeps them as they are. */
  tm_memory_store_set_xprof_results (store, &given, g_steal_pointer (&rows), peak_step);

  return g_steal_pointer (&store);
}

gboolean
tm_xprof_json_read (const guint8   *data,
                    gsize           size,
                    GPtrArray     **stores_out,
                    GArray        **hlo_modules_out,
                    GCancellable   *cancellable,
                    GError        **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) stores = NULL;
  g_autoptr(GArray) modules = NULL;
  g_autoptr(GBytes) marked = NULL;
  JsonNode *root;
  JsonObject *obj, *per_allocator;
  JsonArray *hlo;
  gint64 version;
  gboolean has_nul;

  if (size > G_MAXSSIZE)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_JSON, _("invalid JSON: the file is too large"));
      return FALSE;
    }

  if (!check_depth (data, size, &has_nul, error))
    return FALSE;
  if (has_nul)
    {
      marked = mark_nul (data, size);
      data = g_bytes_get_data (marked, &size);
      if (size > G_MAXSSIZE)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_JSON, _("invalid JSON: the file is too large"));
          return FALSE;
        }
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, (const char *) data, (gssize) size, &local_error))
    {
      /* json-glib quotes the text around the error, which may cut a
       * character in two or hold bytes that are not UTF-8. */
      guint n_replaced = 0;
      g_autofree char *message = tm_format_make_valid_utf8 (local_error->message, &n_replaced);

      g_set_error (error, TM_ERROR, TM_ERROR_JSON, _("invalid JSON: %s"), message);
      return FALSE;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_JSON,
                   _("not a memory profile: the JSON document is not an object"));
      return FALSE;
    }

  obj = json_node_get_object (root);
  per_allocator = get_object (obj, "memoryProfilePerAllocator", "memory_profile_per_allocator");
  if (per_allocator == NULL && member (obj, "memoryIds", "memory_ids") == NULL)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_JSON,
                   _("not a memory profile: the JSON has no “memoryProfilePerAllocator”"));
      return FALSE;
    }

  version = get_int (obj, "version", NULL);
  stores = g_ptr_array_new_with_free_func (g_object_unref);

  if (per_allocator != NULL)
    {
      g_autoptr(GList) ids = json_object_get_members (per_allocator);

      for (GList *l = ids; l != NULL; l = l->next)
        {
          JsonObject *per = get_object (per_allocator, l->data, NULL);
          g_autofree char *id = unmark_nul (l->data);
          TmMemoryStore *store;

          if (per == NULL)
            {
              g_autofree char *shown = tm_format_make_valid_utf8 (id, NULL);

              g_set_error (error, TM_ERROR, TM_ERROR_JSON,
                           _("invalid memory profile: memory id “%s” is not an object"),
                           shown);
              return FALSE;
            }

          store = read_allocator (id, per, version, cancellable, error);
          if (store == NULL)
            return FALSE;
          /* XProf lists only ids with snapshots. */
          if (tm_memory_store_get_n_snapshots (store) == 0 &&
              tm_memory_store_get_xprof_peak_breakdown (store, NULL)->len == 0)
            g_object_unref (store);
          else
            g_ptr_array_add (stores, store);
        }
    }
  modules = g_array_new (FALSE, FALSE, sizeof (TmHloModule));
  g_array_set_clear_func (modules, (GDestroyNotify) tm_hlo_module_clear);
  hlo = get_array (obj, "hloModules", "hlo_modules");
  for (guint k = 0; hlo != NULL && k < json_array_get_length (hlo); k++)
    {
      JsonObject *m = array_object (hlo, k);
      TmHloModule module;

      if ((k % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (m == NULL)
        continue;
      module.id = get_int (m, "id", NULL);
      module.name = get_string (m, "name", NULL);
      module.start_ps = get_int (m, "startTimePs", "start_time_ps");
      module.end_ps = get_int (m, "endTimePs", "end_time_ps");
      module.device = get_string (m, "planeName", "plane_name");
      g_array_append_val (modules, module);
    }

  *stores_out = g_steal_pointer (&stores);
  *hlo_modules_out = g_steal_pointer (&modules);
  return TRUE;
}
