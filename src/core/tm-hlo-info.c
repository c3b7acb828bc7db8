/* tm-hlo-info.c — what XProf reads from an HLO module's instructions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shape strings as XLA prints them, sizes without padding, source lines
 * from the module's stack frame index and scoped memory from backend
 * configurations (docs/buffer-assignment.md, section 2).
 */
#include "config.h"

#include <string.h>
#include <json-glib/json-glib.h>

#include "tm-hlo-info.h"

const Xla__ShapeProto *
tm_hlo_shape_resolve (const Xla__ShapeProto *shape,
                      const gint64          *shape_index,
                      gsize                  n_shape_index)
{
  /* Only the last element of the index chooses, as XProf does. */
  if (shape != NULL && n_shape_index > 0)
    {
      gint64 i = shape_index[n_shape_index - 1];

      if (i >= 0 && (guint64) i < shape->n_tuple_shapes)
        return shape->tuple_shapes[i];
    }
  return shape;
}

static const char *
type_name (gint32 type)
{
  const ProtobufCEnumValue *v;

  if (type == XLA__PRIMITIVE_TYPE__OPAQUE_TYPE)
    return "opaque";
  v = protobuf_c_enum_descriptor_get_value (&xla__primitive_type__descriptor, type);
  if (v == NULL || type == XLA__PRIMITIVE_TYPE__PRIMITIVE_TYPE_INVALID)
    return "invalid";
  return v->name;  /* lower case: protobuf-c keeps the .proto's names in "name" */
}

static gboolean
is_integral (gint32 type)
{
  switch (type)
    {
    case XLA__PRIMITIVE_TYPE__S1: case XLA__PRIMITIVE_TYPE__S2: case XLA__PRIMITIVE_TYPE__S4:
    case XLA__PRIMITIVE_TYPE__S8: case XLA__PRIMITIVE_TYPE__S16: case XLA__PRIMITIVE_TYPE__S32:
    case XLA__PRIMITIVE_TYPE__S64: case XLA__PRIMITIVE_TYPE__U1: case XLA__PRIMITIVE_TYPE__U2:
    case XLA__PRIMITIVE_TYPE__U4: case XLA__PRIMITIVE_TYPE__U8: case XLA__PRIMITIVE_TYPE__U16:
    case XLA__PRIMITIVE_TYPE__U32: case XLA__PRIMITIVE_TYPE__U64:
      return TRUE;
    default:
      return FALSE;
    }
}

static void
append_type_name (GString *str,
                  gint32   type)
{
  g_autofree char *lower = g_ascii_strdown (type_name (type), -1);

  g_string_append (str, lower);
}

