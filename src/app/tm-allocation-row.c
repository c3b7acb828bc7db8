/* tm-allocation-row.c — one row of the breakdown table, as a GObject
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rows are immutable: they copy a TmBreakdownRow once and expose its fields
 * as read-only properties, so that GtkExpression-based sorters and filters
 * can look them up.
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "tm-allocation-row.h"
#include "tm-op-label.h"
#include "tm-format.h"

struct _TmAllocationRow
{
  GObject  parent_instance;

  char    *op_name;
  char    *display_name;
  char    *region_type;
  char    *data_type;
  char    *shape;
  gint64   allocation_bytes;
  gint64   requested_bytes;
  guint64  occurrences;
  gint64   step_id;
  guint64  address;
  gint64   time_ps;
  guint    index;
  guint    snapshot_index;
  guint    special : 1;
};

G_DEFINE_FINAL_TYPE (TmAllocationRow, tm_allocation_row, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_OP_NAME,
  PROP_DISPLAY_NAME,
  PROP_ALLOCATION_BYTES,
  PROP_REQUESTED_BYTES,
  PROP_OCCURRENCES,
  PROP_REGION_TYPE,
  PROP_DATA_TYPE,
  PROP_SHAPE,
  PROP_STEP_ID,
  PROP_ADDRESS,
  PROP_TIME_PS,
  PROP_SPECIAL,
  PROP_INDEX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
tm_allocation_row_finalize (GObject *object)
{
  TmAllocationRow *self = (TmAllocationRow *)object;

  g_clear_pointer (&self->op_name, g_free);
  g_clear_pointer (&self->display_name, g_free);
  g_clear_pointer (&self->region_type, g_free);
  g_clear_pointer (&self->data_type, g_free);
  g_clear_pointer (&self->shape, g_free);

  G_OBJECT_CLASS (tm_allocation_row_parent_class)->finalize (object);
}

static void
tm_allocation_row_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TmAllocationRow *self = TM_ALLOCATION_ROW (object);

  switch (prop_id)
    {
    case PROP_OP_NAME:
      g_value_set_string (value, self->op_name);
      break;

    case PROP_DISPLAY_NAME:
      g_value_set_string (value, self->display_name);
      break;

    case PROP_ALLOCATION_BYTES:
      g_value_set_int64 (value, self->allocation_bytes);
      break;

    case PROP_REQUESTED_BYTES:
      g_value_set_int64 (value, self->requested_bytes);
      break;

    case PROP_OCCURRENCES:
      g_value_set_uint64 (value, self->occurrences);
      break;

    case PROP_REGION_TYPE:
      g_value_set_string (value, self->region_type);
      break;

    case PROP_DATA_TYPE:
      g_value_set_string (value, self->data_type);
      break;

    case PROP_SHAPE:
      g_value_set_string (value, self->shape);
      break;

    case PROP_STEP_ID:
      g_value_set_int64 (value, self->step_id);
      break;

    case PROP_ADDRESS:
      g_value_set_uint64 (value, self->address);
      break;

    case PROP_TIME_PS:
      g_value_set_int64 (value, self->time_ps);
      break;

    case PROP_SPECIAL:
      g_value_set_boolean (value, self->special);
      break;

    case PROP_INDEX:
      g_value_set_uint (value, self->index);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_allocation_row_class_init (TmAllocationRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tm_allocation_row_finalize;
  object_class->get_property = tm_allocation_row_get_property;

  properties[PROP_OP_NAME] =
    g_param_spec_string ("op-name", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_DISPLAY_NAME] =
    g_param_spec_string ("display-name", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_ALLOCATION_BYTES] =
    g_param_spec_int64 ("allocation-bytes", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_REQUESTED_BYTES] =
    g_param_spec_int64 ("requested-bytes", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_OCCURRENCES] =
    g_param_spec_uint64 ("occurrences", NULL, NULL,
                         0, G_MAXUINT64, 0,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_REGION_TYPE] =
    g_param_spec_string ("region-type", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_DATA_TYPE] =
    g_param_spec_string ("data-type", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_SHAPE] =
    g_param_spec_string ("shape", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_STEP_ID] =
    g_param_spec_int64 ("step-id", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_ADDRESS] =
    g_param_spec_uint64 ("address", NULL, NULL,
                         0, G_MAXUINT64, 0,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_TIME_PS] =
    g_param_spec_int64 ("time-ps", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_SPECIAL] =
    g_param_spec_boolean ("special", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_INDEX] =
    g_param_spec_uint ("index", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tm_allocation_row_init (TmAllocationRow *self)
{
}


TmAllocationRow *
tm_allocation_row_new (const TmBreakdownRow *row,
                       guint                 index)
{
  TmAllocationRow *self;

  g_return_val_if_fail (row != NULL, NULL);

  self = g_object_new (TM_TYPE_ALLOCATION_ROW, NULL);
  self->op_name = g_strdup (row->op_name ? row->op_name : "");
  /* The core writes the special rows' names as XProf does, in English;
   * people read them translated. */
  self->display_name = tm_op_label_display_name (self->op_name, !!row->special);
  self->region_type = g_strdup (row->region_type ? row->region_type : "");
  self->data_type = g_strdup (row->data_type ? row->data_type : "");
  self->shape = g_strdup (row->shape ? row->shape : "");
  self->allocation_bytes = row->allocation_bytes;
  self->requested_bytes = row->requested_bytes;
  self->occurrences = row->n_occurrences;
  self->step_id = row->step_id;
  self->address = row->address;
  self->time_ps = row->time_ps;
  self->special = !!row->special;
  self->index = index;
  self->snapshot_index = row->snapshot_index;

  return self;
}

