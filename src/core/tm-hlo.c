/* tm-hlo.c — XLA modules' HloProtos: where they are, and decoding one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * protobuf-c has no nesting limit and allocates as the bytes say, so a
 * proto is first walked on the wire, driven by the generated descriptors:
 * that checks every tag, length and nesting level, and says where a bad
 * one is. Only then does protobuf-c decode it, with an allocator that stops
 * at a budget proportional to the input's size.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-error.h"
#include "tm-hlo.h"

enum { MAP_KEY = 1, MAP_VALUE = 2 };
enum { EVENT_MD_ID = 1, EVENT_MD_NAME = 2, EVENT_MD_STATS = 5 };
enum { HLO_PROTO_MODULE = 1, HLO_MODULE_NAME = 1 };

#define HLO_PROTO_STAT_NAME "Hlo Proto"
#define PROGRAM_ID_STAT_NAME "program_id"

void
tm_hlo_entry_clear (TmHloEntry *entry)
{
  g_clear_pointer (&entry->source, tm_source_unref);
  g_clear_pointer (&entry->name, g_free);
}

GArray *
tm_hlo_entries_new (void)
{
  GArray *entries = g_array_new (FALSE, TRUE, sizeof (TmHloEntry));

  g_array_set_clear_func (entries, (GDestroyNotify) tm_hlo_entry_clear);
  return entries;
}

/* The names already in entries, to drop repeats in O(1) each. */
static GHashTable *
entry_names (GArray *entries)
{
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < entries->len; i++)
    g_hash_table_add (names, g_strdup (g_array_index (entries, TmHloEntry, i).name));
  return names;
}

/* The hlo_module.name of a serialized HloProto, read on the wire as far as
 * it reads: a proto broken further on is still listed, under this name,
 * and says what is wrong when it is decoded. */
static gboolean
read_module_name (TmWire  proto,
                  TmStr  *found)
{
  while (!tm_wire_at_end (&proto))
    {
      guint32 field;
      guint wt;
      TmWire module;

      if (!tm_wire_read_tag (&proto, &field, &wt, NULL))
        break;
      if (field != HLO_PROTO_MODULE || wt != TM_WIRE_LEN)
        {
          if (!tm_wire_skip (&proto, wt, NULL))
            break;
          continue;
        }
      if (!tm_wire_read_len (&proto, &module, NULL))
        break;
      /* Occurrences of a message merge: a later name wins. */
      while (!tm_wire_at_end (&module))
        {
          if (!tm_wire_read_tag (&module, &field, &wt, NULL))
            break;
          if (field == HLO_MODULE_NAME && wt == TM_WIRE_LEN)
            {
              if (!tm_str_read (&module, found, NULL))
                break;
            }
          else if (!tm_wire_skip (&module, wt, NULL))
            break;
        }
    }
  return found->ptr != NULL;
}

typedef struct
{
  gint64  id;
  TmStr   name;
  gboolean has_hlo;
  TmWire  hlo;
  gboolean has_program_id;
  gint64  program_id;
} EventMetadata;

/* One XStat of an event metadata: the HloProto's bytes or the program id. */
static gboolean
read_stat (TmWire          stat,
           gint64          hlo_stat_id,
           gint64          program_id_stat_id,
           EventMetadata  *md,
           GError        **error)
{
  gint64 metadata_id = 0;
  gboolean has_bytes = FALSE, has_int = FALSE;
  TmWire bytes = { 0 };
  guint64 value = 0;

  while (!tm_wire_at_end (&stat))
    {
      guint32 field;
      guint wt;

      if (!tm_wire_read_tag (&stat, &field, &wt, error))
        return FALSE;
      if (field == TM_XSTAT_METADATA_ID && wt == TM_WIRE_VARINT)
        {
          guint64 v;

          if (!tm_wire_read_varint (&stat, &v, error))
            return FALSE;
          metadata_id = (gint64) v;
        }
      else if (field == TM_XSTAT_BYTES && wt == TM_WIRE_LEN)
        {
          if (!tm_wire_read_len (&stat, &bytes, error))
            return FALSE;
          has_bytes = TRUE;
          has_int = FALSE;
        }
      else if ((field == TM_XSTAT_INT64 || field == TM_XSTAT_UINT64) && wt == TM_WIRE_VARINT)
        {
          if (!tm_wire_read_varint (&stat, &value, error))
            return FALSE;
          has_int = TRUE;
          has_bytes = FALSE;
        }
      else if (!tm_wire_skip (&stat, wt, error))
        return FALSE;
    }

  if (metadata_id == hlo_stat_id && has_bytes)
    {
      md->has_hlo = TRUE;
      md->hlo = bytes;
    }
  else if (metadata_id == program_id_stat_id && has_int)
    {
      md->has_program_id = TRUE;
      md->program_id = (gint64) value;
    }
  return TRUE;
}