static void
append_layout (GString                *str,
               const Xla__LayoutProto *layout)
{
  gboolean colon = FALSE;

#define COLON() G_STMT_START { if (!colon) { g_string_append_c (str, ':'); colon = TRUE; } } G_STMT_END

  g_string_append_c (str, '{');
  for (gsize i = 0; i < layout->n_minor_to_major; i++)
    g_string_append_printf (str, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "", layout->minor_to_major[i]);
  if (layout->n_tiles > 0)
    {
      COLON ();
      g_string_append_c (str, 'T');
      for (gsize t = 0; t < layout->n_tiles; t++)
        {
          const Xla__TileProto *tile = layout->tiles[t];

          g_string_append_c (str, '(');
          for (gsize d = 0; tile != NULL && d < tile->n_dimensions; d++)
            {
              if (d > 0)
                g_string_append_c (str, ',');
              /* XLA's "combine dimension" is the smallest int64. */
              if (tile->dimensions[d] == G_MININT64)
                g_string_append_c (str, '*');
              else
                g_string_append_printf (str, "%" G_GINT64_FORMAT, tile->dimensions[d]);
            }
          g_string_append_c (str, ')');
        }
    }
  /* 0 in the proto means 1, which is not printed. */
  if (layout->tail_padding_alignment_in_elements != 0 && layout->tail_padding_alignment_in_elements != 1)
    {
      COLON ();
      g_string_append_printf (str, "L(%" G_GINT64_FORMAT ")", layout->tail_padding_alignment_in_elements);
    }
  if (layout->index_primitive_type != 0)
    {
      COLON ();
      g_string_append (str, "#(");
      if (is_integral (layout->index_primitive_type))
        append_type_name (str, layout->index_primitive_type);
      else
        g_string_append (str, "invalid");
      g_string_append_c (str, ')');
    }
  if (layout->pointer_primitive_type != 0)
    {
      COLON ();
      g_string_append (str, "*(");
      if (is_integral (layout->pointer_primitive_type))
        append_type_name (str, layout->pointer_primitive_type);
      else
        g_string_append (str, "invalid");
      g_string_append_c (str, ')');
    }
  if (layout->element_size_in_bits != 0)
    {
      COLON ();
      g_string_append_printf (str, "E(%" G_GINT64_FORMAT ")", layout->element_size_in_bits);
    }
  if (layout->memory_space != 0)
    {
      COLON ();
      g_string_append_printf (str, "S(%" G_GINT64_FORMAT ")", layout->memory_space);
    }
  if (layout->dynamic_shape_metadata_prefix_bytes > 0)
    {
      COLON ();
      g_string_append_printf (str, "M(%" G_GINT64_FORMAT ")", layout->dynamic_shape_metadata_prefix_bytes);
    }
  g_string_append_c (str, '}');

#undef COLON
}

/* Shapes nest only through tuples, which the wire check bounds. */
static void
append_shape (GString               *str,
              const Xla__ShapeProto *shape)
{
  gint32 type = shape != NULL ? shape->element_type : 0;

  if (type == XLA__PRIMITIVE_TYPE__TUPLE)
    {
      g_string_append_c (str, '(');
      for (gsize i = 0; i < shape->n_tuple_shapes; i++)
        {
          if (i > 0)
            g_string_append (str, ", ");
          /* XLA marks every fifth element with its index. */
          if (i > 0 && i % 5 == 0)
            g_string_append_printf (str, "/*index=%" G_GSIZE_FORMAT "*/", i);
          append_shape (str, shape->tuple_shapes[i]);
        }
      g_string_append_c (str, ')');
      return;
    }

  append_type_name (str, type);
  if (type == 0 || type == XLA__PRIMITIVE_TYPE__TOKEN || type == XLA__PRIMITIVE_TYPE__OPAQUE_TYPE ||
      type == XLA__PRIMITIVE_TYPE__BUFFER)
    return;

  g_string_append_c (str, '[');
  for (gsize i = 0; i < shape->n_dimensions; i++)
    {
      if (i > 0)
        g_string_append_c (str, ',');
      if (i < shape->n_is_dynamic_dimension && shape->is_dynamic_dimension[i])
        g_string_append (str, "<=");
      g_string_append_printf (str, "%" G_GINT64_FORMAT, shape->dimensions[i]);
    }
  g_string_append_c (str, ']');

  if (shape->layout != NULL)
    {
      gsize before = str->len;

      append_layout (str, shape->layout);
      /* A scalar's empty layout is not printed. */
      if (shape->n_dimensions == 0 && str->len - before == 2)
        g_string_truncate (str, before);
    }
}

char *
tm_hlo_shape_string (const Xla__ShapeProto *shape)
{
  GString *str = g_string_new (NULL);

  append_shape (str, shape);
  return g_string_free (str, FALSE);
}

static gint64
element_bytes (gint32 type)
{
  switch (type)
    {
    case XLA__PRIMITIVE_TYPE__S16: case XLA__PRIMITIVE_TYPE__U16:
    case XLA__PRIMITIVE_TYPE__F16: case XLA__PRIMITIVE_TYPE__BF16:
      return 2;
    case XLA__PRIMITIVE_TYPE__S32: case XLA__PRIMITIVE_TYPE__U32: case XLA__PRIMITIVE_TYPE__F32:
      return 4;
    case XLA__PRIMITIVE_TYPE__S64: case XLA__PRIMITIVE_TYPE__U64: case XLA__PRIMITIVE_TYPE__F64:
    case XLA__PRIMITIVE_TYPE__C64:
      return 8;
    case XLA__PRIMITIVE_TYPE__C128:
      return 16;
    default:
      /* pred, 8-bit types, and sub-byte types, which take a byte each
       * unless the layout packs them. */
      return 1;
    }
}

