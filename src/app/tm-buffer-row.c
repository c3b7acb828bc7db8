/* tm-buffer-row.c — one object live at a module's peak, as a table row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-buffer-row.h"
#include "tm-format.h"

struct _TmBufferRow
{
  GObject  parent_instance;

  guint    index;
  gint64   id;
  gint64   size;
  gint64   unpadded;
  gint64   padding;
  char    *name;
  char    *shape;
  char    *op;
  char    *category;
};

G_DEFINE_FINAL_TYPE (TmBufferRow, tm_buffer_row, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_INDEX,
  PROP_SIZE,
  PROP_UNPADDED,
  PROP_PADDING,
  PROP_NAME,
  PROP_SHAPE,
  PROP_OP,
  PROP_CATEGORY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
tm_buffer_row_finalize (GObject *object)
{
  TmBufferRow *self = TM_BUFFER_ROW (object);

  g_free (self->name);
  g_free (self->shape);
  g_free (self->op);
  g_free (self->category);

  G_OBJECT_CLASS (tm_buffer_row_parent_class)->finalize (object);
}

static void
tm_buffer_row_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TmBufferRow *self = TM_BUFFER_ROW (object);

  switch (prop_id)
    {
    case PROP_INDEX:
      g_value_set_uint (value, self->index);
      break;
    case PROP_SIZE:
      g_value_set_int64 (value, self->size);
      break;
    case PROP_UNPADDED:
      g_value_set_int64 (value, self->unpadded);
      break;
    case PROP_PADDING:
      g_value_set_int64 (value, self->padding);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_SHAPE:
      g_value_set_string (value, self->shape);
      break;
    case PROP_OP:
      g_value_set_string (value, self->op);
      break;
    case PROP_CATEGORY:
      g_value_set_string (value, self->category);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_buffer_row_class_init (TmBufferRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = tm_buffer_row_finalize;
  object_class->get_property = tm_buffer_row_get_property;

  properties[PROP_INDEX] = g_param_spec_uint ("index", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_SIZE] = g_param_spec_int64 ("size", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_UNPADDED] = g_param_spec_int64 ("unpadded", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_PADDING] = g_param_spec_int64 ("padding", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_SHAPE] = g_param_spec_string ("shape", NULL, NULL, NULL, flags);
  properties[PROP_OP] = g_param_spec_string ("op", NULL, NULL, NULL, flags);
  properties[PROP_CATEGORY] = g_param_spec_string ("category", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tm_buffer_row_init (TmBufferRow *self)
{
}

TmBufferRow *
tm_buffer_row_new (const TmHeapObject *o,
                   guint               index)
{
  TmBufferRow *self;

  g_return_val_if_fail (o != NULL, NULL);

  self = g_object_new (TM_TYPE_BUFFER_ROW, NULL);
  self->index = index;
  self->id = o->logical_buffer_id;
  self->size = o->size;
  self->unpadded = o->unpadded_size;
  self->padding = o->size != 0 && o->unpadded_size != 0 ? o->size - o->unpadded_size : 0;
  self->name = g_strdup (o->instruction_name != NULL ? o->instruction_name : o->label);
  self->shape = g_strdup (o->shape != NULL ? o->shape : "");
  self->op = g_strdup (o->tf_op_name != NULL ? o->tf_op_name : "");
  self->category = g_strdup (o->group != NULL ? o->group : "");
  return self;
}

guint
tm_buffer_row_get_index (TmBufferRow *self)
{
  g_return_val_if_fail (TM_IS_BUFFER_ROW (self), 0);

  return self->index;
}

gint64
tm_buffer_row_get_logical_buffer_id (TmBufferRow *self)
{
  g_return_val_if_fail (TM_IS_BUFFER_ROW (self), -1);

  return self->id;
}

const char *
tm_buffer_row_get_name (TmBufferRow *self)
{
  g_return_val_if_fail (TM_IS_BUFFER_ROW (self), NULL);

  return self->name;
}

/* ------------------------------------------------------------------ */
/* Cells                                                                */

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  bytes)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), bytes ? 1.0f : 0.0f);
  /* Figures are never cut; text is, at its end (the tooltip has it all). */
  if (!bytes)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (bytes)
    gtk_widget_add_css_class (label, "tm-numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *item,
         gpointer                  bytes)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  GObject *row = gtk_list_item_get_item (item);
  const char *property = g_object_get_data (G_OBJECT (factory), "property");

  if (GPOINTER_TO_INT (bytes) == 2)
    {
      guint value = 0;
      g_autofree char *text = NULL;

      g_object_get (row, property, &value, NULL);
      text = g_strdup_printf ("%u", value);
      gtk_label_set_text (GTK_LABEL (label), text);
    }
  else if (bytes)
    {
      gint64 value = 0;
      g_autofree char *text = NULL;
      g_autofree char *exact = NULL;

      g_object_get (row, property, &value, NULL);
      text = tm_format_bytes (value);
      exact = tm_format_bytes_exact (value);
      gtk_label_set_text (GTK_LABEL (label), text);
      gtk_widget_set_tooltip_text (label, exact);
    }
  else
    {
      g_autofree char *text = NULL;

      g_object_get (row, property, &text, NULL);
      gtk_label_set_text (GTK_LABEL (label), text);
      gtk_widget_set_tooltip_text (label, text != NULL && text[0] != '\0' ? text : NULL);
    }
}

GtkListItemFactory *
tm_buffer_row_factory_new (const char *property,
                           int         bytes)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_object_set_data_full (G_OBJECT (factory), "property", g_strdup (property), g_free);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (bytes));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GINT_TO_POINTER (bytes));
  return factory;
}
