/* tm-overview.c — a thin strip with the whole profile and the visible range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The strip lines up with the timeline's plot above it through the shared
 * chart margins (tm-axis.h). Its memory picture
 * (one LOD bucket per pixel column over all the data) is cached as a render
 * node until the size, the store or the style changes; the window, the peak
 * and the selection are drawn over it.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tm-axis.h"
#include "tm-format.h"
#include "tm-lod.h"
#include "tm-overview.h"
#include "tm-palette.h"

#define STRIP_HEIGHT     40
#define WHEEL_ZOOM_STEP  1.25

struct _TmOverview
{
  TmView         parent_instance;

  TmViewport    *viewport;   /* the session's */
  GSignalGroup  *viewport_signals;

  GskRenderNode *data_node;
  int            cache_width;
  int            cache_height;
  int            cache_scale;
  gboolean       cache_dark;
  gint64         cache_data_start;
  gint64         cache_data_end;
  TmLodBucket   *buckets;
  guint          n_buckets;

  double         drag_offset;
  guint          dragging : 1;
};

G_DEFINE_FINAL_TYPE (TmOverview, tm_overview, TM_TYPE_VIEW)

static TmMemoryStore *
get_store (TmOverview *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  return session != NULL ? tm_session_get_memory_store (session) : NULL;
}

/* The strip's rectangle: within the chart margins, so that it lines up
 * with a timeline of the same width above it. */
static graphene_rect_t
strip_rect (TmOverview *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double w = width - TM_CHART_MARGIN_LEFT - TM_CHART_MARGIN_RIGHT;

  return GRAPHENE_RECT_INIT (TM_CHART_MARGIN_LEFT, 2, MAX (w, 1), MAX (height - 4, 1));
}

static double
time_to_x (TmOverview            *self,
           const graphene_rect_t *strip,
           gint64                 t)
{
  gint64 start = tm_viewport_get_data_start (self->viewport);
  gint64 end = tm_viewport_get_data_end (self->viewport);

  return strip->origin.x + (double) (t - start) / (double) MAX (end - start, 1) * strip->size.width;
}

static gint64
x_to_time (TmOverview            *self,
           const graphene_rect_t *strip,
           double                 x)
{
  gint64 start = tm_viewport_get_data_start (self->viewport);
  gint64 end = tm_viewport_get_data_end (self->viewport);

  return start + (gint64) llround ((x - strip->origin.x) / strip->size.width * (double) (end - start));
}

