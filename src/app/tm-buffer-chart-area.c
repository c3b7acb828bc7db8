/* tm-buffer-chart-area.c — one of the Memory Viewer's charts on screen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-buffer-chart-area.h"
#include "tm-palette.h"

struct _TmBufferChartArea
{
  GtkWidget          parent_instance;

  TmBufferChartKind  kind;
  TmBufferCharts    *charts;
  GskRenderNode     *node;      /* the chart, for node_width × node_height */
  int                node_width;
  int                node_height;
  guint              cursor;
};

G_DEFINE_FINAL_TYPE (TmBufferChartArea, tm_buffer_chart_area, GTK_TYPE_WIDGET)

enum {
  HOVER,
  PRESSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
draw_chart (TmBufferChartArea *self,
            int                width,
            int                height,
            const TmPalette   *palette)
{
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  TmChartCanvas *canvas = tm_chart_canvas_new_for_layout (cr, FALSE, TM_CHART_CANVAS_TEXT_DRAWN, layout);
  TmChartPalette colors;

  tm_palette_to_chart (palette, &colors);
  tm_chart_canvas_set_palette (canvas, &colors);
  tm_buffer_charts_set_size (self->charts, self->kind, width, height);
  tm_buffer_charts_draw (self->charts, self->kind, canvas);
  tm_chart_canvas_free (canvas);
  cairo_destroy (cr);
  g_clear_pointer (&self->node, gsk_render_node_unref);
  self->node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  self->node_width = width;
  self->node_height = height;
}

static void
tm_buffer_chart_area_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  TmBufferChartArea *self = TM_BUFFER_CHART_AREA (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  TmPalette palette;

  if (self->charts == NULL || width <= 0 || height <= 0)
    return;
  tm_palette_init_for_widget (&palette, widget);
  if (self->node == NULL || self->node_width != width || self->node_height != height)
    draw_chart (self, width, height, &palette);
  if (self->node != NULL)
    gtk_snapshot_append_node (snapshot, self->node);

  if (self->cursor != G_MAXUINT && self->kind != TM_BUFFER_CHART_BARS)
    {
      const TmChartGeometry *g = tm_chart_get_geometry (tm_buffer_charts_get_chart (self->charts, self->kind));
      double x0 = tm_buffer_charts_point_to_x (self->charts, self->kind, self->cursor);
      double x1 = tm_buffer_charts_point_to_x (self->charts, self->kind, self->cursor + 1);
      GdkRGBA fill = palette.accent;

      fill.alpha = 0.22f;
      gtk_snapshot_append_color (snapshot, &fill,
                                 &GRAPHENE_RECT_INIT (x0, g->plot.y, MAX (x1 - x0, 1), g->plot.height));
      gtk_snapshot_append_color (snapshot, &palette.accent,
                                 &GRAPHENE_RECT_INIT (x0, g->plot.y, 1, g->plot.height));
    }

  /* A ring whenever the chart has the focus. */
  if (gtk_widget_has_focus (widget))
    {
      GskRoundedRect ring;
      GdkRGBA focus = palette.accent;
      float widths[4] = { 2, 2, 2, 2 };
      GdkRGBA colors[4];

      focus.alpha = 0.6f;
      for (guint k = 0; k < 4; k++)
        colors[k] = focus;
      gsk_rounded_rect_init_from_rect (&ring, &GRAPHENE_RECT_INIT (1, 1, width - 2, height - 2), 6);
      gtk_snapshot_append_border (snapshot, &ring, widths, colors);
    }
}

static void
motion_cb (TmBufferChartArea *self,
           double             x,
           double             y)
{
  g_signal_emit (self, signals[HOVER], 0, x, y);
}

static void
leave_cb (TmBufferChartArea *self)
{
  g_signal_emit (self, signals[HOVER], 0, -1.0, -1.0);
}

static void
pressed_cb (TmBufferChartArea *self,
            int                n_press,
            double             x,
            double             y,
            GtkGestureClick   *gesture)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  g_signal_emit (self, signals[PRESSED], 0, x, y);
}

static void
focus_changed_cb (TmBufferChartArea *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
style_changed_cb (TmBufferChartArea *self)
{
  tm_buffer_chart_area_redraw (self);
}

static void
tm_buffer_chart_area_css_changed (GtkWidget         *widget,
                                  GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (tm_buffer_chart_area_parent_class)->css_changed (widget, change);
  style_changed_cb (TM_BUFFER_CHART_AREA (widget));
}

static void
tm_buffer_chart_area_dispose (GObject *object)
{
  TmBufferChartArea *self = TM_BUFFER_CHART_AREA (object);

  g_clear_object (&self->charts);
  g_clear_pointer (&self->node, gsk_render_node_unref);

  G_OBJECT_CLASS (tm_buffer_chart_area_parent_class)->dispose (object);
}

static void
tm_buffer_chart_area_class_init (TmBufferChartAreaClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_buffer_chart_area_dispose;
  widget_class->snapshot = tm_buffer_chart_area_snapshot;
  widget_class->css_changed = tm_buffer_chart_area_css_changed;

  signals[HOVER] = g_signal_new ("hover", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                 G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
  signals[PRESSED] = g_signal_new ("pressed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_DOUBLE);

  gtk_widget_class_set_css_name (widget_class, "tmbufferchart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tm_buffer_chart_area_init (TmBufferChartArea *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *focus = gtk_event_controller_focus_new ();

  self->cursor = G_MAXUINT;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  g_signal_connect_swapped (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect_swapped (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (focus_changed_cb), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (focus_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);
}

GtkWidget *
tm_buffer_chart_area_new (TmBufferChartKind kind)
{
  TmBufferChartArea *self = g_object_new (TM_TYPE_BUFFER_CHART_AREA, NULL);

  self->kind = kind;
  return GTK_WIDGET (self);
}

void
tm_buffer_chart_area_set_charts (TmBufferChartArea *self,
                                 TmBufferCharts    *charts)
{
  g_return_if_fail (TM_IS_BUFFER_CHART_AREA (self));
  g_return_if_fail (charts == NULL || TM_IS_BUFFER_CHARTS (charts));

  g_set_object (&self->charts, charts);
  self->cursor = G_MAXUINT;
  tm_buffer_chart_area_redraw (self);
}

TmBufferCharts *
tm_buffer_chart_area_get_charts (TmBufferChartArea *self)
{
  g_return_val_if_fail (TM_IS_BUFFER_CHART_AREA (self), NULL);

  return self->charts;
}

TmChartCanvas *
tm_buffer_chart_area_new_canvas (TmBufferChartArea  *self,
                                 cairo_t           **cr)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);

  *cr = cairo_create (surface);
  cairo_surface_destroy (surface);
  return tm_chart_canvas_new_for_layout (*cr, FALSE, TM_CHART_CANVAS_TEXT_DRAWN, layout);
}

void
tm_buffer_chart_area_set_cursor (TmBufferChartArea *self,
                                 guint              point)
{
  g_return_if_fail (TM_IS_BUFFER_CHART_AREA (self));

  if (self->cursor == point)
    return;
  self->cursor = point;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tm_buffer_chart_area_redraw (TmBufferChartArea *self)
{
  g_return_if_fail (TM_IS_BUFFER_CHART_AREA (self));

  g_clear_pointer (&self->node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
