/* tm-allocation-figures.c — the Allocations tab's figures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "tm-allocation-figures.h"
#include "tm-format.h"

#define PS_PER_MS 1000000000.0

struct _TmAllocationFigures
{
  GtkWidget      parent_instance;

  GtkWidget     *box;
  GtkLabel      *made;
  GtkLabel      *temporary;
  GtkLabel      *same_step;
  GtkLabel      *rate;
  GtkSpinButton *threshold;

  gint64         temporary_ps;
};

G_DEFINE_FINAL_TYPE (TmAllocationFigures, tm_allocation_figures, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TEMPORARY_PS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* "208 (27.3 %) · 1.02 GiB" */
static char *
count_share_bytes (guint  count,
                   guint  total,
                   gint64 bytes)
{
  g_autofree char *n = tm_format_count (count);
  g_autofree char *share = tm_format_percent (total > 0 ? (double) count / total : 0.0);
  g_autofree char *size = tm_format_bytes (bytes);

  /* Translators: a count of allocations, its share of those made, their size */
  return g_strdup_printf (_("%s (%s) · %s"), n, share, size);
}

void
tm_allocation_figures_set_stats (TmAllocationFigures *self,
                                 const TmAllocStats  *stats)
{
  g_autofree char *made = NULL;
  g_autofree char *made_tip = NULL;
  g_autofree char *temporary = NULL;
  g_autofree char *same_step = NULL;
  g_autofree char *rate = NULL;
  g_autofree char *rate_tip = NULL;

  g_return_if_fail (TM_IS_ALLOCATION_FIGURES (self));

  if (stats == NULL)
    {
      gtk_label_set_label (self->made, _("counting…"));
      gtk_label_set_label (self->temporary, "");
      gtk_label_set_label (self->same_step, "");
      gtk_label_set_label (self->rate, "");
      return;
    }

  {
    g_autofree char *count = tm_format_count (stats->n_allocations);
    g_autofree char *bytes = tm_format_bytes (stats->allocated_bytes);
    g_autofree char *exact = tm_format_bytes_exact (stats->allocated_bytes);
    g_autofree char *from = tm_format_time_ms (stats->start_ps);
    g_autofree char *to = tm_format_time_ms (stats->end_ps);

    /* Translators: allocations made in the range shown, and their size */
    made = g_strdup_printf (_("%s · %s"), count, bytes);
    /* Translators: tooltip of the allocations made; a count, a time, a time, an exact size */
    made_tip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%s allocation made from %s to %s, %s",
                                             "%s allocations made from %s to %s, %s",
                                             stats->n_allocations),
                                count, from, to, exact);
  }
  temporary = count_share_bytes (stats->n_temporary, stats->n_allocations, stats->temporary_bytes);
  same_step = count_share_bytes (stats->n_same_step, stats->n_allocations, stats->same_step_bytes);

  if (stats->busiest_step == G_MAXUINT)
    rate = g_strdup ("—");
  else
    {
      const TmStepStats *busiest = &g_array_index (stats->steps, TmStepStats, stats->busiest_step);
      g_autofree char *per_step = g_strdup_printf ("%.1f", tm_alloc_stats_get_allocations_per_step (stats));
      g_autofree char *bytes = tm_format_bytes ((gint64) tm_alloc_stats_get_bytes_per_step (stats));
      g_autofree char *most = tm_format_count (busiest->n_allocations);

      /* Translators: the allocation rate per step: allocations, then bytes */
      rate = g_strdup_printf (_("%s allocations · %s"), per_step, bytes);
      /* Translators: tooltip of the allocation rate: the number of steps,
       * the busiest step's id and its allocations */
      rate_tip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "Over %u step with memory events in the range; the busiest, step %" PRId64 ", made %s",
                                               "Over %u steps with memory events in the range; the busiest, step %" PRId64 ", made %s",
                                               stats->steps->len),
                                  stats->steps->len, busiest->step_id, most);
    }

  gtk_label_set_label (self->made, made);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->made), made_tip);
  gtk_label_set_label (self->temporary, temporary);
  gtk_label_set_label (self->same_step, same_step);
  gtk_label_set_label (self->rate, rate);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->rate), rate_tip);
}

static void
threshold_changed_cb (TmAllocationFigures *self)
{
  double ms = gtk_spin_button_get_value (self->threshold);

  tm_allocation_figures_set_temporary_ps (self, (gint64) (ms * PS_PER_MS + 0.5));
}