static void
invalidate (TmOverview *self)
{
  g_clear_pointer (&self->data_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static GskRenderNode *
build_data_node (TmOverview            *self,
                 const graphene_rect_t *strip,
                 int                    scale,
                 gboolean               dark)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  TmMemoryStore *store = get_store (self);
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  GskRoundedRect rounded;
  GdkRGBA fg, trough, heap, heap_line, free_fill, stack;
  TmLod *lod;
  gboolean show_free;
  double y_max, bottom;
  guint n_cols;
  double col_w;

  gtk_style_context_get_color (context, &fg);
  trough = fg;
  trough.alpha = dark ? 0.08f : 0.05f;
  tm_palette_get_color (TM_PALETTE_HEAP, dark, &heap_line);
  heap = heap_line;
  heap.alpha = 0.55f;
  tm_palette_get_color (TM_PALETTE_FREE, dark, &free_fill);
  free_fill.alpha = 0.25f;
  tm_palette_get_color (TM_PALETTE_STACK, dark, &stack);
  stack.alpha = 0.7f;

  gsk_rounded_rect_init_from_rect (&rounded, strip, 4);
  gtk_snapshot_push_rounded_clip (snapshot, &rounded);
  gtk_snapshot_append_color (snapshot, &trough, strip);

  if (store == NULL || tm_memory_store_get_n_snapshots (store) == 0 ||
      (lod = tm_memory_store_get_lod (store)) == NULL)
    {
      gtk_snapshot_pop (snapshot);
      return gtk_snapshot_free_to_node (snapshot);
    }

  show_free = tm_memory_store_has_free_data (store);
  y_max = (double) MAX (show_free ? tm_lod_get_max_total (lod) : tm_lod_get_max_used (lod), 1);
  y_max *= 1.08;   /* a little headroom under the rounded top */
  bottom = strip->origin.y + strip->size.height;

  n_cols = (guint) MAX (1.0, floor (strip->size.width * scale));
  col_w = strip->size.width / n_cols;
  if (self->n_buckets < n_cols)
    {
      self->buckets = g_renew (TmLodBucket, self->buckets, n_cols);
      self->n_buckets = n_cols;
    }
  tm_lod_query_columns (lod,
                        tm_viewport_get_data_start (self->viewport),
                        tm_viewport_get_data_end (self->viewport),
                        n_cols, self->buckets);

  for (guint c = 0; c < n_cols; c++)
    {
      const TmLodBucket *b = &self->buckets[c];
      double x = strip->origin.x + c * col_w;
      double y_used = bottom - (double) b->used_max / y_max * strip->size.height;
      double y_total = bottom - (double) b->total_max / y_max * strip->size.height;
      double y_stack = bottom - (double) b->stack_max / y_max * strip->size.height;

      if (!b->has_data)
        continue;

      if (show_free && y_total < y_used)
        gtk_snapshot_append_color (snapshot, &free_fill, &GRAPHENE_RECT_INIT (x, y_total, col_w, y_used - y_total));
      gtk_snapshot_append_color (snapshot, &heap, &GRAPHENE_RECT_INIT (x, y_used, col_w, bottom - y_used));
      gtk_snapshot_append_color (snapshot, &heap_line, &GRAPHENE_RECT_INIT (x, y_used - 0.5, col_w, 1));
      if (b->stack_max > 0)
        gtk_snapshot_append_color (snapshot, &stack, &GRAPHENE_RECT_INIT (x, y_stack, col_w, bottom - y_stack));
    }

  gtk_snapshot_pop (snapshot);

  return gtk_snapshot_free_to_node (snapshot);
}

static void
tm_overview_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  TmOverview *self = TM_OVERVIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  gboolean dark = tm_palette_is_dark_style (widget);
  graphene_rect_t strip;
  TmMemoryStore *store = get_store (self);
  GdkRGBA accent, dim, fg, peak;
  GskRoundedRect window;
  double wx0, wx1, px;

  if (width <= 0 || height <= 0 || self->viewport == NULL)
    return;

  strip = strip_rect (self);

  if (self->data_node == NULL ||
      self->cache_width != width ||
      self->cache_height != height ||
      self->cache_scale != scale ||
      self->cache_dark != dark ||
      self->cache_data_start != tm_viewport_get_data_start (self->viewport) ||
      self->cache_data_end != tm_viewport_get_data_end (self->viewport))
    {
      g_clear_pointer (&self->data_node, gsk_render_node_unref);
      self->data_node = build_data_node (self, &strip, scale, dark);
      self->cache_data_start = tm_viewport_get_data_start (self->viewport);
      self->cache_data_end = tm_viewport_get_data_end (self->viewport);
      self->cache_width = width;
      self->cache_height = height;
      self->cache_scale = scale;
      self->cache_dark = dark;
    }
  gtk_snapshot_append_node (snapshot, self->data_node);

  if (store == NULL || tm_memory_store_get_n_snapshots (store) == 0)
    return;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  tm_palette_get_color (TM_PALETTE_ACCENT, dark, &accent);
  dim.red = dim.green = dim.blue = dark ? 0.14f : 1.0f;
  dim.alpha = dark ? 0.6f : 0.65f;

  /* The peak, and the selected time. */
  peak = fg;
  peak.alpha = 0.6f;
  px = round (time_to_x (self, &strip, tm_memory_store_get_summary (store)->peak_time_ps));
  gtk_snapshot_append_color (snapshot, &peak, &GRAPHENE_RECT_INIT (px - 0.5, strip.origin.y, 1, strip.size.height));
  if (tm_session_get_has_selected_time (tm_view_get_session (TM_VIEW (self))))
    {
      double sx = round (time_to_x (self, &strip, tm_session_get_selected_time (tm_view_get_session (TM_VIEW (self)))));

      gtk_snapshot_append_color (snapshot, &accent, &GRAPHENE_RECT_INIT (sx - 1, strip.origin.y, 2, strip.size.height));
    }

  /* Dim what is not visible, outline what is. */
  tm_overview_get_window (self, &wx0, &wx1);
  if (wx0 > strip.origin.x)
    gtk_snapshot_append_color (snapshot, &dim,
                               &GRAPHENE_RECT_INIT (strip.origin.x, strip.origin.y, wx0 - strip.origin.x, strip.size.height));
  if (wx1 < strip.origin.x + strip.size.width)
    gtk_snapshot_append_color (snapshot, &dim,
                               &GRAPHENE_RECT_INIT (wx1, strip.origin.y, strip.origin.x + strip.size.width - wx1, strip.size.height));

  gsk_rounded_rect_init_from_rect (&window, &GRAPHENE_RECT_INIT (wx0, strip.origin.y, wx1 - wx0, strip.size.height), 4);
  gtk_snapshot_append_border (snapshot, &window,
                              (float[4]) { 2, 2, 2, 2 },
                              (GdkRGBA[4]) { accent, accent, accent, accent });
}

