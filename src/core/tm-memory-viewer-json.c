/* tm-memory-viewer-json.c — the Memory Viewer's result as XProf's JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * protobuf's JSON printer leaves out every field at its default (0, "",
 * empty lists and maps) except a oneof that is set ("numbered"); it quotes
 * 64-bit integers and map keys. Every MiB figure is a double made the way
 * XProf makes it: bytes / 2^20, and the indefinite part added as a second
 * such double, not summed in bytes first.
 */
#include "config.h"

#include <math.h>

#include "tm-export.h"
#include "tm-memory-viewer-json.h"

static double
mib (gint64 bytes)
{
  return (double) bytes / (double) (1 << 20);
}

/* A double as the shortest decimal that reads back as the same double
 * (what protobuf's printer writes, up to the notation): whole numbers
 * below 2^53 as integers; otherwise the first of 15, 16, 17 significant
 * digits that reads back, which is the shortest, since a shorter one that
 * read back would also be what 15 digits give. A million figures take a
 * fraction of a second this way, where trying every precision takes tens
 * of seconds. */
static void
append_double (GString *str,
               double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      tm_export_append_double (str, value);
      return;
    }
  if (value == floor (value) && fabs (value) < 9007199254740992.0)
    {
      g_string_append_printf (str, "%" G_GINT64_FORMAT, (gint64) value);
      return;
    }
  for (int precision = 15; precision <= 17; precision++)
    {
      g_ascii_formatd (buf, sizeof buf, precision == 15 ? "%.15g" : precision == 16 ? "%.16g" : "%.17g", value);
      if (precision == 17 || g_ascii_strtod (buf, NULL) == value)
        break;
    }
  g_string_append (str, buf);
}

typedef struct
{
  GString *str;
  guint    n_replaced;
} Out;

static void
key (Out        *o,
     const char *name)
{
  g_string_append_printf (o->str, ",\"%s\":", name);
}

/* A key whose value opens an object or array with nothing before it. */
static void
first_key (Out        *o,
           const char *name)
{
  g_string_append_printf (o->str, "\"%s\":", name);
}

static void
string_field (Out        *o,
              gboolean    first,
              const char *name,
              const char *value)
{
  if (value == NULL || value[0] == '\0')
    return;
  if (first)
    first_key (o, name);
  else
    key (o, name);
  o->n_replaced += tm_export_append_string (o->str, value);
}

static void
double_field (Out        *o,
              const char *name,
              double      value)
{
  if (value == 0.0)
    return;
  key (o, name);
  append_double (o->str, value);
}

static void
int_field (Out        *o,
           const char *name,
           gint64      value)
{
  if (value == 0)
    return;
  key (o, name);
  g_string_append_printf (o->str, "%" G_GINT64_FORMAT, value);
}

static void
source_info (Out                   *o,
             const TmHloSourceInfo *s)
{
  GString *str = o->str;
  gsize start;

  if (s->file == NULL || s->file[0] == '\0')
    return;
  key (o, "sourceInfo");
  g_string_append_c (str, '{');
  start = str->len;
  string_field (o, TRUE, "fileName", s->file);
  if (s->line != 0)
    {
      if (str->len > start)
        g_string_append_c (str, ',');
      g_string_append_printf (str, "\"lineNumber\":%d", s->line);
    }
  if (s->stack_frame != NULL && s->stack_frame[0] != '\0')
    {
      if (str->len > start)
        g_string_append_c (str, ',');
      first_key (o, "stackFrame");
      o->n_replaced += tm_export_append_string (str, s->stack_frame);
    }
  g_string_append_c (str, '}');
}