/* A caption (and whatever follows it) and a value, on one line. */
static GtkLabel *
add_figure (TmAllocationFigures *self,
            GtkWidget           *caption,
            const char          *tooltip)
{
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *value = gtk_label_new (NULL);

  gtk_widget_set_valign (line, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (caption, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (line), caption);
  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_widget_set_valign (value, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (value, "tm-numeric");
  gtk_box_append (GTK_BOX (line), value);
  gtk_widget_set_tooltip_text (line, tooltip);
  gtk_flow_box_insert (GTK_FLOW_BOX (self->box), line, -1);
  return GTK_LABEL (value);
}

static GtkWidget *
caption_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

/* As tall as two lines of figures whatever the values (the most the flow
 * box takes, and what it takes once they are wide): the tab's minimum
 * stays the same when the figures arrive or change, so that the charts
 * above never move (docs/ui.md, "Layout"). */
static void
tm_allocation_figures_measure (GtkWidget      *widget,
                               GtkOrientation  orientation,
                               int             for_size,
                               int            *minimum,
                               int            *natural,
                               int            *minimum_baseline,
                               int            *natural_baseline)
{
  TmAllocationFigures *self = TM_ALLOCATION_FIGURES (widget);

  gtk_widget_measure (self->box, orientation, for_size, minimum, natural, NULL, NULL);
  *minimum_baseline = *natural_baseline = -1;
  if (orientation == GTK_ORIENTATION_VERTICAL)
    {
      int narrowest, two_lines;

      gtk_widget_measure (self->box, GTK_ORIENTATION_HORIZONTAL, -1, &narrowest, NULL, NULL, NULL);
      gtk_widget_measure (self->box, GTK_ORIENTATION_VERTICAL, narrowest, &two_lines, NULL, NULL, NULL);
      *minimum = MAX (*minimum, two_lines);
      *natural = MAX (*natural, *minimum);
    }
}

static void
tm_allocation_figures_size_allocate (GtkWidget *widget,
                                     int        width,
                                     int        height,
                                     int        baseline)
{
  TmAllocationFigures *self = TM_ALLOCATION_FIGURES (widget);

  gtk_widget_allocate (self->box, width, height, -1, NULL);
}

static void
tm_allocation_figures_dispose (GObject *object)
{
  TmAllocationFigures *self = TM_ALLOCATION_FIGURES (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (tm_allocation_figures_parent_class)->dispose (object);
}

static void
tm_allocation_figures_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  TmAllocationFigures *self = TM_ALLOCATION_FIGURES (object);

  switch (prop_id)
    {
    case PROP_TEMPORARY_PS:
      g_value_set_int64 (value, self->temporary_ps);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_allocation_figures_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  TmAllocationFigures *self = TM_ALLOCATION_FIGURES (object);

  switch (prop_id)
    {
    case PROP_TEMPORARY_PS:
      tm_allocation_figures_set_temporary_ps (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_allocation_figures_class_init (TmAllocationFiguresClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_allocation_figures_dispose;
  object_class->get_property = tm_allocation_figures_get_property;
  object_class->set_property = tm_allocation_figures_set_property;

  properties[PROP_TEMPORARY_PS] =
    g_param_spec_int64 ("temporary-ps", NULL, NULL, 0, G_MAXINT64, TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  widget_class->measure = tm_allocation_figures_measure;
  widget_class->size_allocate = tm_allocation_figures_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "allocationfigures");
}

static void
tm_allocation_figures_init (TmAllocationFigures *self)
{
  GtkWidget *temporary_caption, *label;

  self->temporary_ps = TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS;

  self->box = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (self->box), GTK_SELECTION_NONE);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (self->box), FALSE);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (self->box), 18);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (self->box), 0);
  /* Two lines at most, however narrow: no taller than the table needs. */
  gtk_flow_box_set_min_children_per_line (GTK_FLOW_BOX (self->box), 2);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->box), 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->made = add_figure (self, caption_label (_("Made")),
                           _("The allocations made in the range shown (whenever they end), and their size"));

  /* "Temporary, freed within [1.000] ms" */
  temporary_caption = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_widget_set_valign (temporary_caption, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (temporary_caption), caption_label (_("Temporary, freed within")));
  self->threshold = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0.0, 1000000.0, 0.1));
  gtk_spin_button_set_digits (self->threshold, 3);
  gtk_widget_set_valign (GTK_WIDGET (self->threshold), GTK_ALIGN_CENTER);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->threshold), 7);
  gtk_widget_add_css_class (GTK_WIDGET (self->threshold), "tm-compact-spin");
  gtk_spin_button_set_value (self->threshold, self->temporary_ps / PS_PER_MS);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->threshold), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Temporary allocations: freed within this many milliseconds"), -1);
  g_signal_connect_swapped (self->threshold, "value-changed", G_CALLBACK (threshold_changed_cb), self);
  gtk_box_append (GTK_BOX (temporary_caption), GTK_WIDGET (self->threshold));
  label = caption_label (_("ms"));
  gtk_box_append (GTK_BOX (temporary_caption), label);
  self->temporary = add_figure (self, temporary_caption,
                                _("Allocations made in the range and freed at most this long after: their count, "
                                  "share of those made and size"));

  self->same_step = add_figure (self, caption_label (_("Freed in their step")),
                                _("Allocations freed by an event of the step that made them: their count, "
                                  "share of those made and size"));
  self->rate = add_figure (self, caption_label (_("Per step")),
                           _("Allocations and bytes made per step, on average over the steps in the range"));
  tm_allocation_figures_set_stats (self, NULL);
}

GtkWidget *
tm_allocation_figures_new (void)
{
  return g_object_new (TM_TYPE_ALLOCATION_FIGURES, NULL);
}

gint64
tm_allocation_figures_get_temporary_ps (TmAllocationFigures *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_FIGURES (self), 0);
  return self->temporary_ps;
}

void
tm_allocation_figures_set_temporary_ps (TmAllocationFigures *self,
                                        gint64               temporary_ps)
{
  g_return_if_fail (TM_IS_ALLOCATION_FIGURES (self));

  temporary_ps = MAX (temporary_ps, 0);
  if (self->temporary_ps == temporary_ps)
    return;
  self->temporary_ps = temporary_ps;
  gtk_spin_button_set_value (self->threshold, temporary_ps / PS_PER_MS);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEMPORARY_PS]);
}
