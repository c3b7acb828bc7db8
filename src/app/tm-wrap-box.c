/* tm-wrap-box.c — children in a row that wraps onto more lines when narrow
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-wrap-box.h"

struct _TmWrapBox
{
  GtkWidget parent_instance;

  int       spacing;   /* between children on a line and between lines */
};

G_DEFINE_FINAL_TYPE (TmWrapBox, tm_wrap_box, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SPACING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Where each visible child goes in a width: its line, x and width; in
 * heights the height of each line (its tallest child). */
typedef struct
{
  GtkWidget *child;
  int        line;
  int        x;
  int        width;
} Placed;

static GArray *
place (TmWrapBox *self,
       int        width,
       GArray   **heights)
{
  GArray *placed = g_array_new (FALSE, FALSE, sizeof (Placed));
  int line = 0, x = 0;

  *heights = g_array_new (FALSE, TRUE, sizeof (int));
  g_array_set_size (*heights, 1);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      Placed p = { child, 0, 0, 0 };
      int min, nat;

      if (!gtk_widget_should_layout (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
      /* A new line when the child does not fit the rest of this one. */
      if (x > 0 && x + nat > width)
        {
          line++;
          x = 0;
          g_array_set_size (*heights, line + 1);
        }
      p.line = line;
      p.x = x;
      p.width = MAX (min, MIN (nat, width));
      x += p.width + self->spacing;
      g_array_append_val (placed, p);
    }

  /* Expanding children share the rest of their line. */
  for (int l = 0; l <= line; l++)
    {
      int used = 0, n_expand = 0, shift = 0;

      for (guint i = 0; i < placed->len; i++)
        {
          Placed *p = &g_array_index (placed, Placed, i);

          if (p->line != l)
            continue;
          used = p->x + p->width;
          n_expand += gtk_widget_compute_expand (p->child, GTK_ORIENTATION_HORIZONTAL);
        }
      for (guint i = 0, k = 0; i < placed->len; i++)
        {
          Placed *p = &g_array_index (placed, Placed, i);
          int extra;

          if (p->line != l)
            continue;
          p->x += shift;
          if (n_expand == 0 || width <= used || !gtk_widget_compute_expand (p->child, GTK_ORIENTATION_HORIZONTAL))
            continue;
          extra = (width - used) / n_expand + ((int) k < (width - used) % n_expand);
          k++;
          p->width += extra;
          shift += extra;
        }
    }

  for (guint i = 0; i < placed->len; i++)
    {
      Placed *p = &g_array_index (placed, Placed, i);
      int min, nat;
      int *h = &g_array_index (*heights, int, p->line);

      gtk_widget_measure (p->child, GTK_ORIENTATION_VERTICAL, p->width, &min, &nat, NULL, NULL);
      *h = MAX (*h, nat);
    }
  return placed;
}

static void
tm_wrap_box_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  TmWrapBox *self = TM_WRAP_BOX (widget);

  *minimum = *natural = 0;
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int n = 0;

      for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
           child = gtk_widget_get_next_sibling (child))
        {
          int min, nat;

          if (!gtk_widget_should_layout (child))
            continue;
          gtk_widget_measure (child, orientation, -1, &min, &nat, NULL, NULL);
          *minimum = MAX (*minimum, min);
          *natural += nat;
          n++;
        }
      *natural += MAX (n - 1, 0) * self->spacing;
    }
  else
    {
      g_autoptr(GArray) heights = NULL;
      g_autoptr(GArray) placed = NULL;
      int width = for_size;
      int min_width;

      /* Without a width, the one line at natural widths. */
      if (width < 0)
        tm_wrap_box_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, &width, NULL, NULL);
      placed = place (self, width, &heights);
      for (guint l = 0; l < heights->len; l++)
        *natural += g_array_index (heights, int, l);
      *natural += (int) (heights->len - 1) * self->spacing;
      *minimum = *natural;
    }
}

static void
tm_wrap_box_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  TmWrapBox *self = TM_WRAP_BOX (widget);
  g_autoptr(GArray) heights = NULL;
  g_autoptr(GArray) placed = place (self, width, &heights);
  int y = 0, line = 0;

  for (guint i = 0; i < placed->len; i++)
    {
      Placed *p = &g_array_index (placed, Placed, i);

      while (line < p->line)
        y += g_array_index (heights, int, line++) + self->spacing;
      gtk_widget_size_allocate (p->child,
                                &(GtkAllocation) { p->x, y, p->width, g_array_index (heights, int, p->line) },
                                -1);
    }
}

static GtkSizeRequestMode
tm_wrap_box_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
tm_wrap_box_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (tm_wrap_box_parent_class)->dispose (object);
}

static void
tm_wrap_box_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TmWrapBox *self = TM_WRAP_BOX (object);

  switch (prop_id)
    {
    case PROP_SPACING:
      g_value_set_int (value, self->spacing);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_wrap_box_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TmWrapBox *self = TM_WRAP_BOX (object);

  switch (prop_id)
    {
    case PROP_SPACING:
      tm_wrap_box_set_spacing (self, g_value_get_int (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_wrap_box_class_init (TmWrapBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_wrap_box_dispose;
  object_class->get_property = tm_wrap_box_get_property;
  object_class->set_property = tm_wrap_box_set_property;

  widget_class->measure = tm_wrap_box_measure;
  widget_class->size_allocate = tm_wrap_box_size_allocate;
  widget_class->get_request_mode = tm_wrap_box_get_request_mode;

  properties[PROP_SPACING] =
    g_param_spec_int ("spacing", NULL, NULL,
                      0, G_MAXINT, 0,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "tmwrapbox");
}

static void
tm_wrap_box_init (TmWrapBox *self)
{
}

GtkWidget *
tm_wrap_box_new (void)
{
  return g_object_new (TM_TYPE_WRAP_BOX, NULL);
}

int
tm_wrap_box_get_spacing (TmWrapBox *self)
{
  g_return_val_if_fail (TM_IS_WRAP_BOX (self), 0);

  return self->spacing;
}

void
tm_wrap_box_set_spacing (TmWrapBox *self,
                         int        spacing)
{
  g_return_if_fail (TM_IS_WRAP_BOX (self));

  spacing = MAX (spacing, 0);
  if (self->spacing == spacing)
    return;
  self->spacing = spacing;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPACING]);
}