static void
heap_object (Out                *o,
             const TmHeapObject *h)
{
  g_string_append_printf (o->str, "{\"numbered\":%d", h->numbered);
  string_field (o, FALSE, "label", h->label);
  int_field (o, "logicalBufferId", (gint32) h->logical_buffer_id);
  double_field (o, "logicalBufferSizeMib", mib (h->size));
  double_field (o, "unpaddedShapeMib", mib (h->unpadded_size));
  string_field (o, FALSE, "instructionName", h->instruction_name);
  string_field (o, FALSE, "shapeString", h->shape);
  string_field (o, FALSE, "tfOpName", h->tf_op_name);
  string_field (o, FALSE, "groupName", h->group);
  string_field (o, FALSE, "opCode", h->op_code);
  source_info (o, &h->source);
  g_string_append_c (o->str, '}');
}

static void
heap_objects (Out                      *o,
              const char               *name,
              const TmBufferAssignment *r,
              GArray                   *order)
{
  if (r->max_heap->len == 0)
    return;
  key (o, name);
  g_string_append_c (o->str, '[');
  for (guint i = 0; i < r->max_heap->len; i++)
    {
      guint k = order != NULL ? g_array_index (order, guint, i) : i;

      if (i > 0)
        g_string_append_c (o->str, ',');
      heap_object (o, &g_array_index (r->max_heap, TmHeapObject, k));
    }
  g_string_append_c (o->str, ']');
}

static void
index_list (Out        *o,
            const char *name,
            GArray     *values)
{
  if (values->len == 0)
    return;
  key (o, name);
  g_string_append_c (o->str, '[');
  for (guint i = 0; i < values->len; i++)
    g_string_append_printf (o->str, "%s%u", i > 0 ? "," : "", g_array_index (values, guint, i));
  g_string_append_c (o->str, ']');
}

static void
heap_sizes (Out                      *o,
            const char               *name,
            const TmBufferAssignment *r,
            GArray                   *sizes)
{
  double add = mib (r->indefinite_bytes);

  if (sizes->len == 0)
    return;
  key (o, name);
  g_string_append_c (o->str, '[');
  for (guint i = 0; i < sizes->len; i++)
    {
      if (i > 0)
        g_string_append_c (o->str, ',');
      append_double (o->str, mib (g_array_index (sizes, gint64, i)) + add);
    }
  g_string_append_c (o->str, ']');
}

static void
indefinite (Out                          *o,
            const TmIndefiniteAllocation *a)
{
  GString *str = o->str;
  gsize start;

  g_string_append_c (str, '{');
  start = str->len;
  if (a->id != 0)
    g_string_append_printf (str, "\"id\":\"%" G_GINT64_FORMAT "\"", a->id);
#define SEP() G_STMT_START { if (str->len > start) g_string_append_c (str, ','); } G_STMT_END
  if (a->size != 0)
    {
      SEP ();
      g_string_append (str, "\"sizeMib\":");
      append_double (str, mib (a->size));
    }
  if (a->entry_parameter || a->maybe_live_out || a->reusable)
    {
      gboolean any = FALSE;

      SEP ();
      g_string_append (str, "\"attributes\":[");
      if (a->entry_parameter)
        g_string_append (str, "\"entry computation parameter\""), any = TRUE;
      if (a->maybe_live_out)
        g_string_append_printf (str, "%s\"may-be live out\"", any ? "," : ""), any = TRUE;
      if (a->reusable)
        g_string_append_printf (str, "%s\"reusable\"", any ? "," : "");
      g_string_append_c (str, ']');
    }
  if (a->buffers->len > 0)
    {
      SEP ();
      g_string_append (str, "\"logicalBuffers\":[");
      for (guint i = 0; i < a->buffers->len; i++)
        {
          const TmIndefiniteBuffer *b = &g_array_index (a->buffers, TmIndefiniteBuffer, i);
          gsize bstart;

          if (i > 0)
            g_string_append_c (str, ',');
          g_string_append_c (str, '{');
          bstart = str->len;
          if (b->id != 0)
            g_string_append_printf (str, "\"id\":\"%" G_GINT64_FORMAT "\"", b->id);
          if (b->shape != NULL && b->shape[0] != '\0')
            {
              if (str->len > bstart)
                g_string_append_c (str, ',');
              first_key (o, "shape");
              o->n_replaced += tm_export_append_string (str, b->shape);
            }
          if (b->size != 0)
            {
              if (str->len > bstart)
                g_string_append_c (str, ',');
              g_string_append (str, "\"sizeMib\":");
              append_double (str, mib (b->size));
            }
          if (b->hlo_name != NULL && b->hlo_name[0] != '\0')
            {
              if (str->len > bstart)
                g_string_append_c (str, ',');
              first_key (o, "hloName");
              o->n_replaced += tm_export_append_string (str, b->hlo_name);
            }
          if (b->shape_index->len > 0)
            {
              if (str->len > bstart)
                g_string_append_c (str, ',');
              g_string_append (str, "\"shapeIndex\":[");
              for (guint k = 0; k < b->shape_index->len; k++)
                g_string_append_printf (str, "%s\"%" G_GINT64_FORMAT "\"", k > 0 ? "," : "",
                                        g_array_index (b->shape_index, gint64, k));
              g_string_append_c (str, ']');
            }
          g_string_append_c (str, '}');
        }
      g_string_append_c (str, ']');
    }
  if (a->common_shape != NULL)
    {
      SEP ();
      first_key (o, "commonShape");
      o->n_replaced += tm_export_append_string (str, a->common_shape);
    }
#undef SEP
  g_string_append_c (str, '}');
}

