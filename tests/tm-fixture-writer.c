/* tm-fixture-writer.c — builds XSpace files (*.xplane.pb) for the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The space is kept as protobuf-c messages wrapped in small structs whose
 * first member is the message, so a GPtrArray of wrappers doubles as the
 * message's pointer array once the counts are filled in (sync_*()).
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "xplane.pb-c.h"

#include "tm-fixture-writer.h"

#define TEMP_DIR_TEMPLATE "tidemark-fixture-XXXXXX"
#define TEMP_DIR_PREFIX   "tidemark-fixture-"

typedef Tensorflow__Profiler__XSpace                     XSpace;
typedef Tensorflow__Profiler__XPlane                     XPlane;
typedef Tensorflow__Profiler__XLine                      XLine;
typedef Tensorflow__Profiler__XEvent                     XEvent;
typedef Tensorflow__Profiler__XStat                      XStat;
typedef Tensorflow__Profiler__XEventMetadata             XEventMetadata;
typedef Tensorflow__Profiler__XStatMetadata              XStatMetadata;
typedef Tensorflow__Profiler__XPlane__EventMetadataEntry EventMetadataEntry;
typedef Tensorflow__Profiler__XPlane__StatMetadataEntry  StatMetadataEntry;

typedef struct
{
  EventMetadataEntry entry;   /* first: the wrapper is an entry */
  XEventMetadata     meta;
  GPtrArray         *stats;   /* XStat */
} EventMetadata;

typedef struct
{
  StatMetadataEntry entry;    /* first: the wrapper is an entry */
  XStatMetadata     meta;
} StatMetadata;

struct _TmFixtureEvent
{
  XEvent          msg;        /* first: the wrapper is an XEvent */
  GPtrArray      *stats;      /* XStat */
  TmFixturePlane *plane;
};

struct _TmFixtureLine
{
  XLine           msg;        /* first: the wrapper is an XLine */
  GPtrArray      *events;     /* TmFixtureEvent */
  TmFixturePlane *plane;
};

struct _TmFixturePlane
{
  XPlane          msg;        /* first: the wrapper is an XPlane */
  GPtrArray      *lines;           /* TmFixtureLine */
  GPtrArray      *event_metadata;  /* EventMetadata */
  GPtrArray      *stat_metadata;   /* StatMetadata */
  GPtrArray      *stats;           /* XStat */
  GHashTable     *event_ids;       /* name → gint64 * */
  GHashTable     *stat_ids;        /* name → gint64 * */
  gint64          next_event_id;
  gint64          next_stat_id;
  TmFixtureSpace *space;
};

struct _TmFixtureSpace
{
  XSpace     msg;
  GPtrArray *planes;     /* TmFixturePlane */
  GPtrArray *errors;     /* char * */
  GPtrArray *warnings;   /* char * */
  GPtrArray *hostnames;  /* char * */
};

/* ------------------------------------------------------------------ */
/* Freeing                                                             */

static void
free_pb_string (char *s)
{
  if (s != NULL && s != protobuf_c_empty_string)
    g_free (s);
}

/* XStat * → the length of its str_value when it holds NUL bytes
 * (TM_FIXTURE_STAT_STR_LEN); other strings end at their NUL. */
static GHashTable *str_lengths;
G_LOCK_DEFINE_STATIC (str_lengths);

static gsize
str_value_length (const XStat *stat)
{
  gpointer len = NULL;

  G_LOCK (str_lengths);
  if (str_lengths != NULL)
    len = g_hash_table_lookup (str_lengths, stat);
  G_UNLOCK (str_lengths);
  return len != NULL ? GPOINTER_TO_SIZE (len) - 1 : strlen (stat->str_value);
}

static void
stat_free (gpointer data)
{
  XStat *stat = data;

  G_LOCK (str_lengths);
  if (str_lengths != NULL)
    g_hash_table_remove (str_lengths, stat);
  G_UNLOCK (str_lengths);

  if (stat->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE)
    free_pb_string (stat->str_value);
  else if (stat->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_BYTES_VALUE)
    g_free (stat->bytes_value.data);
  g_free (stat);
}

static void
event_free (gpointer data)
{
  TmFixtureEvent *event = data;

  g_ptr_array_unref (event->stats);
  g_free (event);
}

static void
line_free (gpointer data)
{
  TmFixtureLine *line = data;

  g_ptr_array_unref (line->events);
  free_pb_string (line->msg.name);
  free_pb_string (line->msg.display_name);
  g_free (line);
}

static void
event_metadata_free (gpointer data)
{
  EventMetadata *em = data;

  g_ptr_array_unref (em->stats);
  free_pb_string (em->meta.name);
  g_free (em);
}

static void
stat_metadata_free (gpointer data)
{
  StatMetadata *sm = data;

  free_pb_string (sm->meta.name);
  g_free (sm);
}

static void
plane_free (gpointer data)
{
  TmFixturePlane *plane = data;

  g_ptr_array_unref (plane->lines);
  g_ptr_array_unref (plane->event_metadata);
  g_ptr_array_unref (plane->stat_metadata);
  g_ptr_array_unref (plane->stats);
  g_hash_table_unref (plane->event_ids);
  g_hash_table_unref (plane->stat_ids);
  free_pb_string (plane->msg.name);
  g_free (plane);
}

/* ------------------------------------------------------------------ */
/* Space                                                               */

TmFixtureSpace *
tm_fixture_space_new (void)
{
  TmFixtureSpace *space = g_new0 (TmFixtureSpace, 1);

  tensorflow__profiler__xspace__init (&space->msg);
  space->planes = g_ptr_array_new_with_free_func (plane_free);
  space->errors = g_ptr_array_new_with_free_func (g_free);
  space->warnings = g_ptr_array_new_with_free_func (g_free);
  space->hostnames = g_ptr_array_new_with_free_func (g_free);

  return space;
}

void
tm_fixture_space_free (TmFixtureSpace *space)
{
  if (space == NULL)
    return;

  g_ptr_array_unref (space->planes);
  g_ptr_array_unref (space->errors);
  g_ptr_array_unref (space->warnings);
  g_ptr_array_unref (space->hostnames);
  g_free (space);
}

void
tm_fixture_space_add_hostname (TmFixtureSpace *space,
                               const char     *hostname)
{
  g_return_if_fail (space != NULL);
  g_return_if_fail (hostname != NULL);

  g_ptr_array_add (space->hostnames, g_strdup (hostname));
}

void
tm_fixture_space_add_error (TmFixtureSpace *space,
                            const char     *message)
{
  g_return_if_fail (space != NULL);
  g_return_if_fail (message != NULL);

  g_ptr_array_add (space->errors, g_strdup (message));
}

void
tm_fixture_space_add_warning (TmFixtureSpace *space,
                              const char     *message)
{
  g_return_if_fail (space != NULL);
  g_return_if_fail (message != NULL);

  g_ptr_array_add (space->warnings, g_strdup (message));
}