void
tm_overview_get_window (TmOverview *self,
                        double     *x0,
                        double     *x1)
{
  graphene_rect_t strip;
  double a, b;

  g_return_if_fail (TM_IS_OVERVIEW (self));

  strip = strip_rect (self);
  if (self->viewport == NULL)
    {
      a = strip.origin.x;
      b = strip.origin.x + strip.size.width;
    }
  else
    {
      a = time_to_x (self, &strip, tm_viewport_get_start (self->viewport));
      b = time_to_x (self, &strip, tm_viewport_get_end (self->viewport));
      /* Never thinner than 6 px, so it can be seen and grabbed. */
      if (b - a < 6)
        {
          double centre = (a + b) / 2;

          a = centre - 3;
          b = centre + 3;
        }
    }

  if (x0 != NULL)
    *x0 = a;
  if (x1 != NULL)
    *x1 = b;
}

/* Moves the visible range so that its start is at x − drag_offset. */
static void
move_window_to (TmOverview *self,
                double      x)
{
  graphene_rect_t strip = strip_rect (self);
  gint64 span = tm_viewport_get_span (self->viewport);
  gint64 start = x_to_time (self, &strip, x - self->drag_offset);

  tm_viewport_set_range (self->viewport, start, start + span);
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               TmOverview     *self)
{
  graphene_rect_t strip;
  double wx0, wx1, start_x, end_x;

  if (self->viewport == NULL || get_store (self) == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }

  strip = strip_rect (self);
  start_x = time_to_x (self, &strip, tm_viewport_get_start (self->viewport));
  end_x = time_to_x (self, &strip, tm_viewport_get_end (self->viewport));
  tm_overview_get_window (self, &wx0, &wx1);

  self->dragging = TRUE;
  if (x >= wx0 && x <= wx1)
    self->drag_offset = x - start_x;
  else
    {
      /* Elsewhere: centre the window there at once. */
      self->drag_offset = (end_x - start_x) / 2;
      move_window_to (self, x);
    }
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                TmOverview     *self)
{
  double x, y;

  if (!self->dragging)
    return;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  move_window_to (self, x + dx);
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             TmOverview     *self)
{
  self->dragging = FALSE;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "pointer");
}

