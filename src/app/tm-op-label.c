/* tm-op-label.c — an op name that keeps its end readable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-op-label.h"

#define ELLIPSIS "…"

struct _TmOpLabel
{
  GtkWidget    parent_instance;

  char        *text;
  char        *shown;          /* text as it fits the last width */
  int          shown_width;    /* -1: to be made */
  PangoLayout *layout;
  /* Measured once per text and font (-1: to be measured): the column view
   * measures every cell several times for a frame, and shaping the
   * names of a table's rows again each time was most of that. */
  int          text_width;
  int          text_height;
  int          ellipsis_width;
  int          line_height;
};

G_DEFINE_FINAL_TYPE (TmOpLabel, tm_op_label, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------ */
/* Names for people                                                    */

char *
tm_op_label_display_name (const char *op_name,
                          gboolean    special)
{
  if (op_name == NULL || op_name[0] == '\0')
    /* Translators: an op name, a step or a size the profile does not hold */
    return g_strdup (_("unknown"));
  if (special && g_str_equal (op_name, "unused preallocated device memory"))
    /* Translators: the table's row for the heap no listed allocation
     * accounts for, as XProf names it */
    return g_strdup (_("unused preallocated device memory"));
  if (special && g_str_equal (op_name, "stack"))
    /* Translators: the table's row for the stack */
    return g_strdup (C_("row", "stack"));
  return g_strdup (op_name);
}

/* XProf writes data type 0 as "INVALID" and a missing shape of its own
 * rows as "unknown": neither is a value. */
static gboolean
is_known (const char *value)
{
  return value != NULL && value[0] != '\0' && !g_str_equal (value, "INVALID") && !g_str_equal (value, "unknown");
}

const char *
tm_op_label_display_value (const char *value)
{
  return is_known (value) ? value : _("unknown");
}

char *
tm_op_label_breakable (const char *text)
{
  GString *str;

  if (text == NULL)
    return NULL;
  /* A tooltip wraps only where a line may break: after each scope (a
   * PyTorch frame's Windows path too), not at the window's edge. */
  str = g_string_sized_new (strlen (text) + 16);
  for (const char *p = text; *p != '\0'; p++)
    {
      g_string_append_c (str, *p);
      if (*p == '/' || *p == '\\')
        g_string_append (str, "\u200b");
    }
  return g_string_free (str, FALSE);
}

GtkWidget *
tm_op_label_new_tooltip (const char *markup)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  /* A name longer than a line breaks at its scopes (the zero-width spaces
   * of tm_op_label_breakable()), or anywhere when it has none. */
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 80);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  return label;
}

char *
tm_op_label_describe_fields (gint64      step_id,
                             const char *region_type,
                             const char *data_type,
                             const char *shape)
{
  GString *str = g_string_new (NULL);

  if (step_id >= 0)
    {
      g_autofree char *step = g_strdup_printf ("%" G_GINT64_FORMAT, step_id);

      /* Translators: in a tooltip, the step an event belongs to: "Step 7" */
      g_string_append_printf (str, _("Step %s"), step);
    }
  else
    /* Translators: in a tooltip, an event without a step (group id) */
    g_string_append (str, _("Step unknown"));
  /* What the file leaves out is left out, not shown as a blank between
   * separators or as "INVALID". */
  if (is_known (region_type))
    {
      g_string_append (str, " · ");
      /* Translators: in a tooltip, an allocation's region type: "region output" */
      g_string_append_printf (str, _("region %s"), region_type);
    }
  if (is_known (data_type))
    {
      g_string_append (str, " · ");
      /* Translators: in a tooltip, an allocation's data type: "data type float" */
      g_string_append_printf (str, _("data type %s"), data_type);
    }
  if (is_known (shape))
    {
      g_string_append (str, " · ");
      /* Translators: in a tooltip, an allocation's shape: "shape [8,64]" */
      g_string_append_printf (str, _("shape %s"), shape);
    }
  return g_string_free (str, FALSE);
}

/* ------------------------------------------------------------------ */
/* Shortening                                                          */

static gboolean
fits (PangoLayout *layout,
      const char  *text,
      int          width)
{
  int w;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  return w <= width;
}