static void
block (Out                 *o,
       const TmBufferBlock *b)
{
  GString *str = o->str;

  gsize start;

  g_string_append_c (str, '{');
  start = str->len;
  int_field (o, "logicalBufferId", b->logical_buffer_id);
  string_field (o, FALSE, "name", b->name);
  double_field (o, "offset", (double) b->offset);
  double_field (o, "size", (double) b->size);
  int_field (o, "startStep", b->start_step);
  int_field (o, "endStep", b->end_step);
  string_field (o, FALSE, "tfOpName", b->tf_op_name);
  string_field (o, FALSE, "category", b->category);
  source_info (o, &b->source);
  string_field (o, FALSE, "shapeString", b->shape);
  double_field (o, "unpaddedSize", (double) b->unpadded_size);
  string_field (o, FALSE, "color", b->color);
  /* Every field came with a comma before it. */
  if (str->len > start)
    g_string_erase (str, (gssize) start, 1);
  g_string_append_c (str, '}');
}

guint
tm_memory_viewer_json_append_result (GString                  *str,
                                     const TmBufferAssignment *r)
{
  Out o = { str, 0 };
  double add = mib (r->indefinite_bytes);
  g_autoptr(GArray) to_by_size = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (str != NULL && r != NULL, 0);

  heap_sizes (&o, "heapSizes", r, r->heap_sizes);
  heap_sizes (&o, "unpaddedHeapSizes", r, r->unpadded_heap_sizes);
  heap_objects (&o, "maxHeap", r, NULL);
  heap_objects (&o, "maxHeapBySize", r, r->by_size);
  if (r->spans->len > 0)
    {
      key (&o, "logicalBufferSpans");
      g_string_append_c (str, '{');
      for (guint i = 0; i < r->spans->len; i++)
        {
          const TmBufferSpan *s = &g_array_index (r->spans, TmBufferSpan, i);
          gsize start;

          g_string_append_printf (str, "%s\"%d\":{", i > 0 ? "," : "", s->id);
          start = str->len;
          if (s->start != 0)
            g_string_append_printf (str, "\"start\":%d", s->start);
          if (s->limit != 0)
            g_string_append_printf (str, "%s\"limit\":%d", str->len > start ? "," : "", s->limit);
          g_string_append_c (str, '}');
        }
      g_string_append_c (str, '}');
    }
  g_array_set_size (to_by_size, r->by_size->len);
  for (guint i = 0; i < r->by_size->len; i++)
    g_array_index (to_by_size, guint, g_array_index (r->by_size, guint, i)) = i;
  index_list (&o, "maxHeapToBySize", to_by_size);
  index_list (&o, "bySizeToMaxHeap", r->by_size);
  string_field (&o, FALSE, "moduleName", r->module_name);
  string_field (&o, FALSE, "entryComputationName", r->entry_computation_name);
  double_field (&o, "peakHeapMib", mib (r->peak_heap) + add);
  double_field (&o, "peakUnpaddedHeapMib", mib (r->peak_unpadded_heap) + add);
  int_field (&o, "peakHeapSizePosition", (gint32) r->peak_position);
  double_field (&o, "entryComputationParametersMib", mib (r->entry_parameters));
  double_field (&o, "nonReusableMib", mib (r->non_reusable));
  double_field (&o, "maybeLiveOutMib", mib (r->maybe_live_out));
  if (r->indefinite->len > 0)
    {
      key (&o, "indefiniteLifetimes");
      g_string_append_c (str, '[');
      for (guint i = 0; i < r->indefinite->len; i++)
        {
          if (i > 0)
            g_string_append_c (str, ',');
          indefinite (&o, &g_array_index (r->indefinite, TmIndefiniteAllocation, i));
        }
      g_string_append_c (str, ']');
    }
  double_field (&o, "totalBufferAllocationMib", mib (r->total_allocation));
  double_field (&o, "indefiniteBufferAllocationMib", mib (r->indefinite_allocation));
  if (r->instruction_names->len > 0)
    {
      key (&o, "hloInstructionNames");
      g_string_append_c (str, '[');
      for (guint i = 0; i < r->instruction_names->len; i++)
        {
          if (i > 0)
            g_string_append_c (str, ',');
          o.n_replaced += tm_export_append_string (str, g_ptr_array_index (r->instruction_names, i));
        }
      g_string_append_c (str, ']');
    }
  double_field (&o, "maxScopedVmemAllocationMib", mib (r->max_scoped_vmem));
  string_field (&o, FALSE, "maxScopedVmemInstructionName", r->max_scoped_vmem_instruction);
  if (r->blocks->len > 0)
    {
      key (&o, "bufferBlocks");
      g_string_append_c (str, '[');
      for (guint i = 0; i < r->blocks->len; i++)
        {
          if (i > 0)
            g_string_append_c (str, ',');
          block (&o, &g_array_index (r->blocks, TmBufferBlock, i));
        }
      g_string_append_c (str, ']');
    }
  index_list (&o, "byPaddingSizeToMaxHeap", r->by_padding);
  return o.n_replaced;
}

char *
tm_memory_viewer_json (const char                 *file,
                       const TmMemoryViewerModule *modules,
                       guint                       n_modules,
                       guint                      *n_replaced)
{
  GString *str = g_string_new ("{\"file\":");
  guint replaced = 0;

  replaced += tm_export_append_string (str, file);
  g_string_append (str, ",\"modules\":[");
  for (guint i = 0; i < n_modules; i++)
    {
      const TmMemoryViewerModule *m = &modules[i];

      g_string_append (str, i > 0 ? ",{\"module\":" : "{\"module\":");
      replaced += tm_export_append_string (str, m->module);
      g_string_append_printf (str, ",\"memorySpace\":%" G_GINT64_FORMAT, m->memory_space);
      if (m->result != NULL)
        replaced += tm_memory_viewer_json_append_result (str, m->result);
      else
        {
          g_string_append (str, ",\"error\":");
          replaced += tm_export_append_string (str, m->error != NULL ? m->error : "");
        }
      g_string_append_c (str, '}');
    }
  g_string_append (str, "]}\n");
  if (n_replaced != NULL)
    *n_replaced = replaced;
  return g_string_free (str, FALSE);
}