static void
click_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  TmOverview      *self)
{
  if (n_press == 2 && self->viewport != NULL)
    tm_viewport_reset (self->viewport);
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           TmOverview               *self)
{
  if (self->viewport == NULL || get_store (self) == NULL)
    return FALSE;

  if (gtk_event_controller_scroll_get_unit (scroll) == GDK_SCROLL_UNIT_WHEEL)
    {
      tm_viewport_zoom_at_fraction (self->viewport, pow (WHEEL_ZOOM_STEP, -dy), 0.5);
      return TRUE;
    }
  if (dx != 0.0)
    {
      graphene_rect_t strip = strip_rect (self);
      double data_span = (double) (tm_viewport_get_data_end (self->viewport) - tm_viewport_get_data_start (self->viewport));

      tm_viewport_pan (self->viewport, (gint64) llround (dx * data_span / strip.size.width));
      return TRUE;
    }

  return FALSE;
}

static void
tm_overview_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = TM_CHART_MARGIN_LEFT + TM_CHART_MARGIN_RIGHT + 100;
  else
    *minimum = *natural = STRIP_HEIGHT;
}

static void
tm_overview_css_changed (GtkWidget         *widget,
                         GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (tm_overview_parent_class)->css_changed (widget, change);

  invalidate (TM_OVERVIEW (widget));
}

/* The viewport follows the session's. */
static void
tm_overview_session_changed (TmView    *view,
                             TmSession *old_session)
{
  TmOverview *self = TM_OVERVIEW (view);
  TmSession *session = tm_view_get_session (view);

  if (session != NULL)
    g_set_object (&self->viewport, tm_session_get_viewport (session));
  else
    g_clear_object (&self->viewport);
  g_signal_group_set_target (self->viewport_signals, self->viewport);
  invalidate (self);
}

static void
tm_overview_dispose (GObject *object)
{
  TmOverview *self = TM_OVERVIEW (object);

  g_clear_object (&self->viewport_signals);
  g_clear_object (&self->viewport);
  g_clear_pointer (&self->data_node, gsk_render_node_unref);
  g_clear_pointer (&self->buckets, g_free);

  G_OBJECT_CLASS (tm_overview_parent_class)->dispose (object);
}

static void
tm_overview_class_init (TmOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TmViewClass *view_class = TM_VIEW_CLASS (klass);

  object_class->dispose = tm_overview_dispose;

  widget_class->snapshot = tm_overview_snapshot;
  widget_class->measure = tm_overview_measure;
  widget_class->css_changed = tm_overview_css_changed;
  /* The session: whose memory store, viewport and selected time the
   * strip shows. */
  view_class->session_changed = tm_overview_session_changed;

  gtk_widget_class_set_css_name (widget_class, "overview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
store_changed_cb (TmOverview *self)
{
  invalidate (self);
}

static void
selection_changed_cb (TmOverview *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
viewport_changed_cb (TmOverview *self)
{
  /* snapshot() rebuilds the picture if the data range changed. */
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
tm_overview_init (TmOverview *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GSignalGroup *session_signals;
  GtkEventController *controller;
  GtkGesture *gesture;

  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_cursor_from_name (widget, "pointer");
  gtk_widget_set_tooltip_text (widget, _("The whole profile: drag the highlighted window to move the visible range, double-click to show everything"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline overview"),
                                  -1);

  session_signals = tm_view_get_session_signals (TM_VIEW (self));
  g_signal_group_connect_swapped (session_signals, "notify::memory-store", G_CALLBACK (store_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::has-selected-time", G_CALLBACK (selection_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-time", G_CALLBACK (selection_changed_cb), self);

  self->viewport_signals = g_signal_group_new (TM_TYPE_VIEWPORT);
  g_signal_group_connect_swapped (self->viewport_signals, "changed", G_CALLBACK (viewport_changed_cb), self);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  g_signal_connect (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (widget, controller);
}

GtkWidget *
tm_overview_new (TmSession *session)
{
  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);

  return g_object_new (TM_TYPE_OVERVIEW, "session", session, NULL);
}
