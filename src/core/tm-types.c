/* tm-types.c — value types shared by the core and its views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-types.h"

void
tm_activity_clear (TmActivity *activity)
{
  g_return_if_fail (activity != NULL);

  g_clear_pointer (&activity->op_name, g_free);
  g_clear_pointer (&activity->region_type, g_free);
  g_clear_pointer (&activity->data_type, g_free);
  g_clear_pointer (&activity->shape, g_free);
}

void
tm_breakdown_row_free (TmBreakdownRow *row)
{
  if (row == NULL)
    return;

  g_free (row->op_name);
  g_free (row->region_type);
  g_free (row->data_type);
  g_free (row->shape);
  g_free (row);
}

/* TensorFlow's DataType enum, by value (docs/formats.md, section 1). */
static const char * const data_type_names[] = {
  "INVALID", "float", "double", "int32", "uint8", "int16", "int8", "string",
  "complex64", "int64", "bool", "qint8", "quint8", "qint32", "bfloat16",
  "qint16", "quint16", "uint16", "complex128", "half", "resource", "variant",
  "uint32", "uint64", "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz",
  "float8_e4m3b11fnuz", "float8_e5m2fnuz", "int4", "uint4",
};

char *
tm_data_type_name (gint64 value)
{
  const gint64 n = G_N_ELEMENTS (data_type_names);

  if (value >= 0 && value < n)
    return g_strdup (data_type_names[value]);

  /* 100 + n is the reference variant of n ("float_ref", "INVALID_ref"). */
  if (value >= 100 && value < 100 + n)
    return g_strconcat (data_type_names[value - 100], "_ref", NULL);

  return g_strdup_printf ("unknown dtype enum (%" G_GINT64_FORMAT ")", value);
}

void
tm_hlo_module_clear (TmHloModule *module)
{
  g_clear_pointer (&module->name, g_free);
  g_clear_pointer (&module->device, g_free);
}
