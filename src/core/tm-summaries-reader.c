/* tm-summaries-reader.c — host summaries, and the JSON Lines reader of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "tm-error.h"
#include "tm-summaries-reader.h"

/* Deeper nesting than this is not a summary; json-glib's parser recurses,
 * so it must not see it. */
#define MAX_DEPTH 16

void
tm_run_device_free (TmRunDevice *device)
{
  if (device == NULL)
    return;

  g_free (device->memory_id);
  g_clear_pointer (&device->sparkline, g_array_unref);
  g_free (device);
}

void
tm_host_summary_free (TmHostSummary *summary)
{
  if (summary == NULL)
    return;

  g_free (summary->host);
  g_free (summary->file);
  g_free (summary->error);
  g_clear_pointer (&summary->devices, g_ptr_array_unref);
  g_free (summary);
}

TmHostSummary *
tm_host_summary_new (const char *host,
                     const char *file)
{
  TmHostSummary *summary = g_new0 (TmHostSummary, 1);

  summary->host = g_strdup (host);
  summary->file = g_strdup (file);
  summary->devices = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_run_device_free);
  return summary;
}

TmHostSummary *
tm_host_summary_new_error (const char *host,
                           const char *file,
                           const char *message)
{
  TmHostSummary *summary;

  g_return_val_if_fail (host != NULL, NULL);
  g_return_val_if_fail (message != NULL, NULL);

  summary = tm_host_summary_new (host, file);
  summary->error = g_strdup (message);
  return summary;
}

int
tm_host_summary_get_busiest (const TmHostSummary *summary)
{
  int busiest = -1;

  g_return_val_if_fail (summary != NULL, -1);

  for (guint i = 0; i < summary->devices->len; i++)
    {
      const TmRunDevice *device = g_ptr_array_index (summary->devices, i);

      if (busiest < 0 || device->peak_bytes > ((TmRunDevice *) g_ptr_array_index (summary->devices, busiest))->peak_bytes)
        busiest = (int) i;
    }
  return busiest;
}

/* ------------------------------------------------------------------ */
/* JSON Lines                                                          */

/* Whether a line nests arrays and objects deeper than MAX_DEPTH (outside
 * strings). */
static gboolean
too_deep (const char *line,
          gsize       length)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = line[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > MAX_DEPTH)
            return TRUE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return FALSE;
}

static gboolean
get_int (JsonObject  *object,
         const char  *name,
         gint64       min,
         gint64       max,
         gint64      *value)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *value = json_node_get_int (node);
  return *value >= min && *value <= max;
}

static gboolean
get_double (JsonObject  *object,
            const char  *name,
            double      *value)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    *value = (double) json_node_get_int (node);
  else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    *value = json_node_get_double (node);
  else
    return FALSE;
  return TRUE;
}

static const char *
get_string (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static TmRunDevice *
parse_device (const char  *memory_id,
              JsonNode    *node,
              const char **problem)
{
  g_autoptr(GArray) sparkline = g_array_new (FALSE, FALSE, sizeof (gint64));
  JsonObject *object;
  JsonNode *points;
  TmRunDevice *device;
  gint64 peak, capacity, time_ps, n_allocations;
  double fragmentation;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      *problem = _("a memory id is not an object");
      return NULL;
    }
  object = json_node_get_object (node);
  if (!get_int (object, "peak_bytes_in_use", 0, G_MAXINT64, &peak) ||
      !get_int (object, "memory_capacity", 0, G_MAXINT64, &capacity) ||
      !get_int (object, "peak_stats_time_ps", G_MININT64, G_MAXINT64, &time_ps) ||
      !get_int (object, "num_allocations", 0, G_MAXUINT, &n_allocations) ||
      !get_double (object, "peak_fragmentation", &fragmentation))
    {
      *problem = _("a memory id lacks peak_bytes_in_use, memory_capacity, peak_stats_time_ps, num_allocations or peak_fragmentation");
      return NULL;
    }

  points = json_object_get_member (object, "sparkline");
  if (points != NULL)
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (points) ||
          json_array_get_length (array = json_node_get_array (points)) > TM_RUN_SPARKLINE_POINTS)
        {
          *problem = _("sparkline is not an array of at most 1000 integers");
          return NULL;
        }
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *point = json_array_get_element (array, i);
          gint64 value;

          if (!JSON_NODE_HOLDS_VALUE (point) || json_node_get_value_type (point) != G_TYPE_INT64)
            {
              *problem = _("sparkline is not an array of at most 1000 integers");
              return NULL;
            }
          value = json_node_get_int (point);
          g_array_append_val (sparkline, value);
        }
    }

  device = g_new0 (TmRunDevice, 1);
  device->memory_id = g_strdup (memory_id);
  device->peak_bytes = peak;
  device->capacity = capacity;
  device->peak_time_ps = time_ps;
  device->peak_fragmentation = fragmentation;
  device->n_allocations = (guint) n_allocations;
  device->sparkline = g_steal_pointer (&sparkline);
  return device;
}