char *
tm_op_label_shorten (PangoLayout *layout,
                     const char  *text,
                     int          width)
{
  g_auto(GStrv) parts = NULL;
  g_autofree char *tail = NULL;
  guint n;

  g_return_val_if_fail (PANGO_IS_LAYOUT (layout), NULL);

  if (text == NULL)
    return g_strdup ("");
  if (fits (layout, text, width))
    return g_strdup (text);

  /* Whole scopes off the start, as many as it takes, the last two kept. */
  parts = g_strsplit (text, "/", -1);
  n = g_strv_length (parts);
  for (guint keep = n - 1; keep >= 2 && n > 2; keep--)
    {
      g_autofree char *joined = g_strjoinv ("/", parts + n - keep);
      g_autofree char *candidate = g_strconcat (ELLIPSIS "/", joined, NULL);

      if (fits (layout, candidate, width))
        return g_steal_pointer (&candidate);
    }

  /* Even the last two are too wide: cut them at their start. */
  tail = n > 2 ? g_strconcat (parts[n - 2], "/", parts[n - 1], NULL) : g_strdup (text);
  for (const char *p = g_utf8_next_char (tail); *p != '\0'; p = g_utf8_next_char (p))
    {
      g_autofree char *candidate = g_strconcat (ELLIPSIS, p, NULL);

      if (fits (layout, candidate, width))
        return g_steal_pointer (&candidate);
    }
  return g_strdup (ELLIPSIS);
}

/* ------------------------------------------------------------------ */
/* The widget                                                          */

static PangoLayout *
get_layout (TmOpLabel *self)
{
  if (self->layout == NULL)
    self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  return self->layout;
}

static void
update_shown (TmOpLabel *self,
              int        width)
{
  if (self->shown != NULL && self->shown_width == width)
    return;

  g_free (self->shown);
  self->shown = tm_op_label_shorten (get_layout (self), self->text, width);
  self->shown_width = width;
  pango_layout_set_text (get_layout (self), self->shown, -1);
}

static void
invalidate (TmOpLabel *self,
            gboolean   resize)
{
  g_clear_pointer (&self->shown, g_free);
  self->shown_width = -1;
  self->text_width = self->text_height = -1;
  if (resize)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
tm_op_label_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  TmOpLabel *self = TM_OP_LABEL (widget);
  PangoLayout *layout = get_layout (self);

  if (self->text_width < 0)
    {
      pango_layout_set_text (layout, self->text ? self->text : "", -1);
      pango_layout_get_pixel_size (layout, &self->text_width, &self->text_height);
    }
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      if (self->ellipsis_width < 0)
        {
          pango_layout_set_text (layout, ELLIPSIS "Cast", -1);
          pango_layout_get_pixel_size (layout, &self->ellipsis_width, NULL);
        }
      *minimum = MIN (self->text_width, self->ellipsis_width);
      *natural = self->text_width;
    }
  else
    {
      if (self->line_height < 0)
        {
          PangoFontMetrics *metrics = pango_context_get_metrics (pango_layout_get_context (layout), NULL, NULL);

          self->line_height = PANGO_PIXELS_CEIL (pango_font_metrics_get_height (metrics));
          pango_font_metrics_unref (metrics);
        }
      *minimum = *natural = MAX (self->text_height, self->line_height);
    }
}

static void
tm_op_label_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  update_shown (TM_OP_LABEL (widget), width);
}

static void
tm_op_label_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  TmOpLabel *self = TM_OP_LABEL (widget);
  PangoLayout *layout;
  GdkRGBA color;
  int h;

  update_shown (self, gtk_widget_get_width (widget));
  layout = get_layout (self);
  pango_layout_set_text (layout, self->shown, -1);
  pango_layout_get_pixel_size (layout, NULL, &h);
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, (gtk_widget_get_height (widget) - h) / 2.0f));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

static void
tm_op_label_css_changed (GtkWidget         *widget,
                         GtkCssStyleChange *change)
{
  TmOpLabel *self = TM_OP_LABEL (widget);

  GTK_WIDGET_CLASS (tm_op_label_parent_class)->css_changed (widget, change);

  /* The font may have changed (the special rows are italic). */
  g_clear_object (&self->layout);
  self->ellipsis_width = self->line_height = -1;
  invalidate (self, TRUE);
}

static void
tm_op_label_finalize (GObject *object)
{
  TmOpLabel *self = TM_OP_LABEL (object);

  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->shown, g_free);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (tm_op_label_parent_class)->finalize (object);
}