gint64
tm_hlo_shape_unpadded_size (const Xla__ShapeProto *shape)
{
  guint64 n = 1;
  gint32 type;

  if (shape == NULL)
    return 0;
  type = shape->element_type;
  if (type == XLA__PRIMITIVE_TYPE__TUPLE)
    return (gint64) MIN (shape->n_tuple_shapes, (gsize) (G_MAXINT64 / 8)) * 8;  /* a pointer per element */
  if (type == XLA__PRIMITIVE_TYPE__OPAQUE_TYPE)
    return 8;
  if (type == 0 || type == XLA__PRIMITIVE_TYPE__TOKEN || type == XLA__PRIMITIVE_TYPE__BUFFER)
    return 0;

  for (gsize i = 0; i < shape->n_dimensions; i++)
    {
      guint64 d = shape->dimensions[i] < 0 ? 0 : (guint64) shape->dimensions[i];

      if (d != 0 && n > (guint64) G_MAXINT64 / d)
        return G_MAXINT64;
      n *= d;
    }

  if (shape->layout != NULL && shape->layout->element_size_in_bits > 0)
    {
      guint64 bits = (guint64) shape->layout->element_size_in_bits;

      if (n != 0 && bits > (guint64) G_MAXINT64 / n)
        return G_MAXINT64;
      return (gint64) ((n * bits + 7) / 8);
    }
  if (n > (guint64) G_MAXINT64 / 16)
    return G_MAXINT64;
  return (gint64) n * element_bytes (type);
}

/* Sources */

/* The stack frames from frame_id (1-based) outwards, as
 * "file:line:column" lines; a cycle of parents stops after one round. */
static char *
stack_frames (const Xla__StackFrameIndexProto *index,
              gint32                           frame_id)
{
  GString *str;
  gsize steps = 0;

  if (index == NULL || frame_id <= 0 || (gsize) frame_id > index->n_stack_frames)
    return NULL;
  str = g_string_new (NULL);

  while (index != NULL && frame_id > 0 && (gsize) frame_id <= index->n_stack_frames &&
         steps++ < index->n_stack_frames)
    {
      const Xla__StackFrameIndexProto__StackFrame *frame = index->stack_frames[frame_id - 1];
      const char *file = "";
      gint32 line = -1, column = -1;
      gint32 loc = frame->file_location_id;

      frame_id = frame->parent_frame_id;
      if (loc > 0 && (gsize) loc <= index->n_file_locations)
        {
          const Xla__StackFrameIndexProto__FileLocation *fl = index->file_locations[loc - 1];

          line = fl->line;
          column = fl->column;
          if (fl->file_name_id > 0 && (gsize) fl->file_name_id <= index->n_file_names)
            file = index->file_names[fl->file_name_id - 1];
        }
      if (str->len > 0)
        g_string_append_c (str, '\n');
      g_string_append_printf (str, "%s:%d:%d", file, line, column);
    }
  return g_string_free (str, FALSE);
}

/* The source of an instruction: its metadata's file and line with the
 * stack, else the first frame of the stack. */