static int
compare_devices (gconstpointer a,
                 gconstpointer b)
{
  const TmRunDevice *device_a = *(TmRunDevice * const *) a;
  const TmRunDevice *device_b = *(TmRunDevice * const *) b;

  return strcmp (device_a->memory_id, device_b->memory_id);
}

static gboolean
is_json_space (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Whether line is one JSON object and nothing else but white space: its
 * first character after white space is '{', and after the '}' that closes
 * it (outside strings) only white space follows. */
static gboolean
is_one_object (const char *line,
               gsize       length)
{
  guint depth = 0;
  gboolean in_string = FALSE;
  gsize i = 0;

  while (i < length && is_json_space (line[i]))
    i++;
  if (i == length || line[i] != '{')
    return FALSE;

  for (; i < length; i++)
    {
      char c = line[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '{' || c == '[')
        depth++;
      else if ((c == '}' || c == ']') && depth > 0 && --depth == 0)
        break;
    }
  /* Unclosed: the parser says what is wrong. */
  if (i >= length)
    return TRUE;
  for (i++; i < length; i++)
    if (!is_json_space (line[i]))
      return FALSE;
  return TRUE;
}

/* One line: a host summary, or NULL with *problem. */
static TmHostSummary *
parse_line (const char  *line,
            gsize        length,
            const char **problem)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(TmHostSummary) summary = NULL;
  JsonObject *object;
  JsonNode *memory;
  const char *host, *file, *message;

  if (memchr (line, '\0', length) != NULL || !g_utf8_validate (line, (gssize) length, NULL))
    {
      *problem = _("is not UTF-8 text");
      return NULL;
    }
  if (too_deep (line, length))
    {
      *problem = _("is nested too deep");
      return NULL;
    }
  /* A summary is one object, and a line that is anything else is refused
   * before it reaches the parser: json-glib 1.6 loads several values one
   * after the other and keeps one, so "9{}" loads as the number 9, "{}[]"
   * as the object, and the other value leaks (found by fuzz-summaries). */
  if (!is_one_object (line, length))
    {
      *problem = _("is not a JSON object");
      return NULL;
    }
  if (!json_parser_load_from_data (parser, line, (gssize) length, NULL) ||
      json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      *problem = _("is not a JSON object");
      return NULL;
    }

  object = json_node_get_object (json_parser_get_root (parser));
  host = get_string (object, "host");
  file = get_string (object, "file");
  message = get_string (object, "error");
  if (host == NULL)
    {
      *problem = _("has no “host”");
      return NULL;
    }
  if (json_object_has_member (object, "file") && file == NULL)
    {
      *problem = _("“file” is not a string");
      return NULL;
    }

  if (message != NULL)
    return tm_host_summary_new_error (host, file, message);

  memory = json_object_get_member (object, "memory");
  if (memory == NULL || !JSON_NODE_HOLDS_OBJECT (memory))
    {
      *problem = _("has neither “memory” nor “error”");
      return NULL;
    }

  summary = tm_host_summary_new (host, file);
  {
    JsonObjectIter iter;
    const char *memory_id;
    JsonNode *node;

    json_object_iter_init (&iter, json_node_get_object (memory));
    while (json_object_iter_next (&iter, &memory_id, &node))
      {
        TmRunDevice *device = parse_device (memory_id, node, problem);

        if (device == NULL)
          return NULL;
        g_ptr_array_add (summary->devices, device);
      }
  }
  g_ptr_array_sort (summary->devices, compare_devices);

  return g_steal_pointer (&summary);
}

GPtrArray *
tm_summaries_read (const char  *data,
                   gsize        length,
                   GPtrArray   *problems,
                   GError     **error)
{
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_host_summary_free);
  gsize start = 0;
  guint line_number = 0;
  guint n_lines = 0;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  while (start < length)
    {
      const char *nl = memchr (data + start, '\n', length - start);
      gsize end = nl != NULL ? (gsize) (nl - data) : length;
      gsize first = start, last = end;
      const char *problem = NULL;
      TmHostSummary *summary;

      line_number++;
      while (first < last && g_ascii_isspace (data[first]))
        first++;
      while (last > first && g_ascii_isspace (data[last - 1]))
        last--;

      if (last > first)
        {
          n_lines++;
          summary = parse_line (data + first, last - first, &problem);
          if (summary == NULL)
            {
              /* TRANSLATORS: a line of a JSON Lines file of summaries, then what is wrong with it */
              char *message = g_strdup_printf (_("line %u of the summaries %s"), line_number, problem);

              if (problems == NULL)
                {
                  g_set_error_literal (error, TM_ERROR, TM_ERROR_JSON, message);
                  g_free (message);
                  return NULL;
                }
              g_ptr_array_add (problems, message);
            }
          else
            {
              summary->line = line_number;
              g_ptr_array_add (summaries, summary);
            }
        }
      start = end + 1;
    }

  if (n_lines == 0)
    {
      g_set_error_literal (error, TM_ERROR, TM_ERROR_JSON, _("has no host summaries (JSON Lines)"));
      return NULL;
    }

  return g_steal_pointer (&summaries);
}

GPtrArray *
tm_run_summaries_parse (const char  *data,
                        gsize        length,
                        GError     **error)
{
  return tm_summaries_read (data, length, NULL, error);
}