static gboolean
read_event_metadata (TmWire          entry,
                     gint64          hlo_stat_id,
                     gint64          program_id_stat_id,
                     EventMetadata  *md,
                     GError        **error)
{
  memset (md, 0, sizeof *md);

  while (!tm_wire_at_end (&entry))
    {
      guint32 field;
      guint wt;
      TmWire value;

      if (!tm_wire_read_tag (&entry, &field, &wt, error))
        return FALSE;
      if (field != MAP_VALUE || wt != TM_WIRE_LEN)
        {
          if (!tm_wire_skip (&entry, wt, error))
            return FALSE;
          continue;
        }
      if (!tm_wire_read_len (&entry, &value, error))
        return FALSE;
      while (!tm_wire_at_end (&value))
        {
          TmWire stat;

          if (!tm_wire_read_tag (&value, &field, &wt, error))
            return FALSE;
          if (field == EVENT_MD_ID && wt == TM_WIRE_VARINT)
            {
              guint64 v;

              if (!tm_wire_read_varint (&value, &v, error))
                return FALSE;
              md->id = (gint64) v;
            }
          else if (field == EVENT_MD_NAME && wt == TM_WIRE_LEN)
            {
              if (!tm_str_read (&value, &md->name, error))
                return FALSE;
            }
          else if (field == EVENT_MD_STATS && wt == TM_WIRE_LEN)
            {
              if (!tm_wire_read_len (&value, &stat, error) ||
                  !read_stat (stat, hlo_stat_id, program_id_stat_id, md, error))
                return FALSE;
            }
          else if (!tm_wire_skip (&value, wt, error))
            return FALSE;
        }
    }
  return TRUE;
}

gboolean
tm_hlo_read_metadata_plane (TmSource            *source,
                            const TmXPlaneParts *parts,
                            GArray              *entries,
                            GError             **error)
{
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (TmMetadataName));
  g_autoptr(GHashTable) seen = NULL;
  gint64 hlo_stat_id = G_MININT64, program_id_stat_id = G_MININT64;
  gboolean found_hlo = FALSE;
  gint64 max_small;
  const guint8 *base = tm_source_get_data (source);

  g_return_val_if_fail (parts->event_md != NULL && parts->stat_md != NULL, FALSE);

  if (!tm_xplane_read_names (parts->stat_md, names, &max_small, error))
    return FALSE;
  /* Map entries may repeat a key; the last one wins. */
  for (guint i = 0; i < names->len; i++)
    {
      TmMetadataName *n = &g_array_index (names, TmMetadataName, i);

      if (tm_str_equal (n->name, HLO_PROTO_STAT_NAME))
        hlo_stat_id = n->id, found_hlo = TRUE;
      else if (tm_str_equal (n->name, PROGRAM_ID_STAT_NAME))
        program_id_stat_id = n->id;
    }
  if (!found_hlo)
    return TRUE;
  seen = entry_names (entries);

  for (guint i = 0; i < parts->event_md->len; i++)
    {
      EventMetadata md;
      TmStr name = { NULL, 0 };
      TmHloEntry entry = { 0 };
      gint64 program_id;

      if (!read_event_metadata (g_array_index (parts->event_md, TmWire, i),
                                hlo_stat_id, program_id_stat_id, &md, error))
        return FALSE;
      if (!md.has_hlo)
        continue;
      /* XProf names a module after its HloProto; one that does not even
       * say its name goes by the event metadata's. */
      if (!read_module_name (md.hlo, &name))
        name = md.name;

      program_id = md.has_program_id ? md.program_id : md.id;
      entry.name = g_strdup_printf ("%.*s(%" G_GUINT64_FORMAT ")", (int) MIN (name.len, (gsize) G_MAXINT),
                                    name.ptr != NULL ? (const char *) name.ptr : "", (guint64) program_id);
      if (g_hash_table_contains (seen, entry.name))
        {
          g_free (entry.name);
          continue;
        }
      g_hash_table_add (seen, g_strdup (entry.name));
      entry.source = tm_source_ref (source);
      entry.offset = (gsize) (md.hlo.p - base);
      entry.size = (gsize) (md.hlo.end - md.hlo.p);
      entry.program_id = program_id;
      g_array_append_val (entries, entry);
    }

  return TRUE;
}

