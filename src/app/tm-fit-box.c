/* tm-fit-box.c — children in a row, each whole or not at all
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-fit-box.h"

struct _TmFitBox
{
  GtkWidget  parent_instance;

  int        spacing;
  GtkWidget *more;       /* a child, or NULL */
  guint      n_hidden;
};

G_DEFINE_FINAL_TYPE (TmFitBox, tm_fit_box, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_N_HIDDEN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static int
natural_width (GtkWidget *child)
{
  int natural = 0;

  gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  return natural;
}

static void
tm_fit_box_measure (GtkWidget      *widget,
                    GtkOrientation  orientation,
                    int             for_size,
                    int            *minimum,
                    int            *natural,
                    int            *minimum_baseline,
                    int            *natural_baseline)
{
  TmFitBox *self = TM_FIT_BOX (widget);
  int n = 0;

  *minimum = *natural = 0;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      int child_min, child_nat;

      if (!gtk_widget_get_visible (child))
        continue;
      gtk_widget_measure (child, orientation, -1, &child_min, &child_nat, NULL, NULL);
      if (orientation == GTK_ORIENTATION_HORIZONTAL)
        {
          /* Any child may go but the "more" one. */
          if (child == self->more)
            *minimum = child_nat;
          *natural += child_nat + (n > 0 ? self->spacing : 0);
        }
      else
        {
          *minimum = MAX (*minimum, child_min);
          *natural = MAX (*natural, child_nat);
        }
      n++;
    }
}

static void
tm_fit_box_size_allocate (GtkWidget *widget,
                          int        width,
                          int        height,
                          int        baseline)
{
  TmFitBox *self = TM_FIT_BOX (widget);
  int room = width, used = 0, x, n_shown = 0;
  guint hidden = 0;
  gboolean full = FALSE;

  if (self->more != NULL && gtk_widget_get_visible (self->more))
    room -= natural_width (self->more);

  /* From the first, each at its natural width while it fits. */
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      int w;

      if (child == self->more || !gtk_widget_get_visible (child))
        continue;
      w = natural_width (child) + (n_shown > 0 ? self->spacing : 0);
      full = full || used + w + (self->more != NULL ? self->spacing : 0) > room;
      gtk_widget_set_child_visible (child, !full);
      if (full)
        {
          hidden++;
          continue;
        }
      used += w;
      n_shown++;
    }
  if (self->more != NULL && gtk_widget_get_visible (self->more))
    used += natural_width (self->more) + (n_shown > 0 ? self->spacing : 0);

  /* Aligned to the end. */
  x = MAX (width - used, 0);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      int w;

      if (!gtk_widget_get_visible (child) || !gtk_widget_get_child_visible (child))
        continue;
      w = MIN (natural_width (child), width - x);
      gtk_widget_allocate (child, MAX (w, 0), height, -1, gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (x, 0)));
      x += w + self->spacing;
    }

  if (hidden != self->n_hidden)
    {
      self->n_hidden = hidden;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_HIDDEN]);
    }
}

static void
tm_fit_box_dispose (GObject *object)
{
  tm_fit_box_remove_all (TM_FIT_BOX (object));

  G_OBJECT_CLASS (tm_fit_box_parent_class)->dispose (object);
}

static void
tm_fit_box_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  TmFitBox *self = TM_FIT_BOX (object);

  switch (prop_id)
    {
    case PROP_N_HIDDEN:
      g_value_set_uint (value, self->n_hidden);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_fit_box_class_init (TmFitBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_fit_box_dispose;
  object_class->get_property = tm_fit_box_get_property;
  widget_class->measure = tm_fit_box_measure;
  widget_class->size_allocate = tm_fit_box_size_allocate;

  properties[PROP_N_HIDDEN] =
    g_param_spec_uint ("n-hidden", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "fitbox");
}

static void
tm_fit_box_init (TmFitBox *self)
{
}

GtkWidget *
tm_fit_box_new (int spacing)
{
  TmFitBox *self = g_object_new (TM_TYPE_FIT_BOX, NULL);

  self->spacing = MAX (spacing, 0);
  return GTK_WIDGET (self);
}

void
tm_fit_box_append (TmFitBox  *self,
                   GtkWidget *child)
{
  g_return_if_fail (TM_IS_FIT_BOX (self));
  g_return_if_fail (GTK_IS_WIDGET (child) && gtk_widget_get_parent (child) == NULL);

  if (self->more != NULL)
    gtk_widget_insert_before (child, GTK_WIDGET (self), self->more);
  else
    gtk_widget_set_parent (child, GTK_WIDGET (self));
}

void
tm_fit_box_remove_all (TmFitBox *self)
{
  GtkWidget *child;

  g_return_if_fail (TM_IS_FIT_BOX (self));

  self->more = NULL;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  if (self->n_hidden != 0)
    {
      self->n_hidden = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_HIDDEN]);
    }
}

void
tm_fit_box_set_more (TmFitBox  *self,
                     GtkWidget *more)
{
  g_return_if_fail (TM_IS_FIT_BOX (self));
  g_return_if_fail (more == NULL || (GTK_IS_WIDGET (more) && gtk_widget_get_parent (more) == NULL));

  if (self->more != NULL)
    gtk_widget_unparent (self->more);
  self->more = more;
  if (more != NULL)
    gtk_widget_set_parent (more, GTK_WIDGET (self));
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

guint
tm_fit_box_get_n_hidden (TmFitBox *self)
{
  g_return_val_if_fail (TM_IS_FIT_BOX (self), 0);
  return self->n_hidden;
}