guint
tm_allocation_row_get_snapshot_index (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), G_MAXUINT);

  return self->snapshot_index;
}

const char *
tm_allocation_row_get_op_name (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), NULL);

  return self->op_name;
}

gint64
tm_allocation_row_get_allocation_bytes (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), 0);

  return self->allocation_bytes;
}

gint64
tm_allocation_row_get_requested_bytes (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), 0);

  return self->requested_bytes;
}

guint64
tm_allocation_row_get_occurrences (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), 0);

  return self->occurrences;
}

const char *
tm_allocation_row_get_region_type (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), NULL);

  return self->region_type;
}

const char *
tm_allocation_row_get_data_type (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), NULL);

  return self->data_type;
}

const char *
tm_allocation_row_get_shape (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), NULL);

  return self->shape;
}

gint64
tm_allocation_row_get_step_id (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), 0);

  return self->step_id;
}

guint64
tm_allocation_row_get_address (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), 0);

  return self->address;
}

gint64
tm_allocation_row_get_time_ps (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), 0);

  return self->time_ps;
}

gboolean
tm_allocation_row_get_special (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), FALSE);

  return self->special;
}

const char *
tm_allocation_row_get_named_op (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), NULL);

  return self->special || self->op_name[0] == '\0' ? NULL : self->op_name;
}

guint
tm_allocation_row_get_index (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), 0);

  return self->index;
}

static void
append_field (GString    *str,
              const char *field)
{
  for (const char *p = field; *p; p++)
    g_string_append_c (str, (*p == '\t' || *p == '\n' || *p == '\r') ? ' ' : *p);
}

char *
tm_allocation_row_to_tsv (TmAllocationRow *self)
{
  GString *str;

  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), NULL);

  str = g_string_new (NULL);
  append_field (str, self->op_name);
  g_string_append_printf (str,
                          "\t%" G_GINT64_FORMAT
                          "\t%" G_GINT64_FORMAT
                          "\t%" G_GUINT64_FORMAT "\t",
                          self->allocation_bytes,
                          self->requested_bytes,
                          self->occurrences);
  append_field (str, self->region_type);
  g_string_append_c (str, '\t');
  append_field (str, self->data_type);
  g_string_append_c (str, '\t');
  append_field (str, self->shape);

  return g_string_free (str, FALSE);
}

TmBreakdownRow *
tm_allocation_row_dup_row (TmAllocationRow *self)
{
  TmBreakdownRow *row;

  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), NULL);

  row = g_new0 (TmBreakdownRow, 1);
  row->op_name = g_strdup (self->op_name);
  row->allocation_bytes = self->allocation_bytes;
  row->requested_bytes = self->requested_bytes;
  row->n_occurrences = self->occurrences;
  row->region_type = g_strdup (self->region_type);
  row->data_type = g_strdup (self->data_type);
  row->shape = g_strdup (self->shape);
  row->step_id = self->step_id;
  row->address = self->address;
  row->time_ps = self->time_ps;
  row->snapshot_index = G_MAXUINT;
  row->special = self->special;
  return row;
}

const char *
tm_allocation_row_get_display_name (TmAllocationRow *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), NULL);

  return self->display_name;
}

char *
tm_allocation_row_describe (TmAllocationRow *self)
{
  g_autofree char *time = NULL;
  g_autofree char *breakable = NULL;
  GString *str;

  g_return_val_if_fail (TM_IS_ALLOCATION_ROW (self), NULL);

  /* The special rows say what they count: the two that stand for heap no
   * listed allocation accounts for mean different things (docs/ui.md,
   * "The special rows"). */
  if (self->special && g_str_equal (self->op_name, "unused preallocated device memory"))
    return g_strdup_printf ("%s\n%s", self->display_name,
                            /* Translators: tooltip of the table's special row at the peak */
                            _("Heap at the peak that no allocation of the peak step accounts for, as XProf counts it: allocations of other steps and memory allocated before the profile"));
  if (self->special && g_str_equal (self->op_name, _("memory allocated before the profile")))
    return g_strdup_printf ("%s\n%s", self->display_name,
                            /* Translators: tooltip of the table's special row at a chosen time */
                            _("Heap at this time that no allocation live in the profile accounts for: it was allocated before the profile began"));
  if (self->special)
    return g_strdup (self->display_name);

  time = tm_format_time_ms (self->time_ps);
  breakable = tm_op_label_breakable (self->display_name);
  str = g_string_new (breakable);
  g_string_append_c (str, '\n');
  /* Translators: in the tooltip of an op name in the table: when it
   * allocated; an address and a step follow when the profile has them */
  g_string_append_printf (str, _("Allocated at %s"), time);
  /* No address in the file reads as 0: there is never memory at 0. */
  if (self->address != 0)
    {
      g_string_append (str, ", ");
      /* Translators: continues "Allocated at …" */
      g_string_append_printf (str, _("address 0x%" PRIx64), self->address);
    }
  g_string_append (str, ", ");
  if (self->step_id >= 0)
    /* Translators: continues "Allocated at …" */
    g_string_append_printf (str, _("step %" PRId64), self->step_id);
  else
    g_string_append (str, _("step unknown"));
  return g_string_free (str, FALSE);
}