void
tm_hlo_source_info (const Xla__HloModuleProto      *module,
                    const Xla__HloInstructionProto *inst,
                    TmHloSourceInfo                *out)
{
  const Xla__OpMetadata *md = inst->metadata;
  g_autofree char *stack = stack_frames (module->stack_frame_index,
                                         md != NULL ? md->stack_frame_id : 0);

  out->file = NULL;
  out->line = -1;
  out->stack_frame = NULL;

  if (md != NULL && md->source_file != NULL && md->source_file[0] != '\0')
    {
      out->file = g_strdup (md->source_file);
      out->line = md->source_line;
      out->stack_frame = g_steal_pointer (&stack);
      return;
    }
  if (stack != NULL && stack[0] != '\0')
    {
      const char *nl = strchr (stack, '\n');
      g_autofree char *first = g_strndup (stack, nl != NULL ? (gsize) (nl - stack) : strlen (stack));
      g_auto(GStrv) parts = g_strsplit (first, ":", -1);

      if (g_strv_length (parts) >= 2)
        {
          gint64 line;
          char *end;

          out->file = g_strdup (parts[0]);
          line = g_ascii_strtoll (g_strstrip (parts[1]), &end, 10);
          if (parts[1][0] != '\0' && *end == '\0' && line >= G_MININT32 && line <= G_MAXINT32)
            out->line = (gint32) line;
          out->stack_frame = g_steal_pointer (&stack);
        }
    }
}

void
tm_hlo_source_info_clear (TmHloSourceInfo *info)
{
  g_clear_pointer (&info->file, g_free);
  g_clear_pointer (&info->stack_frame, g_free);
}

/* A JSON integer as XProf reads one: a number, or a string of digits. */
static gint64
json_int (JsonObject *obj,
          const char *key)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return 0;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      return json_node_get_int (node);
    case G_TYPE_DOUBLE:
      {
        double d = json_node_get_double (node);

        return d >= -9.2e18 && d <= 9.2e18 ? (gint64) d : 0;
      }
    case G_TYPE_STRING:
      {
        g_autofree char *text = g_strstrip (g_strdup (json_node_get_string (node)));
        gint64 v;

        return g_ascii_string_to_signed (text[0] == '+' ? text + 1 : text, 10, G_MININT64, G_MAXINT64, &v, NULL) ? v : 0;
      }
    default:
      return 0;
    }
}

/* json-glib recurses on nesting: deeper documents are not read. */
static gboolean
json_shallow (const guint8 *data,
              gsize         len)
{
  gint depth = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      guint8 c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if ((c == '[' || c == '{') && ++depth > 32)
        return FALSE;
      else if (c == ']' || c == '}')
        depth--;
    }
  return TRUE;
}

gint64
tm_hlo_max_scoped_memory (const Xla__HloModuleProto  *module,
                          gint64                      memory_space,
                          char                      **instruction)
{
  gint64 max = 0;

  *instruction = NULL;
  /* Scoped allocations exist only in VMEM, colour 1. */
  if (memory_space != 1)
    return 0;

  for (gsize c = 0; c < module->n_computations; c++)
    for (gsize i = 0; i < module->computations[c]->n_instructions; i++)
      {
        const Xla__HloInstructionProto *inst = module->computations[c]->instructions[i];
        g_autoptr(JsonParser) parser = NULL;
        JsonNode *root;
        JsonNode *configs;
        JsonArray *array;

        if (inst->backend_config.len == 0 || !json_shallow (inst->backend_config.data, inst->backend_config.len))
          continue;
        parser = json_parser_new ();
        if (!json_parser_load_from_data (parser, (const char *) inst->backend_config.data,
                                         (gssize) inst->backend_config.len, NULL))
          continue;
        root = json_parser_get_root (parser);
        if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
          continue;
        configs = json_object_get_member (json_node_get_object (root), "used_scoped_memory_configs");
        if (configs == NULL || !JSON_NODE_HOLDS_ARRAY (configs))
          continue;
        array = json_node_get_array (configs);
        for (guint k = 0; k < json_array_get_length (array); k++)
          {
            JsonNode *entry = json_array_get_element (array, k);
            gint64 size;

            if (!JSON_NODE_HOLDS_OBJECT (entry) ||
                json_int (json_node_get_object (entry), "memory_space") != memory_space)
              continue;
            size = json_int (json_node_get_object (entry), "size");
            if (size > max)
              {
                max = size;
                g_free (*instruction);
                *instruction = g_strdup (inst->name != NULL ? inst->name : "");
              }
          }
      }
  return max;
}