void
tm_hlo_sidecar_entry (TmSource   *source,
                      TmHloEntry *entry)
{
  g_autofree char *base = g_path_get_basename (tm_source_get_path (source));

  memset (entry, 0, sizeof *entry);
  entry->source = tm_source_ref (source);
  entry->offset = 0;
  entry->size = tm_source_get_size (source);
  if (g_str_has_suffix (base, TM_HLO_SIDECAR_SUFFIX) && strlen (base) > strlen (TM_HLO_SIDECAR_SUFFIX))
    base[strlen (base) - strlen (TM_HLO_SIDECAR_SUFFIX)] = '\0';
  entry->name = g_steal_pointer (&base);
  entry->sidecar = TRUE;
}

gboolean
tm_hlo_sniff (const guint8 *data,
              gsize         size,
              guint64       file_size)
{
  TmWire wire;
  guint32 field;
  guint wt;
  guint64 len;

  /* The module must fit in the file, its name in the bytes (which may be
   * only the file's start). */
  tm_wire_init (&wire, data, size);
  if (!tm_wire_read_tag (&wire, &field, &wt, NULL) || field != HLO_PROTO_MODULE || wt != TM_WIRE_LEN ||
      !tm_wire_read_varint (&wire, &len, NULL) || len == 0 || len > file_size - tm_wire_offset (&wire))
    return FALSE;
  return tm_wire_read_tag (&wire, &field, &wt, NULL) && field == HLO_MODULE_NAME && wt == TM_WIRE_LEN &&
         tm_wire_read_varint (&wire, &len, NULL) && len <= (guint64) (wire.end - wire.p);
}

