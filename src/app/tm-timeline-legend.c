/* tm-timeline-legend.c — the timeline's legend, whose entries toggle their
 * series
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The legend row sits in the timeline's top margin. Stack, Heap, Free and
 * Fragmentation are toggles: a click (the pointer becomes a hand over
 * them) hides or shows the series through the timeline's hidden-series,
 * so the window's menu and the exported image follow (docs/ui.md,
 * "Legend"). The legend layer (tm-legend-layer) draws the entries and
 * says which one a point is on; this file makes them toggles.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-legend-layer.h"
#include "tm-timeline-private.h"

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
  TmTimelineLayout layout;
  TmChartGeometry geometry;
  cairo_surface_t *surface;
  TmChartCanvas *canvas;
  cairo_t *cr;
  gint64 y_step;
  guint entry;

  if (!_tm_timeline_has_data (self) || y > TM_CHART_MARGIN_TOP)
    return TM_SERIES_FLAG_NONE;

  /* The legend layer lays its entries out as it draws them: ask it, with
   * the widget's label font, on a canvas that draws nothing. */
  text = tm_axis_create_label_layout (GTK_WIDGET (self));
  _tm_timeline_compute_layout (self, gtk_widget_get_width (GTK_WIDGET (self)),
                               gtk_widget_get_height (GTK_WIDGET (self)), &layout, &y_step);
  _tm_timeline_geometry (self, &layout, y_step, gtk_widget_get_width (GTK_WIDGET (self)),
                         gtk_widget_get_height (GTK_WIDGET (self)), &geometry);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cr = cairo_create (surface);
  canvas = tm_chart_canvas_new_for_layout (cr, FALSE, TM_CHART_CANVAS_TEXT_DRAWN, text);
  tm_legend_layer_set_free (TM_LEGEND_LAYER (self->legend_layer), tm_memory_store_has_free_data (self->store));
  entry = tm_legend_layer_item_at (TM_LEGEND_LAYER (self->legend_layer), canvas, &geometry, x, y);
  tm_chart_canvas_free (canvas);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  if (entry == 1u << TM_SERIES_STACK)
    return TM_SERIES_FLAG_STACK;
  if (entry == 1u << TM_SERIES_HEAP)
    return TM_SERIES_FLAG_HEAP;
  if (entry == 1u << TM_SERIES_FREE)
    return TM_SERIES_FLAG_FREE;
  if (entry == TM_LEGEND_FRAGMENTATION)
    return TM_SERIES_FLAG_FRAGMENTATION;
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