static void
tm_op_label_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TmOpLabel *self = TM_OP_LABEL (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_op_label_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TmOpLabel *self = TM_OP_LABEL (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      tm_op_label_set_text (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_op_label_class_init (TmOpLabelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = tm_op_label_finalize;
  object_class->get_property = tm_op_label_get_property;
  object_class->set_property = tm_op_label_set_property;

  widget_class->measure = tm_op_label_measure;
  widget_class->size_allocate = tm_op_label_size_allocate;
  widget_class->snapshot = tm_op_label_snapshot;
  widget_class->css_changed = tm_op_label_css_changed;

  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "label");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
tm_op_label_init (TmOpLabel *self)
{
  self->shown_width = -1;
  self->text_width = self->text_height = -1;
  self->ellipsis_width = self->line_height = -1;
}

GtkWidget *
tm_op_label_new (const char *text)
{
  return g_object_new (TM_TYPE_OP_LABEL, "text", text, NULL);
}

const char *
tm_op_label_get_text (TmOpLabel *self)
{
  g_return_val_if_fail (TM_IS_OP_LABEL (self), NULL);

  return self->text;
}

void
tm_op_label_set_text (TmOpLabel  *self,
                      const char *text)
{
  g_return_if_fail (TM_IS_OP_LABEL (self));

  if (g_strcmp0 (self->text, text) == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text);

  /* Screen readers get the whole name. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, text ? text : "", -1);
  invalidate (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

const char *
tm_op_label_get_shown_text (TmOpLabel *self)
{
  g_return_val_if_fail (TM_IS_OP_LABEL (self), NULL);

  update_shown (self, gtk_widget_get_width (GTK_WIDGET (self)));
  return self->shown;
}

/* ------------------------------------------------------------------ */
/* Fitting a column                                                    */

/* Cells' padding and the column's own, generously. */
#define CELL_PADDING 28
/* Enough to find the widest name without stalling on a huge table. */
#define MAX_MEASURED 200000

void
tm_op_label_fit_column (GtkColumnView       *column_view,
                        GtkColumnViewColumn *column)
{
  g_autoptr(PangoLayout) layout = NULL;
  GtkSorter *sorter;
  GtkExpression *names;
  GListModel *model;
  guint n;
  int widest = 0;

  g_return_if_fail (GTK_IS_COLUMN_VIEW (column_view));
  g_return_if_fail (GTK_IS_COLUMN_VIEW_COLUMN (column));

  model = G_LIST_MODEL (gtk_column_view_get_model (column_view));
  sorter = gtk_column_view_column_get_sorter (column);
  if (model == NULL || !GTK_IS_STRING_SORTER (sorter) ||
      (names = gtk_string_sorter_get_expression (GTK_STRING_SORTER (sorter))) == NULL)
    return;

  layout = gtk_widget_create_pango_layout (GTK_WIDGET (column_view), NULL);
  n = MIN (g_list_model_get_n_items (model), MAX_MEASURED);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);
      g_auto(GValue) value = G_VALUE_INIT;
      int w;

      if (!gtk_expression_evaluate (names, item, &value) || !G_VALUE_HOLDS_STRING (&value))
        continue;
      pango_layout_set_text (layout, g_value_get_string (&value) ? g_value_get_string (&value) : "", -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      widest = MAX (widest, w);
    }

  if (widest > 0)
    gtk_column_view_column_set_fixed_width (column, widest + CELL_PADDING);
}

static GtkColumnView *
find_column_view (GtkWidget *widget)
{
  if (GTK_IS_COLUMN_VIEW (widget))
    return GTK_COLUMN_VIEW (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkColumnView *found = find_column_view (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

void
tm_op_label_fit_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  GtkColumnView *column_view = find_column_view (widget);
  g_autoptr(GtkColumnViewColumn) column = NULL;

  if (column_view == NULL)
    return;

  column = g_list_model_get_item (gtk_column_view_get_columns (column_view), 0);
  if (column != NULL)
    tm_op_label_fit_column (column_view, column);
}

/* ------------------------------------------------------------------ */
/* The op column takes the width first                                 */

/* The narrowest a column gets: its title and sort arrow. */
static int
column_title_width (GtkColumnView       *column_view,
                    GtkColumnViewColumn *column)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (column_view),
                                                                  gtk_column_view_column_get_title (column));
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  /* Titles are bold; then padding and the sort arrow. */
  return width + width / 16 + 28;
}

void
tm_op_label_share_width (GtkColumnView *column_view,
                         int            width,
                         const int     *natural,
                         int           *given)
{
  GListModel *columns;
  guint n;
  g_autofree int *mins = NULL;
  int sum_min = 0, sum_nat = 0, taken = 0, room;

  g_return_if_fail (GTK_IS_COLUMN_VIEW (column_view));
  g_return_if_fail (natural != NULL && given != NULL);

  if (width <= 0)
    return;
  columns = gtk_column_view_get_columns (column_view);
  n = g_list_model_get_n_items (columns);
  mins = g_new0 (int, n);

  for (guint i = 1; i < n; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      int fixed = gtk_column_view_column_get_fixed_width (column);

      if (fixed != given[i])
        {
          taken += MAX (fixed, 0);
          continue;
        }
      mins[i] = MIN (column_title_width (column_view, column), natural[i]);
      sum_min += mins[i];
      sum_nat += natural[i];
    }

  room = width - MAX (240, width * 35 / 100) - taken;
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      int w;

      if (gtk_column_view_column_get_fixed_width (column) != given[i])
        continue;
      if (room >= sum_nat)
        w = natural[i];
      else if (room <= sum_min)
        w = mins[i];
      else
        w = mins[i] + (int) ((gint64) (natural[i] - mins[i]) * (room - sum_min) / MAX (sum_nat - sum_min, 1));
      given[i] = w;
      if (gtk_column_view_column_get_fixed_width (column) != w)
        gtk_column_view_column_set_fixed_width (column, w);
    }
}