gboolean
tm_hlo_open_sidecar (const char  *path,
                     TmHloEntry  *entry,
                     GError     **error)
{
  g_autoptr(TmSource) source = tm_source_open (path, error);

  if (source == NULL)
    return FALSE;
  tm_hlo_sidecar_entry (source, entry);
  return TRUE;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

void
tm_hlo_add_sidecars (const char *dir,
                     GArray     *entries)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = NULL;
  const char *name;

  if (d == NULL)
    return;
  seen = entry_names (entries);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, TM_HLO_SIDECAR_SUFFIX) && strlen (name) > strlen (TM_HLO_SIDECAR_SUFFIX))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      TmHloEntry entry;

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || !tm_hlo_open_sidecar (path, &entry, NULL))
        continue;
      if (g_hash_table_contains (seen, entry.name))
        tm_hlo_entry_clear (&entry);
      else
        {
          g_hash_table_add (seen, g_strdup (entry.name));
          g_array_append_val (entries, entry);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Decoding                                                           */
/* ------------------------------------------------------------------ */

/* What protobuf-c may allocate for an input of n bytes: an empty
 * sub-message takes two bytes on the wire and a struct of up to a few
 * hundred bytes in memory. */
#define BUDGET_PER_BYTE 160
#define BUDGET_BASE (4u << 20)

typedef struct
{
  gsize used;
  gsize limit;
  gboolean exceeded;
} Budget;

struct _TmHloProtoPrivate
{
  TmHloProto          public;
  Budget              budget;
  ProtobufCAllocator  allocator;
};

typedef struct _TmHloProtoPrivate TmHloProtoPrivate;

static void *
budget_alloc (void   *data,
              size_t  size)
{
  Budget *budget = data;
  gsize *block;

  if (size > budget->limit - budget->used)
    {
      budget->exceeded = TRUE;
      return NULL;
    }
  block = g_try_malloc (size + sizeof (gsize) * 2);
  if (block == NULL)
    {
      budget->exceeded = TRUE;
      return NULL;
    }
  budget->used += size;
  block[0] = size;
  return block + 2;
}

static void
budget_free (void *data,
             void *pointer)
{
  Budget *budget = data;
  gsize *block;

  if (pointer == NULL)
    return;
  block = (gsize *) pointer - 2;
  budget->used -= block[0];
  g_free (block);
}

static void
wrong_type (GError                            **error,
            const ProtobufCMessageDescriptor   *desc,
            const ProtobufCFieldDescriptor     *field,
            guint                               wire_type,
            gsize                               at)
{
  g_autofree char *where = g_strdup_printf ("in %s.%s", desc->name, field->name);

  tm_wire_set_wire_type_error (error, where, field->id, wire_type, at);
}

/* The wire check: every field of every message the schema knows is read
 * with its declared wire type; sub-messages are entered without recursion,
 * at most TM_HLO_MAX_DEPTH deep. */
static gboolean
check_wire (TmWire                              wire,
            const ProtobufCMessageDescriptor   *desc,
            const char                         *module_name,
            GError                            **error)
{
  TmWire stack_wire[TM_HLO_MAX_DEPTH + 1];
  const ProtobufCMessageDescriptor *stack_desc[TM_HLO_MAX_DEPTH + 1];
  guint depth = 0;
  g_autoptr(GError) local = NULL;

  stack_wire[0] = wire;
  stack_desc[0] = desc;

  while (TRUE)
    {
      TmWire *w = &stack_wire[depth];
      const ProtobufCFieldDescriptor *field_desc;
      guint32 field;
      guint wt;
      gsize at;

      if (tm_wire_at_end (w))
        {
          if (depth == 0)
            return TRUE;
          depth--;
          continue;
        }

      at = tm_wire_offset (w);
      if (!tm_wire_read_tag (w, &field, &wt, &local))
        goto fail;
      field_desc = protobuf_c_message_descriptor_get_field (stack_desc[depth], field);
      if (field_desc == NULL)
        {
          if (!tm_wire_skip (w, wt, &local))
            goto fail;
          continue;
        }

      switch (field_desc->type)
        {
        case PROTOBUF_C_TYPE_MESSAGE:
          {
            TmWire sub;

            if (wt != TM_WIRE_LEN)
              {
                wrong_type (&local, stack_desc[depth], field_desc, wt, at);
                goto fail;
              }
            if (!tm_wire_read_len (w, &sub, &local))
              goto fail;
            if (depth == TM_HLO_MAX_DEPTH)
              {
                g_set_error (error, TM_ERROR, TM_ERROR_TOO_DEEP,
                             _("module “%s”: the HloProto is nested too deep (more than %d levels) at byte %zu"),
                             module_name, TM_HLO_MAX_DEPTH, at);
                return FALSE;
              }
            depth++;
            stack_wire[depth] = sub;
            stack_desc[depth] = field_desc->descriptor;
          }
          break;

        case PROTOBUF_C_TYPE_STRING:
        case PROTOBUF_C_TYPE_BYTES:
          if (wt != TM_WIRE_LEN)
            {
              wrong_type (&local, stack_desc[depth], field_desc, wt, at);
              goto fail;
            }
          if (!tm_wire_skip (w, wt, &local))
            goto fail;
          break;

        default:
          /* Scalars: varints, or a packed repeated field (LEN). */
          if (wt != TM_WIRE_VARINT && !(wt == TM_WIRE_LEN && field_desc->label == PROTOBUF_C_LABEL_REPEATED))
            {
              wrong_type (&local, stack_desc[depth], field_desc, wt, at);
              goto fail;
            }
          if (wt == TM_WIRE_LEN)
            {
              TmWire packed;

              if (!tm_wire_read_len (w, &packed, &local))
                goto fail;
              while (!tm_wire_at_end (&packed))
                {
                  guint64 v;

                  if (!tm_wire_read_varint (&packed, &v, &local))
                    goto fail;
                }
            }
          else if (!tm_wire_skip (w, wt, &local))
            goto fail;
          break;
        }
    }

fail:
  g_set_error (error, TM_ERROR, local->code, _("module “%s”: the HloProto is malformed: %s"),
               module_name, local->message);
  return FALSE;
}

/* base and limit: the file the bytes are in, for offsets in errors. */
static TmHloProto *
decode (const guint8  *base,
        const guint8  *limit,
        const guint8  *data,
        gsize          size,
        const char    *module_name,
        GError       **error)
{
  TmHloProtoPrivate *self;
  TmWire wire;

  wire.base = base;
  wire.p = data;
  wire.end = data + size;
  wire.limit = limit;

  if (size == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                   _("module “%s”: the HloProto is empty"), module_name);
      return NULL;
    }
  if (!check_wire (wire, &xla__hlo_proto__descriptor, module_name, error))
    return NULL;

  self = g_new0 (TmHloProtoPrivate, 1);
  self->budget.limit = size > (G_MAXSIZE - BUDGET_BASE) / BUDGET_PER_BYTE
                       ? G_MAXSIZE : BUDGET_BASE + size * BUDGET_PER_BYTE;
  self->allocator.alloc = budget_alloc;
  self->allocator.free = budget_free;
  self->allocator.allocator_data = &self->budget;
  self->public.proto = xla__hlo_proto__unpack (&self->allocator, size, data);

  if (self->public.proto == NULL)
    {
      if (self->budget.exceeded)
        g_set_error (error, TM_ERROR, TM_ERROR_TOO_LARGE,
                     _("module “%s”: the HloProto would take more than %zu MiB to decode"),
                     module_name, self->budget.limit >> 20);
      else
        g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                     _("module “%s”: the HloProto does not decode"), module_name);
      g_free (self);
      return NULL;
    }
  if (self->public.proto->hlo_module == NULL || self->public.proto->buffer_assignment == NULL)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                   self->public.proto->hlo_module == NULL
                   ? _("module “%s”: the HloProto has no HLO module")
                   : _("module “%s”: the HloProto has no buffer assignment"),
                   module_name);
      tm_hlo_proto_free (&self->public);
      return NULL;
    }
  return &self->public;
}