TmFixturePlane *
tm_fixture_space_add_plane (TmFixtureSpace *space,
                            const char     *name)
{
  TmFixturePlane *plane;

  g_return_val_if_fail (space != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  plane = g_new0 (TmFixturePlane, 1);
  tensorflow__profiler__xplane__init (&plane->msg);
  plane->msg.id = space->planes->len;
  plane->msg.name = g_strdup (name);
  plane->lines = g_ptr_array_new_with_free_func (line_free);
  plane->event_metadata = g_ptr_array_new_with_free_func (event_metadata_free);
  plane->stat_metadata = g_ptr_array_new_with_free_func (stat_metadata_free);
  plane->stats = g_ptr_array_new_with_free_func (stat_free);
  plane->event_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  plane->stat_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  plane->next_event_id = 1;
  plane->next_stat_id = 1;
  plane->space = space;
  g_ptr_array_add (space->planes, plane);

  return plane;
}

TmFixturePlane *
tm_fixture_space_get_plane (TmFixtureSpace *space,
                            const char     *name)
{
  g_return_val_if_fail (space != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < space->planes->len; i++)
    {
      TmFixturePlane *plane = g_ptr_array_index (space->planes, i);

      if (g_strcmp0 (plane->msg.name, name) == 0)
        return plane;
    }

  return tm_fixture_space_add_plane (space, name);
}

/* ------------------------------------------------------------------ */
/* Planes and metadata                                                 */

void
tm_fixture_plane_set_id (TmFixturePlane *plane,
                         gint64          id)
{
  g_return_if_fail (plane != NULL);

  plane->msg.id = id;
}

static EventMetadata *
plane_append_event_metadata (TmFixturePlane *plane,
                             gint64          id,
                             const char     *name)
{
  EventMetadata *em = g_new0 (EventMetadata, 1);

  tensorflow__profiler__xplane__event_metadata_entry__init (&em->entry);
  tensorflow__profiler__xevent_metadata__init (&em->meta);
  em->entry.key = id;
  em->entry.value = &em->meta;
  em->meta.id = id;
  em->meta.name = g_strdup (name);
  em->stats = g_ptr_array_new_with_free_func (stat_free);
  g_ptr_array_add (plane->event_metadata, em);

  if (!g_hash_table_contains (plane->event_ids, name))
    g_hash_table_insert (plane->event_ids, g_strdup (name), g_memdup2 (&id, sizeof id));
  plane->next_event_id = MAX (plane->next_event_id, id + 1);

  return em;
}

static StatMetadata *
plane_append_stat_metadata (TmFixturePlane *plane,
                            gint64          id,
                            const char     *name)
{
  StatMetadata *sm = g_new0 (StatMetadata, 1);

  tensorflow__profiler__xplane__stat_metadata_entry__init (&sm->entry);
  tensorflow__profiler__xstat_metadata__init (&sm->meta);
  sm->entry.key = id;
  sm->entry.value = &sm->meta;
  sm->meta.id = id;
  sm->meta.name = g_strdup (name);
  g_ptr_array_add (plane->stat_metadata, sm);

  if (!g_hash_table_contains (plane->stat_ids, name))
    g_hash_table_insert (plane->stat_ids, g_strdup (name), g_memdup2 (&id, sizeof id));
  plane->next_stat_id = MAX (plane->next_stat_id, id + 1);

  return sm;
}

gint64
tm_fixture_plane_intern_event_metadata (TmFixturePlane *plane,
                                        const char     *name)
{
  const gint64 *id;

  g_return_val_if_fail (plane != NULL, 0);
  g_return_val_if_fail (name != NULL, 0);

  id = g_hash_table_lookup (plane->event_ids, name);
  if (id != NULL)
    return *id;

  return plane_append_event_metadata (plane, plane->next_event_id, name)->entry.key;
}

gint64
tm_fixture_plane_intern_stat_metadata (TmFixturePlane *plane,
                                       const char     *name)
{
  const gint64 *id;

  g_return_val_if_fail (plane != NULL, 0);
  g_return_val_if_fail (name != NULL, 0);

  id = g_hash_table_lookup (plane->stat_ids, name);
  if (id != NULL)
    return *id;

  return plane_append_stat_metadata (plane, plane->next_stat_id, name)->entry.key;
}

void
tm_fixture_plane_add_event_metadata (TmFixturePlane *plane,
                                     gint64          id,
                                     const char     *name)
{
  g_return_if_fail (plane != NULL);
  g_return_if_fail (name != NULL);

  plane_append_event_metadata (plane, id, name);
}

void
tm_fixture_plane_add_stat_metadata (TmFixturePlane *plane,
                                    gint64          id,
                                    const char     *name)
{
  g_return_if_fail (plane != NULL);
  g_return_if_fail (name != NULL);

  plane_append_stat_metadata (plane, id, name);
}

static XStat *
stat_new (TmFixturePlane      *plane,
          const TmFixtureStat *spec)
{
  XStat *stat = g_new0 (XStat, 1);

  tensorflow__profiler__xstat__init (stat);
  stat->metadata_id = tm_fixture_plane_intern_stat_metadata (plane, spec->name);

  switch (spec->kind)
    {
    case TM_FIXTURE_STAT_INT64:
      stat->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE;
      stat->int64_value = spec->i64;
      break;

    case TM_FIXTURE_STAT_UINT64:
      stat->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE;
      stat->uint64_value = spec->u64;
      break;

    case TM_FIXTURE_STAT_DOUBLE:
      stat->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_DOUBLE_VALUE;
      stat->double_value = spec->dbl;
      break;

    case TM_FIXTURE_STAT_STR:
      stat->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE;
      stat->str_value = g_strdup (spec->str != NULL ? spec->str : "");
      break;

    case TM_FIXTURE_STAT_REF:
      stat->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_REF_VALUE;
      stat->ref_value = tm_fixture_plane_intern_stat_metadata (plane, spec->str != NULL ? spec->str : "");
      break;

    case TM_FIXTURE_STAT_REF_ID:
      stat->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_REF_VALUE;
      stat->ref_value = spec->u64;
      break;

    case TM_FIXTURE_STAT_STR_LEN:
      stat->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE;
      stat->str_value = g_malloc0 (spec->n_bytes + 1);
      if (spec->n_bytes > 0)
        memcpy (stat->str_value, spec->str, spec->n_bytes);
      G_LOCK (str_lengths);
      if (str_lengths == NULL)
        str_lengths = g_hash_table_new (NULL, NULL);
      g_hash_table_insert (str_lengths, stat, GSIZE_TO_POINTER (spec->n_bytes + 1));
      G_UNLOCK (str_lengths);
      break;

    case TM_FIXTURE_STAT_BYTES:
      stat->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_BYTES_VALUE;
      stat->bytes_value.len = spec->n_bytes;
      stat->bytes_value.data = spec->n_bytes > 0 ? g_memdup2 (spec->str, spec->n_bytes) : NULL;
      break;

    default:
      g_assert_not_reached ();
    }

  return stat;
}

void
tm_fixture_plane_add_event_metadata_stat (TmFixturePlane      *plane,
                                          const char          *metadata_name,
                                          const TmFixtureStat *stat)
{
  gint64 id;

  g_return_if_fail (plane != NULL);
  g_return_if_fail (metadata_name != NULL);
  g_return_if_fail (stat != NULL && stat->name != NULL);

  id = tm_fixture_plane_intern_event_metadata (plane, metadata_name);
  for (guint i = 0; i < plane->event_metadata->len; i++)
    {
      EventMetadata *em = g_ptr_array_index (plane->event_metadata, i);

      if (em->entry.key == id)
        {
          g_ptr_array_add (em->stats, stat_new (plane, stat));
          return;
        }
    }

  g_assert_not_reached ();
}

void
tm_fixture_plane_add_stat (TmFixturePlane      *plane,
                           const TmFixtureStat *stat)
{
  g_return_if_fail (plane != NULL);
  g_return_if_fail (stat != NULL && stat->name != NULL);

  g_ptr_array_add (plane->stats, stat_new (plane, stat));
}

/* ------------------------------------------------------------------ */
/* Lines and events                                                    */

TmFixtureLine *
tm_fixture_plane_add_line (TmFixturePlane *plane,
                           const char     *name,
                           gint64          timestamp_ns)
{
  TmFixtureLine *line;

  g_return_val_if_fail (plane != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  line = g_new0 (TmFixtureLine, 1);
  tensorflow__profiler__xline__init (&line->msg);
  line->msg.id = plane->lines->len;
  line->msg.name = g_strdup (name);
  line->msg.timestamp_ns = timestamp_ns;
  line->events = g_ptr_array_new_with_free_func (event_free);
  line->plane = plane;
  g_ptr_array_add (plane->lines, line);

  return line;
}

TmFixtureLine *
tm_fixture_plane_get_line (TmFixturePlane *plane,
                           const char     *name,
                           gint64          timestamp_ns)
{
  g_return_val_if_fail (plane != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < plane->lines->len; i++)
    {
      TmFixtureLine *line = g_ptr_array_index (plane->lines, i);

      if (g_strcmp0 (line->msg.name, name) == 0)
        return line;
    }

  return tm_fixture_plane_add_line (plane, name, timestamp_ns);
}

void
tm_fixture_line_set_id (TmFixtureLine *line,
                        gint64         id)
{
  g_return_if_fail (line != NULL);

  line->msg.id = id;
}

void
tm_fixture_line_set_display_name (TmFixtureLine *line,
                                  const char    *display_name)
{
  g_return_if_fail (line != NULL);
  g_return_if_fail (display_name != NULL);

  free_pb_string (line->msg.display_name);
  line->msg.display_name = g_strdup (display_name);
}

void
tm_fixture_line_set_duration_ps (TmFixtureLine *line,
                                 gint64         duration_ps)
{
  g_return_if_fail (line != NULL);

  line->msg.duration_ps = duration_ps;
}

TmFixtureEvent *
tm_fixture_line_add_event_with_id (TmFixtureLine *line,
                                   gint64         metadata_id,
                                   gint64         offset_ps,
                                   gint64         duration_ps)
{
  TmFixtureEvent *event;

  g_return_val_if_fail (line != NULL, NULL);

  event = g_new0 (TmFixtureEvent, 1);
  tensorflow__profiler__xevent__init (&event->msg);
  event->msg.metadata_id = metadata_id;
  event->msg.data_case = TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS;
  event->msg.offset_ps = offset_ps;
  event->msg.duration_ps = duration_ps;
  event->stats = g_ptr_array_new_with_free_func (stat_free);
  event->plane = line->plane;
  g_ptr_array_add (line->events, event);

  return event;
}

TmFixtureEvent *
tm_fixture_line_add_event (TmFixtureLine *line,
                           const char    *metadata_name,
                           gint64         offset_ps,
                           gint64         duration_ps)
{
  gint64 id;

  g_return_val_if_fail (line != NULL, NULL);
  g_return_val_if_fail (metadata_name != NULL, NULL);

  id = tm_fixture_plane_intern_event_metadata (line->plane, metadata_name);

  return tm_fixture_line_add_event_with_id (line, id, offset_ps, duration_ps);
}

void
tm_fixture_event_set_num_occurrences (TmFixtureEvent *event,
                                      gint64          num_occurrences)
{
  g_return_if_fail (event != NULL);

  event->msg.data_case = TENSORFLOW__PROFILER__XEVENT__DATA_NUM_OCCURRENCES;
  event->msg.num_occurrences = num_occurrences;
}

void
tm_fixture_event_add_stat (TmFixtureEvent      *event,
                           const TmFixtureStat *stat)
{
  g_return_if_fail (event != NULL);
  g_return_if_fail (stat != NULL && stat->name != NULL);

  g_ptr_array_add (event->stats, stat_new (event->plane, stat));
}

void
tm_fixture_event_add_stats (TmFixtureEvent      *event,
                            const TmFixtureStat *stats,
                            gsize                n_stats)
{
  g_return_if_fail (event != NULL);
  g_return_if_fail (stats != NULL || n_stats == 0);

  for (gsize i = 0; i < n_stats; i++)
    tm_fixture_event_add_stat (event, &stats[i]);
}

void
tm_fixture_event_add_int64 (TmFixtureEvent *event,
                            const char     *name,
                            gint64          value)
{
  TmFixtureStat stat = TM_FIXTURE_INT64 (name, value);

  tm_fixture_event_add_stat (event, &stat);
}

void
tm_fixture_event_add_uint64 (TmFixtureEvent *event,
                             const char     *name,
                             guint64         value)
{
  TmFixtureStat stat = TM_FIXTURE_UINT64 (name, value);

  tm_fixture_event_add_stat (event, &stat);
}

void
tm_fixture_event_add_double (TmFixtureEvent *event,
                             const char     *name,
                             double          value)
{
  TmFixtureStat stat = TM_FIXTURE_DOUBLE (name, value);

  tm_fixture_event_add_stat (event, &stat);
}

void
tm_fixture_event_add_str (TmFixtureEvent *event,
                          const char     *name,
                          const char     *value)
{
  TmFixtureStat stat = TM_FIXTURE_STR (name, value);

  g_return_if_fail (value != NULL);

  tm_fixture_event_add_stat (event, &stat);
}

void
tm_fixture_event_add_ref (TmFixtureEvent *event,
                          const char     *name,
                          const char     *value)
{
  TmFixtureStat stat = TM_FIXTURE_REF (name, value);

  g_return_if_fail (value != NULL);

  tm_fixture_event_add_stat (event, &stat);
}

void
tm_fixture_event_add_bytes (TmFixtureEvent *event,
                            const char     *name,
                            const guint8   *data,
                            gsize           n_bytes)
{
  TmFixtureStat stat = TM_FIXTURE_BYTES (name, data, n_bytes);

  g_return_if_fail (data != NULL || n_bytes == 0);

  tm_fixture_event_add_stat (event, &stat);
}

/* ------------------------------------------------------------------ */
/* Memory events                                                       */

static void
add_memory_number (TmFixtureEvent        *event,
                   const TmFixtureMemory *memory,
                   TmFixtureMemoryField   field,
                   const char            *name,
                   gint64                 value)
{
  TmFixtureStat stat;

  if (memory->absent & field)
    return;

  if (memory->flags & TM_FIXTURE_MEMORY_NUMBERS_AS_UINT64)
    stat = TM_FIXTURE_UINT64 (name, (guint64) value);
  else if (memory->flags & TM_FIXTURE_MEMORY_NUMBERS_AS_DOUBLE)
    stat = TM_FIXTURE_DOUBLE (name, (double) value);
  else
    stat = TM_FIXTURE_INT64 (name, value);

  tm_fixture_event_add_stat (event, &stat);
}

static void
add_memory_string (TmFixtureEvent        *event,
                   const TmFixtureMemory *memory,
                   TmFixtureMemoryField   field,
                   const char            *name,
                   const char            *value)
{
  TmFixtureStat stat;

  if ((memory->absent & field) || value == NULL)
    return;

  if (memory->flags & TM_FIXTURE_MEMORY_STRINGS_AS_REF)
    stat = TM_FIXTURE_REF (name, value);
  else
    stat = TM_FIXTURE_STR (name, value);

  tm_fixture_event_add_stat (event, &stat);
}

TmFixtureEvent *
tm_fixture_line_add_memory_event (TmFixtureLine         *line,
                                  gboolean               allocation,
                                  gint64                 offset_ps,
                                  const TmFixtureMemory *memory)
{
  TmFixtureEvent *event;

  g_return_val_if_fail (line != NULL, NULL);
  g_return_val_if_fail (memory != NULL, NULL);

  event = tm_fixture_line_add_event (line,
                                     allocation ? "MemoryAllocation" : "MemoryDeallocation",
                                     offset_ps, 0);

  switch (memory->id_kind)
    {
    case TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME:
      add_memory_string (event, memory, TM_FIXTURE_FIELD_MEMORY_ID,
                         "allocator_name", memory->allocator_name);
      break;

    case TM_FIXTURE_MEMORY_ID_INDEX_ON_HOST:
      add_memory_number (event, memory, TM_FIXTURE_FIELD_MEMORY_ID,
                         "index_on_host", memory->memory_index);
      break;

    case TM_FIXTURE_MEMORY_ID_DEVICE_ORDINAL:
      add_memory_number (event, memory, TM_FIXTURE_FIELD_MEMORY_ID,
                         "device_ordinal", memory->memory_index);
      break;

    case TM_FIXTURE_MEMORY_ID_NONE:
    default:
      break;
    }

  add_memory_number (event, memory, TM_FIXTURE_FIELD_BYTES_RESERVED,
                     "bytes_reserved", memory->bytes_reserved);
  add_memory_number (event, memory, TM_FIXTURE_FIELD_BYTES_ALLOCATED,
                     "bytes_allocated", memory->bytes_allocated);
  add_memory_number (event, memory, TM_FIXTURE_FIELD_BYTES_AVAILABLE,
                     "bytes_available", memory->bytes_available);

  if (!(memory->absent & TM_FIXTURE_FIELD_FRAGMENTATION))
    {
      if (memory->flags & TM_FIXTURE_MEMORY_FRAGMENTATION_INT64_0)
        tm_fixture_event_add_int64 (event, "fragmentation", 0);
      else
        tm_fixture_event_add_double (event, "fragmentation", memory->fragmentation);
    }

  add_memory_number (event, memory, TM_FIXTURE_FIELD_PEAK_BYTES_IN_USE,
                     "peak_bytes_in_use", memory->peak_bytes_in_use);
  add_memory_number (event, memory, TM_FIXTURE_FIELD_REQUESTED_BYTES,
                     "requested_bytes", memory->requested_bytes);
  add_memory_number (event, memory, TM_FIXTURE_FIELD_ALLOCATION_BYTES,
                     "allocation_bytes", memory->allocation_bytes);
  add_memory_number (event, memory, TM_FIXTURE_FIELD_ADDR,
                     "addr", (gint64) memory->addr);
  add_memory_string (event, memory, TM_FIXTURE_FIELD_TF_OP,
                     "tf_op", memory->tf_op);
  if (memory->has_group_id)
    add_memory_number (event, memory, TM_FIXTURE_FIELD_GROUP_ID,
                       "group_id", memory->group_id);
  add_memory_string (event, memory, TM_FIXTURE_FIELD_REGION_TYPE,
                     "region_type", memory->region_type);
  add_memory_number (event, memory, TM_FIXTURE_FIELD_DATA_TYPE,
                     "data_type", memory->data_type);
  add_memory_string (event, memory, TM_FIXTURE_FIELD_SHAPE,
                     "shape", memory->shape);

  return event;
}

/* ------------------------------------------------------------------ */
/* HLO modules                                                         */

TmFixtureEvent *
tm_fixture_space_add_hlo_module (TmFixtureSpace *space,
                                 guint           tpu_index,
                                 const char     *module_name,
                                 gint64          start_ps,
                                 gint64          end_ps)
{
  g_autofree char *plane_name = NULL;
  TmFixturePlane *plane;
  TmFixtureLine *line;

  g_return_val_if_fail (space != NULL, NULL);
  g_return_val_if_fail (module_name != NULL, NULL);

  plane_name = g_strdup_printf ("/device:TPU:%u", tpu_index);
  plane = tm_fixture_space_get_plane (space, plane_name);
  line = tm_fixture_plane_get_line (plane, "XLA Modules", 0);

  /* Wraps for modules wider than INT64_MAX ps, as a hostile file would. */
  return tm_fixture_line_add_event (line, module_name, start_ps, (gint64) ((guint64) end_ps - (guint64) start_ps));
}

/* ------------------------------------------------------------------ */
/* protobuf-c packing                                                  */

static void
sync_stats (size_t     *n_stats,
            XStat    ***stats,
            GPtrArray  *array)
{
  *n_stats = array->len;
  *stats = (XStat **) array->pdata;
}

static void
sync_space (TmFixtureSpace *space)
{
  space->msg.n_planes = space->planes->len;
  space->msg.planes = (XPlane **) space->planes->pdata;
  space->msg.n_errors = space->errors->len;
  space->msg.errors = (char **) space->errors->pdata;
  space->msg.n_warnings = space->warnings->len;
  space->msg.warnings = (char **) space->warnings->pdata;
  space->msg.n_hostnames = space->hostnames->len;
  space->msg.hostnames = (char **) space->hostnames->pdata;

  for (guint p = 0; p < space->planes->len; p++)
    {
      TmFixturePlane *plane = g_ptr_array_index (space->planes, p);

      plane->msg.n_lines = plane->lines->len;
      plane->msg.lines = (XLine **) plane->lines->pdata;
      plane->msg.n_event_metadata = plane->event_metadata->len;
      plane->msg.event_metadata = (EventMetadataEntry **) plane->event_metadata->pdata;
      plane->msg.n_stat_metadata = plane->stat_metadata->len;
      plane->msg.stat_metadata = (StatMetadataEntry **) plane->stat_metadata->pdata;
      sync_stats (&plane->msg.n_stats, &plane->msg.stats, plane->stats);

      for (guint i = 0; i < plane->event_metadata->len; i++)
        {
          EventMetadata *em = g_ptr_array_index (plane->event_metadata, i);

          sync_stats (&em->meta.n_stats, &em->meta.stats, em->stats);
        }

      for (guint l = 0; l < plane->lines->len; l++)
        {
          TmFixtureLine *line = g_ptr_array_index (plane->lines, l);

          line->msg.n_events = line->events->len;
          line->msg.events = (XEvent **) line->events->pdata;

          for (guint e = 0; e < line->events->len; e++)
            {
              TmFixtureEvent *event = g_ptr_array_index (line->events, e);

              sync_stats (&event->msg.n_stats, &event->msg.stats, event->stats);
            }
        }
    }
}

GBytes *
tm_fixture_space_serialize (TmFixtureSpace *space)
{
  gsize size;
  guint8 *data;

  g_return_val_if_fail (space != NULL, NULL);

  sync_space (space);
  size = tensorflow__profiler__xspace__get_packed_size (&space->msg);
  data = g_malloc (MAX (size, 1));
  tensorflow__profiler__xspace__pack (&space->msg, data);

  return g_bytes_new_take (data, size);
}

/* ------------------------------------------------------------------ */
/* Hand encoding (odd layouts)                                         */

enum
{
  WIRE_VARINT  = 0,
  WIRE_FIXED64 = 1,
  WIRE_LEN     = 2,
  WIRE_FIXED32 = 5,
};

/* Which part of a split metadata value to write (TM_FIXTURE_ODD_SPLIT_VALUES). */
typedef enum
{
  PART_ALL,
  PART_NAME_ONLY,
  PART_ALL_BUT_NAME,
} Part;

typedef struct
{
  GByteArray        *buf;
  TmFixtureOddFlags  flags;
  Part               part;
} Enc;

typedef void (*EncFunc) (Enc          *enc,
                         gconstpointer msg);

static void
put_raw_varint (GByteArray *buf,
                guint64     value)
{
  guint8 bytes[10];
  guint n = 0;

  do
    {
      bytes[n] = value & 0x7f;
      value >>= 7;
      if (value != 0)
        bytes[n] |= 0x80;
      n++;
    }
  while (value != 0);

  g_byte_array_append (buf, bytes, n);
}

/* A value or length: one byte longer than needed with LONG_VARINTS. */
static void
put_varint (Enc     *enc,
            guint64  value)
{
  guint8 bytes[10];
  guint n = 0;

  do
    {
      bytes[n] = value & 0x7f;
      value >>= 7;
      if (value != 0)
        bytes[n] |= 0x80;
      n++;
    }
  while (value != 0);

  if ((enc->flags & TM_FIXTURE_ODD_LONG_VARINTS) && n < 10)
    {
      bytes[n - 1] |= 0x80;
      bytes[n++] = 0x00;
    }

  g_byte_array_append (enc->buf, bytes, n);
}

static void
put_tag (Enc     *enc,
         guint32  field,
         guint    wire_type)
{
  put_raw_varint (enc->buf, ((guint64) field << 3) | wire_type);
}

static gboolean
write_zeros (Enc *enc)
{
  return (enc->flags & TM_FIXTURE_ODD_EXPLICIT_ZEROS) != 0;
}

static void
put_varint_field (Enc     *enc,
                  guint32  field,
                  guint64  value)
{
  put_tag (enc, field, WIRE_VARINT);
  put_varint (enc, value);
}

/* A proto3 scalar: omitted when zero unless EXPLICIT_ZEROS. */
static void
put_int64_member (Enc     *enc,
                  guint32  field,
                  gint64   value)
{
  if (value != 0 || write_zeros (enc))
    put_varint_field (enc, field, (guint64) value);
}

static void
put_bytes_field (Enc           *enc,
                 guint32        field,
                 gconstpointer  data,
                 gsize          len)
{
  put_tag (enc, field, WIRE_LEN);
  put_varint (enc, len);
  if (len > 0)
    g_byte_array_append (enc->buf, data, len);
}

/* A proto3 string: omitted when empty unless EXPLICIT_ZEROS. */
static void
put_string_member (Enc        *enc,
                   guint32     field,
                   const char *value)
{
  if ((value != NULL && value[0] != '\0') || write_zeros (enc))
    put_bytes_field (enc, field, value != NULL ? value : "", value != NULL ? strlen (value) : 0);
}

static void
put_message_part (Enc           *enc,
                  guint32        field,
                  EncFunc        func,
                  gconstpointer  msg,
                  Part           part)
{
  Enc sub = { g_byte_array_new (), enc->flags, part };

  func (&sub, msg);
  put_bytes_field (enc, field, sub.buf->data, sub.buf->len);
  g_byte_array_unref (sub.buf);
}

static void
put_message (Enc           *enc,
             guint32        field,
             EncFunc        func,
             gconstpointer  msg)
{
  put_message_part (enc, field, func, msg, PART_ALL);
}

static void
put_unknown_fields (Enc *enc)
{
  static const guint8 fixed64[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  static const guint8 fixed32[4] = { 9, 10, 11, 12 };

  if (!(enc->flags & TM_FIXTURE_ODD_UNKNOWN_FIELDS))
    return;

  put_varint_field (enc, 15, 300);
  put_tag (enc, 1000, WIRE_FIXED64);
  g_byte_array_append (enc->buf, fixed64, sizeof fixed64);
  put_tag (enc, 1001, WIRE_FIXED32);
  g_byte_array_append (enc->buf, fixed32, sizeof fixed32);
  put_bytes_field (enc, 536870911, "unknown", 7);
}

/* Field order of a message: ascending, or descending with REVERSED. */
static guint32
field_at (Enc           *enc,
          const guint32 *order,
          guint          n,
          guint          i)
{
  return (enc->flags & TM_FIXTURE_ODD_REVERSED) ? order[n - 1 - i] : order[i];
}

static void
enc_stat (Enc           *enc,
          gconstpointer  msg)
{
  static const guint32 order[] = { 1, 2 };
  const XStat *stat = msg;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      if (field_at (enc, order, G_N_ELEMENTS (order), i) == 1)
        {
          put_int64_member (enc, 1, stat->metadata_id);
          continue;
        }

      /* A oneof member is written whenever it is the set one. */
      switch (stat->value_case)
        {
        case TENSORFLOW__PROFILER__XSTAT__VALUE_DOUBLE_VALUE:
          {
            guint64 bits;
            guint8 le[8];

            memcpy (&bits, &stat->double_value, sizeof bits);
            for (guint b = 0; b < 8; b++)
              le[b] = (bits >> (8 * b)) & 0xff;
            put_tag (enc, 2, WIRE_FIXED64);
            g_byte_array_append (enc->buf, le, sizeof le);
          }
          break;

        case TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE:
          put_varint_field (enc, 3, stat->uint64_value);
          break;

        case TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE:
          put_varint_field (enc, 4, (guint64) stat->int64_value);
          break;

        case TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE:
          put_bytes_field (enc, 5, stat->str_value, str_value_length (stat));
          break;

        case TENSORFLOW__PROFILER__XSTAT__VALUE_BYTES_VALUE:
          put_bytes_field (enc, 6, stat->bytes_value.data, stat->bytes_value.len);
          break;

        case TENSORFLOW__PROFILER__XSTAT__VALUE_REF_VALUE:
          put_varint_field (enc, 7, stat->ref_value);
          break;

        case TENSORFLOW__PROFILER__XSTAT__VALUE__NOT_SET:
        default:
          break;
        }
    }

  put_unknown_fields (enc);
}

static void
put_stats (Enc          *enc,
           guint32       field,
           XStat *const *stats,
           gsize         n_stats)
{
  for (gsize i = 0; i < n_stats; i++)
    put_message (enc, field, enc_stat, stats[i]);
}

static void
enc_event (Enc           *enc,
           gconstpointer  msg)
{
  static const guint32 order[] = { 1, 2, 3, 4, 5 };
  const XEvent *event = msg;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      switch (field_at (enc, order, G_N_ELEMENTS (order), i))
        {
        case 1:
          put_int64_member (enc, 1, event->metadata_id);
          break;

        case 2:
          if (event->data_case == TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS)
            put_varint_field (enc, 2, (guint64) event->offset_ps);
          break;

        case 3:
          put_int64_member (enc, 3, event->duration_ps);
          break;

        case 4:
          put_stats (enc, 4, event->stats, event->n_stats);
          break;

        case 5:
          if (event->data_case == TENSORFLOW__PROFILER__XEVENT__DATA_NUM_OCCURRENCES)
            put_varint_field (enc, 5, (guint64) event->num_occurrences);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  put_unknown_fields (enc);
}

static void
enc_line (Enc           *enc,
          gconstpointer  msg)
{
  static const guint32 order[] = { 1, 2, 3, 4, 9, 10, 11 };
  const XLine *line = msg;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      switch (field_at (enc, order, G_N_ELEMENTS (order), i))
        {
        case 1:
          put_int64_member (enc, 1, line->id);
          break;

        case 2:
          put_string_member (enc, 2, line->name);
          break;

        case 3:
          put_int64_member (enc, 3, line->timestamp_ns);
          break;

        case 4:
          for (gsize e = 0; e < line->n_events; e++)
            put_message (enc, 4, enc_event, line->events[e]);
          break;

        case 9:
          put_int64_member (enc, 9, line->duration_ps);
          break;

        case 10:
          put_int64_member (enc, 10, line->display_id);
          break;

        case 11:
          put_string_member (enc, 11, line->display_name);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  put_unknown_fields (enc);
}

static void
enc_event_metadata (Enc           *enc,
                    gconstpointer  msg)
{
  static const guint32 order[] = { 1, 2, 3, 4, 5 };
  const XEventMetadata *meta = msg;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      guint32 field = field_at (enc, order, G_N_ELEMENTS (order), i);

      if ((enc->part == PART_NAME_ONLY && field != 2) ||
          (enc->part == PART_ALL_BUT_NAME && field == 2))
        continue;

      switch (field)
        {
        case 1:
          put_int64_member (enc, 1, meta->id);
          break;

        case 2:
          put_string_member (enc, 2, meta->name);
          break;

        case 3:
          if (meta->metadata.len > 0 || write_zeros (enc))
            put_bytes_field (enc, 3, meta->metadata.data, meta->metadata.len);
          break;

        case 4:
          put_string_member (enc, 4, meta->display_name);
          break;

        case 5:
          put_stats (enc, 5, meta->stats, meta->n_stats);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  if (enc->part != PART_NAME_ONLY)
    put_unknown_fields (enc);
}

static void
enc_stat_metadata (Enc           *enc,
                   gconstpointer  msg)
{
  static const guint32 order[] = { 1, 2, 3 };
  const XStatMetadata *meta = msg;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      guint32 field = field_at (enc, order, G_N_ELEMENTS (order), i);

      if ((enc->part == PART_NAME_ONLY && field != 2) ||
          (enc->part == PART_ALL_BUT_NAME && field == 2))
        continue;

      switch (field)
        {
        case 1:
          put_int64_member (enc, 1, meta->id);
          break;

        case 2:
          put_string_member (enc, 2, meta->name);
          break;

        case 3:
          put_string_member (enc, 3, meta->description);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  if (enc->part != PART_NAME_ONLY)
    put_unknown_fields (enc);
}

static void
put_entry_value (Enc           *enc,
                 EncFunc        func,
                 gconstpointer  value)
{
  if (value == NULL)
    return;

  if (enc->flags & TM_FIXTURE_ODD_SPLIT_VALUES)
    {
      put_message_part (enc, 2, func, value, PART_NAME_ONLY);
      put_message_part (enc, 2, func, value, PART_ALL_BUT_NAME);
    }
  else
    {
      put_message (enc, 2, func, value);
    }
}

static void
enc_event_metadata_entry (Enc           *enc,
                          gconstpointer  msg)
{
  const EventMetadataEntry *entry = msg;

  if (enc->flags & TM_FIXTURE_ODD_REVERSED)
    {
      put_entry_value (enc, enc_event_metadata, entry->value);
      put_int64_member (enc, 1, entry->key);
    }
  else
    {
      put_int64_member (enc, 1, entry->key);
      put_entry_value (enc, enc_event_metadata, entry->value);
    }

  put_unknown_fields (enc);
}

static void
enc_stat_metadata_entry (Enc           *enc,
                         gconstpointer  msg)
{
  const StatMetadataEntry *entry = msg;

  if (enc->flags & TM_FIXTURE_ODD_REVERSED)
    {
      put_entry_value (enc, enc_stat_metadata, entry->value);
      put_int64_member (enc, 1, entry->key);
    }
  else
    {
      put_int64_member (enc, 1, entry->key);
      put_entry_value (enc, enc_stat_metadata, entry->value);
    }

  put_unknown_fields (enc);
}

/* Plane "fields" for ordering: halves of the repeated ones for INTERLEAVED. */
enum
{
  PF_ID,
  PF_NAME,
  PF_LINES_A,
  PF_LINES_B,
  PF_EVENT_META_A,
  PF_EVENT_META_B,
  PF_STAT_META_A,
  PF_STAT_META_B,
  PF_STATS,
};

static void
enc_plane (Enc           *enc,
           gconstpointer  msg)
{
  static const guint normal[] = {
    PF_ID, PF_NAME, PF_LINES_A, PF_LINES_B, PF_EVENT_META_A, PF_EVENT_META_B,
    PF_STAT_META_A, PF_STAT_META_B, PF_STATS,
  };
  static const guint reversed[] = {
    PF_STATS, PF_STAT_META_A, PF_STAT_META_B, PF_EVENT_META_A, PF_EVENT_META_B,
    PF_LINES_A, PF_LINES_B, PF_NAME, PF_ID,
  };
  static const guint metadata_first[] = {
    PF_EVENT_META_A, PF_EVENT_META_B, PF_STAT_META_A, PF_STAT_META_B, PF_STATS,
    PF_LINES_A, PF_LINES_B, PF_NAME, PF_ID,
  };
  static const guint interleaved[] = {
    PF_ID, PF_LINES_A, PF_EVENT_META_A, PF_NAME, PF_STAT_META_A, PF_LINES_B,
    PF_EVENT_META_B, PF_STAT_META_B, PF_STATS,
  };
  const XPlane *plane = msg;
  const guint *order;
  gsize lines_half = plane->n_lines / 2;
  gsize em_half = plane->n_event_metadata / 2;
  gsize sm_half = plane->n_stat_metadata / 2;

  if (enc->flags & TM_FIXTURE_ODD_INTERLEAVED)
    order = interleaved;
  else if (enc->flags & TM_FIXTURE_ODD_METADATA_FIRST)
    order = metadata_first;
  else if (enc->flags & TM_FIXTURE_ODD_REVERSED)
    order = reversed;
  else
    order = normal;

  if (enc->flags & TM_FIXTURE_ODD_DUPLICATE_NAME)
    put_string_member (enc, 2, "/ignored:overwritten");

  /* Without INTERLEAVED the A halves hold everything. */
  if (!(enc->flags & TM_FIXTURE_ODD_INTERLEAVED))
    {
      lines_half = plane->n_lines;
      em_half = plane->n_event_metadata;
      sm_half = plane->n_stat_metadata;
    }

  for (guint i = 0; i < G_N_ELEMENTS (normal); i++)
    {
      switch (order[i])
        {
        case PF_ID:
          put_int64_member (enc, 1, plane->id);
          break;

        case PF_NAME:
          /* After a duplicate, even an empty name must be written to win. */
          if (enc->flags & TM_FIXTURE_ODD_DUPLICATE_NAME)
            put_bytes_field (enc, 2, plane->name, strlen (plane->name));
          else
            put_string_member (enc, 2, plane->name);
          break;

        case PF_LINES_A:
          for (gsize l = 0; l < lines_half; l++)
            put_message (enc, 3, enc_line, plane->lines[l]);
          break;

        case PF_LINES_B:
          for (gsize l = lines_half; l < plane->n_lines; l++)
            put_message (enc, 3, enc_line, plane->lines[l]);
          break;

        case PF_EVENT_META_A:
          for (gsize m = 0; m < em_half; m++)
            put_message (enc, 4, enc_event_metadata_entry, plane->event_metadata[m]);
          break;

        case PF_EVENT_META_B:
          for (gsize m = em_half; m < plane->n_event_metadata; m++)
            put_message (enc, 4, enc_event_metadata_entry, plane->event_metadata[m]);
          break;

        case PF_STAT_META_A:
          for (gsize m = 0; m < sm_half; m++)
            put_message (enc, 5, enc_stat_metadata_entry, plane->stat_metadata[m]);
          break;

        case PF_STAT_META_B:
          for (gsize m = sm_half; m < plane->n_stat_metadata; m++)
            put_message (enc, 5, enc_stat_metadata_entry, plane->stat_metadata[m]);
          break;

        case PF_STATS:
          put_stats (enc, 6, plane->stats, plane->n_stats);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  put_unknown_fields (enc);
}

static void
put_strings (Enc         *enc,
             guint32      field,
             char *const *strings,
             gsize        n_strings)
{
  for (gsize i = 0; i < n_strings; i++)
    put_bytes_field (enc, field, strings[i], strlen (strings[i]));
}

static void
enc_space (Enc           *enc,
           gconstpointer  msg)
{
  static const guint32 order[] = { 1, 2, 3, 4 };
  const XSpace *space = msg;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      switch (field_at (enc, order, G_N_ELEMENTS (order), i))
        {
        case 1:
          for (gsize p = 0; p < space->n_planes; p++)
            put_message (enc, 1, enc_plane, space->planes[p]);
          break;

        case 2:
          put_strings (enc, 2, space->errors, space->n_errors);
          break;

        case 3:
          put_strings (enc, 3, space->warnings, space->n_warnings);
          break;

        case 4:
          put_strings (enc, 4, space->hostnames, space->n_hostnames);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  put_unknown_fields (enc);
}

GBytes *
tm_fixture_space_serialize_odd (TmFixtureSpace    *space,
                                TmFixtureOddFlags  flags)
{
  Enc enc;

  g_return_val_if_fail (space != NULL, NULL);

  sync_space (space);
  enc.buf = g_byte_array_new ();
  enc.flags = flags;
  enc.part = PART_ALL;
  enc_space (&enc, &space->msg);

  return g_byte_array_free_to_bytes (enc.buf);
}

/* ------------------------------------------------------------------ */
/* Files                                                               */

char *
tm_fixture_make_temp_dir (GError **error)
{
  return g_dir_make_tmp (TEMP_DIR_TEMPLATE, error);
}

char *
tm_fixture_write_bytes (GBytes      *bytes,
                        const char  *dir,
                        const char  *basename,
                        GError     **error)
{
  g_autofree char *tmp_dir = NULL;
  g_autofree char *path = NULL;
  gconstpointer data;
  gsize size;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (basename != NULL, NULL);

  if (dir == NULL)
    {
      tmp_dir = tm_fixture_make_temp_dir (error);
      if (tmp_dir == NULL)
        return NULL;
      dir = tmp_dir;
    }

  path = g_build_filename (dir, basename, NULL);
  data = g_bytes_get_data (bytes, &size);
  if (!g_file_set_contents (path, data != NULL ? data : "", size, error))
    {
      if (tmp_dir != NULL)
        g_rmdir (tmp_dir);
      return NULL;
    }

  return g_steal_pointer (&path);
}

char *
tm_fixture_space_write (TmFixtureSpace  *space,
                        const char      *dir,
                        const char      *basename,
                        GError         **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (space != NULL, NULL);

  bytes = tm_fixture_space_serialize (space);

  return tm_fixture_write_bytes (bytes, dir, basename, error);
}

static void
remove_tree (const char *path)
{
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return;

  if (S_ISDIR (st.st_mode))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      /* Ensure we may list and delete inside (tests make unreadable files). */
      g_chmod (path, 0700);
      if (dir == NULL)
        dir = g_dir_open (path, 0, NULL);
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    {
      g_unlink (path);
    }
}

void
tm_fixture_remove (const char *path)
{
  g_autofree char *parent = NULL;
  g_autofree char *parent_parent = NULL;
  g_autofree char *parent_base = NULL;
  GStatBuf st;
  gboolean was_file;

  g_return_if_fail (path != NULL);

  was_file = g_lstat (path, &st) == 0 && !S_ISDIR (st.st_mode);
  remove_tree (path);

  if (!was_file)
    return;

  /* A file written with dir NULL sits alone in its own temp directory. */
  parent = g_path_get_dirname (path);
  parent_base = g_path_get_basename (parent);
  parent_parent = g_path_get_dirname (parent);
  if (g_str_has_prefix (parent_base, TEMP_DIR_PREFIX) &&
      g_strcmp0 (parent_parent, g_get_tmp_dir ()) == 0)
    g_rmdir (parent);  /* fails harmlessly if something else is inside */
}

/* ------------------------------------------------------------------ */
/* Ready-made fixtures                                                 */

TmFixtureSpace *
tm_fixture_space_new_xprof_example (void)
{
  TmFixtureSpace *space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
  TmFixtureLine *line = tm_fixture_plane_add_line (host, "Memory", 1000);
  TmFixtureMemory memory = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
    .allocator_name = TM_FIXTURE_XPROF_ALLOCATOR,
  };

  memory.bytes_reserved = 2000;
  memory.bytes_allocated = 3000;
  memory.bytes_available = 5000;
  memory.fragmentation = 0.4;
  memory.peak_bytes_in_use = 8500;
  memory.requested_bytes = 200;
  memory.allocation_bytes = 256;
  memory.addr = TM_FIXTURE_XPROF_FIRST_ADDR;
  memory.tf_op = TM_FIXTURE_XPROF_FIRST_OP_NAME;
  memory.region_type = "output";
  memory.data_type = 1;  /* float */
  memory.shape = "[3, 3, 512, 512]";
  tm_fixture_line_add_memory_event (line, TRUE, 40000, &memory);

  /* The deallocation carries no op/region/type/shape: docs/analysis.md, step 4 copies them. */
  memory.bytes_allocated = 2744;
  memory.bytes_available = 5256;
  memory.fragmentation = 0.45;
  memory.tf_op = NULL;
  memory.region_type = NULL;
  memory.shape = NULL;
  memory.absent = TM_FIXTURE_FIELD_DATA_TYPE;
  tm_fixture_line_add_memory_event (line, FALSE, 50000, &memory);

  memory.bytes_allocated = 5000;
  memory.bytes_available = 4000;
  memory.fragmentation = 0.2;
  memory.peak_bytes_in_use = 9500;
  memory.requested_bytes = 300;
  memory.allocation_bytes = 300;
  memory.addr = TM_FIXTURE_XPROF_OP_ADDR;
  memory.tf_op = TM_FIXTURE_XPROF_OP_NAME;
  memory.region_type = TM_FIXTURE_XPROF_OP_REGION;
  memory.data_type = 19;  /* half */
  memory.shape = TM_FIXTURE_XPROF_OP_SHAPE;
  memory.absent = 0;
  tm_fixture_line_add_memory_event (line, TRUE, 70000, &memory);

  return space;
}

/* "stem" for -1, else "stem_N". */
static char *
keras_name (const char *stem,
            int         number)
{
  return number < 0 ? g_strdup (stem) : g_strdup_printf ("%s_%d", stem, number);
}

TmFixtureSpace *
tm_fixture_space_new_keras_run (int    model,
                                int    first_conv,
                                int    first_dense,
                                gint64 scale)
{
  TmFixtureSpace *space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "Memory", 0);
  g_autofree char *model_name = keras_name ("sequential", model);
  TmFixtureMemory m = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
    .allocator_name = "GPU_0_bfc",
    .region_type = "output",
    .data_type = 1,
    .shape = "[8]",
    .has_group_id = TRUE,
    .group_id = 1,
  };
  gint64 heap = 0, t = 1000;
  guint64 addr = 0x10000;

  g_return_val_if_fail (scale > 0, space);

  for (guint layer = 0; layer < 5; layer++)
    {
      gboolean conv = layer < 3;
      guint k = conv ? layer : layer - 3;
      int number = conv ? first_conv : first_dense;
      g_autofree char *layer_name = NULL;
      const char *ops[] = { conv ? "Conv2D" : "MatMul", conv ? "BiasAdd" : NULL };
      gint64 sizes[] = { (gint64) (k + 1) * (conv ? 1024 : 2048) * scale, (gint64) (k + 1) * 256 * scale };

      /* Keras counts on from the first: "conv2d", "conv2d_1", … */
      if (number < 0 && k > 0)
        number = 0;
      layer_name = keras_name (conv ? "conv2d" : "dense", number < 0 ? -1 : number + (int) k);

      for (guint o = 0; o < G_N_ELEMENTS (ops) && ops[o] != NULL; o++)
        {
          g_autofree char *op = g_strdup_printf ("%s/%s/%s", model_name, layer_name, ops[o]);

          heap += sizes[o];
          m.bytes_allocated = heap;
          m.bytes_available = G_GINT64_CONSTANT (1) << 30;
          m.peak_bytes_in_use = heap;
          m.requested_bytes = sizes[o];
          m.allocation_bytes = sizes[o];
          m.addr = addr;
          m.tf_op = op;
          tm_fixture_line_add_memory_event (line, TRUE, t, &m);
          addr += (guint64) sizes[o];
          t += 1000;
        }
    }
  return space;
}

char **
tm_fixture_write_run (const char *dir,
                      guint       n_hosts,
                      guint       corrupt,
                      guint       no_data)
{
  static const guint8 not_protobuf[] = { 0x0a, 0xff, 0xff, 0xff, 0xff, 0x07, 0x0a, 0x02, 0x08, 0x01 };
  GPtrArray *paths = g_ptr_array_new ();

  g_return_val_if_fail (dir != NULL, NULL);

  for (guint h = 0; h < n_hosts; h++)
    {
      g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
      g_autofree char *basename = g_strdup_printf ("worker-%u.xplane.pb", h);
      g_autoptr(GError) error = NULL;
      char *path;

      if (h == corrupt)
        {
          g_autoptr(GBytes) bytes = g_bytes_new_static (not_protobuf, sizeof not_protobuf);

          path = tm_fixture_write_bytes (bytes, dir, basename, &error);
        }
      else
        {
          TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
          TmFixtureLine *line = tm_fixture_plane_add_line (host, "Memory", 0);
          guint n_ids = h == no_data ? 0 : (h % 2 == 0 ? 2 : 1);

          for (guint d = 0; d < n_ids; d++)
            {
              g_autofree char *allocator = g_strdup_printf ("TPU_%u_bfc", d);
              gint64 unit = (gint64) (1 + (h * 7 + d * 3) % 11) << 20;
              gint64 heap = 0;
              gint64 capacity = G_GINT64_CONSTANT (1) << 34;

              if (h == TM_FIXTURE_RUN_BUSIEST && d == 0)
                unit = G_GINT64_CONSTANT (40) << 20;

              for (guint i = 0; i < 40; i++)
                {
                  TmFixtureMemory m = { 0 };
                  gboolean alloc = i % 4 != 3;
                  gint64 bytes = unit * (1 + i % 5);

                  if (!alloc)
                    bytes = unit * (1 + (i - 1) % 5);
                  heap += alloc ? bytes : -bytes;
                  m.id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME;
                  m.allocator_name = allocator;
                  m.bytes_reserved = 1 << 20;
                  m.bytes_allocated = heap;
                  m.bytes_available = capacity - heap - (1 << 20);
                  m.fragmentation = (double) (i % 7) / 10.0;
                  m.peak_bytes_in_use = heap;
                  m.requested_bytes = bytes;
                  m.allocation_bytes = bytes;
                  m.addr = 0x7f0000000000 + (guint64) (alloc ? i : i - 1) * 0x10000000;
                  m.tf_op = alloc ? "layer/MatMul" : NULL;
                  m.region_type = "output";
                  m.data_type = 1;
                  m.shape = "[1024, 1024]";
                  tm_fixture_line_add_memory_event (line, alloc, 1000000 + (gint64) i * 250000 + d * 1000, &m);
                }
            }
          path = tm_fixture_space_write (space, dir, basename, &error);
        }
      g_assert_no_error (error);
      g_ptr_array_add (paths, path);
    }

  g_ptr_array_add (paths, NULL);
  return (char **) g_ptr_array_free (paths, FALSE);
}

TmFixtureSpace *
tm_fixture_space_new_tour (void)
{
  static const gint64 times_ms[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 90, 91, 92, 93 };
  const gint64 mib = G_GINT64_CONSTANT (1) << 20, ms = G_GINT64_CONSTANT (1000000000);
  TmFixtureSpace *space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "Memory", 0);
  gint64 heap = 0;

  for (guint i = 0; i < G_N_ELEMENTS (times_ms); i++)
    {
      g_autofree char *op = g_strdup_printf ("replica_6/bert_span_labeler/bert_encoder_1/transformer/layer_%u/"
                                             "self_attention/dropout_%u/dropout/Cast", i, i % 3);
      gint64 bytes = (gint64) (i + 1) * 2 * mib;
      TmFixtureMemory memory = {
        .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
        .allocator_name = "GPU_0_bfc",
        .fragmentation = (i % 2) ? 0.9 : 0.05,
        .requested_bytes = bytes,
        .allocation_bytes = bytes,
        .addr = G_GUINT64_CONSTANT (0x7f0000000000) + (guint64) i * 0x1000000,
        .tf_op = op,
        .has_group_id = TRUE,
        .group_id = i < 2 ? 2 : 3,
        .region_type = "output",
        .data_type = 1,
        .shape = "[8,64]",
      };

      heap += bytes;
      memory.bytes_allocated = heap;
      memory.bytes_available = 16 * 1024 * mib - heap;
      memory.peak_bytes_in_use = heap;
      if (i == 4)
        memory.absent = TM_FIXTURE_FIELD_TF_OP | TM_FIXTURE_FIELD_GROUP_ID |
                        TM_FIXTURE_FIELD_ADDR | TM_FIXTURE_FIELD_REQUESTED_BYTES |
                        TM_FIXTURE_FIELD_REGION_TYPE | TM_FIXTURE_FIELD_SHAPE;
      tm_fixture_line_add_memory_event (line, TRUE, times_ms[i] * ms, &memory);
    }
  tm_fixture_space_add_hlo_module (space, 0, "jit_train_step", 1 * ms, 9 * ms);
  tm_fixture_space_add_hlo_module (space, 0, "", 90 * ms, 93 * ms);
  return space;
}
