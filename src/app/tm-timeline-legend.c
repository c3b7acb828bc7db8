/* tm-timeline-legend.c — the timeline's legend, whose entries toggle their
 * series
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The legend row sits in the timeline's top margin. Stack, Heap, Free and
 * Fragmentation are toggles: a click (the pointer becomes a hand over
 * them) hides or shows the series through the timeline's hidden-series,
 * so the window's menu and the exported image follow (docs/ui.md,
 * "Legend"). A hidden entry is drawn faded with a hollow swatch.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-timeline-private.h"

#define LEGEND_Y 14

typedef struct
{
  TmSeriesFlags    series;     /* TM_SERIES_FLAG_NONE: not a toggle */
  const char      *label;
  graphene_rect_t  box;        /* what a click hits */
  double           swatch_x;
} LegendItem;

/* The entries in order, laid out from the plot's left edge. */
static guint
legend_items (TmTimeline  *self,
              PangoLayout *text,
              LegendItem   items[5])
{
  TmTimelineLayout layout;
  guint n = 0;
  double x;

  _tm_timeline_current_layout (self, &layout);
  x = layout.plot.origin.x;

  items[n++] = (LegendItem) { TM_SERIES_FLAG_STACK, _("Stack") };
  items[n++] = (LegendItem) { TM_SERIES_FLAG_HEAP, _("Heap") };
  if (self->store != NULL && tm_memory_store_has_free_data (self->store))
    items[n++] = (LegendItem) { TM_SERIES_FLAG_FREE, _("Free") };
  items[n++] = (LegendItem) { TM_SERIES_FLAG_FRAGMENTATION, _("Fragmentation (right axis)") };
  items[n++] = (LegendItem) { TM_SERIES_FLAG_NONE, _("Window peak") };

  for (guint i = 0; i < n; i++)
    {
      int w, h;

      pango_layout_set_text (text, items[i].label, -1);
      pango_layout_get_pixel_size (text, &w, &h);
      items[i].swatch_x = x;
      graphene_rect_init (&items[i].box, x - 4, LEGEND_Y - MAX (h, 14) / 2.0 - 2, 18 + w + 8, MAX (h, 14) + 4);
      x += 18 + w + 16;
    }

  return n;
}

static gboolean
is_hidden (TmTimeline    *self,
           TmSeriesFlags  series)
{
  return (self->hidden_series & series) != 0;
}

TmSeriesFlags
_tm_timeline_legend_at (TmTimeline *self,
                        double      x,
                        double      y)
{
  g_autoptr(PangoLayout) text = NULL;
  LegendItem items[5];
  guint n;

  if (!_tm_timeline_has_data (self) || y > TM_CHART_MARGIN_TOP)
    return TM_SERIES_FLAG_NONE;

  text = tm_axis_create_label_layout (GTK_WIDGET (self));
  n = legend_items (self, text, items);
  for (guint i = 0; i < n; i++)
    if (graphene_rect_contains_point (&items[i].box, &GRAPHENE_POINT_INIT (x, y)))
      return items[i].series;

  return TM_SERIES_FLAG_NONE;
}

char *
_tm_timeline_legend_tooltip (TmTimeline    *self,
                             TmSeriesFlags  series)
{
  const char *name;

  switch (series)
    {
    case TM_SERIES_FLAG_STACK:
      name = _("Stack");
      break;
    case TM_SERIES_FLAG_HEAP:
      name = _("Heap");
      break;
    case TM_SERIES_FLAG_FREE:
      name = _("Free");
      break;
    case TM_SERIES_FLAG_FRAGMENTATION:
      name = _("Fragmentation");
      break;
    case TM_SERIES_FLAG_NONE:
    default:
      return NULL;
    }

  /* Translators: the tooltip of a timeline legend entry, e.g. "Click to hide Heap" */
  return g_strdup_printf (is_hidden (self, series) ? _("Click to show %s") : _("Click to hide %s"), name);
}

static void
legend_pressed_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   TmTimeline      *self)
{
  TmSeriesFlags series = _tm_timeline_legend_at (self, x, y);

  if (series == TM_SERIES_FLAG_NONE || self->session == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }

  /* Claimed: the timeline's own click (select a time) and drag never see it. */
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  tm_timeline_toggle_series (self, series);
}

static void
legend_motion_cb (GtkEventControllerMotion *motion,
                  double                    x,
                  double                    y,
                  TmTimeline               *self)
{
  gboolean over = _tm_timeline_legend_at (self, x, y) != TM_SERIES_FLAG_NONE;

  if (self->dragging)
    return;
  if (over != self->over_legend)
    {
      self->over_legend = over;
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), over ? "pointer" : "crosshair");
      gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
    }
}

void
_tm_timeline_legend_init (TmTimeline *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (gesture), GTK_PHASE_CAPTURE);
  g_signal_connect (gesture, "pressed", G_CALLBACK (legend_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (legend_motion_cb), self);
  g_signal_connect (controller, "enter", G_CALLBACK (legend_motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

TmSeriesFlags
tm_timeline_legend_at (TmTimeline *self,
                       double      x,
                       double      y)
{
  g_return_val_if_fail (TM_IS_TIMELINE (self), TM_SERIES_FLAG_NONE);

  return _tm_timeline_legend_at (self, x, y);
}