TmHloProto *
tm_hlo_proto_decode (const guint8  *data,
                     gsize          size,
                     const char    *module_name,
                     GError       **error)
{
  g_return_val_if_fail (data != NULL || size == 0, NULL);
  g_return_val_if_fail (module_name != NULL, NULL);

  return decode (data, data + size, data, size, module_name, error);
}

typedef struct
{
  const TmHloEntry *entry;
  TmHloProto       *result;
} DecodeJob;

static gboolean
decode_job (gpointer   data,
            GError   **error)
{
  DecodeJob *job = data;
  const guint8 *base = tm_source_get_data (job->entry->source);

  job->result = decode (base, base + tm_source_get_size (job->entry->source), base + job->entry->offset, job->entry->size, job->entry->name, error);
  return job->result != NULL;
}

TmHloProto *
tm_hlo_entry_decode (const TmHloEntry  *entry,
                     GError           **error)
{
  DecodeJob job = { entry, NULL };

  g_return_val_if_fail (entry != NULL && entry->source != NULL, NULL);
  g_return_val_if_fail (entry->offset <= tm_source_get_size (entry->source) &&
                        entry->size <= tm_source_get_size (entry->source) - entry->offset, NULL);

  if (!tm_source_run_guarded (entry->source, decode_job, &job, error))
    {
      g_clear_pointer (&job.result, tm_hlo_proto_free);
      return NULL;
    }
  return job.result;
}

void
tm_hlo_proto_free (TmHloProto *self)
{
  TmHloProtoPrivate *priv = (TmHloProtoPrivate *) self;

  if (self == NULL)
    return;
  if (self->proto != NULL)
    protobuf_c_message_free_unpacked (&self->proto->base, &priv->allocator);
  g_free (priv);
}
