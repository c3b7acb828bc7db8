/* tm-timeline-input.c — zooming, panning and selecting on the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wheel zooms at the pointer (Shift+wheel pans; a touchpad pans, with
 * Ctrl it zooms), a pinch zooms around the fingers, a drag pans, Shift+drag
 * or right-drag zooms to a rubber band, a double-click shows everything;
 * + − ← → Home when focused. Everything moves the session's viewport.
 *
 * A click selects the time under the pointer: drawn at once, given to
 * the session (tm_session_select_time()) only once it is known not to be
 * the first half of a double-click, which shows everything and leaves the
 * session's selection as it was.
 */
#include "config.h"

#include <math.h>

#include "tm-timeline-private.h"

#define DRAG_THRESHOLD   4.0
#define WHEEL_ZOOM_STEP  1.25
#define KEY_ZOOM_STEP    1.5
#define KEY_PAN_FRACTION 0.1

static double
pointer_fraction (TmTimeline *self,
                  double      x)
{
  TmTimelineLayout layout;

  _tm_timeline_current_layout (self, &layout);
  return CLAMP ((x - layout.plot.origin.x) / layout.plot.size.width, 0.0, 1.0);
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           TmTimeline               *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  GdkScrollUnit unit = gtk_event_controller_scroll_get_unit (scroll);
  double fraction = self->pointer_inside ? pointer_fraction (self, self->pointer_x) : 0.5;
  TmTimelineLayout layout;

  if (!_tm_timeline_has_data (self))
    return FALSE;

  _tm_timeline_current_layout (self, &layout);

  if (unit == GDK_SCROLL_UNIT_WHEEL)
    {
      if (state & GDK_SHIFT_MASK)
        {
          /* Shift+wheel: pan, as in most horizontal timelines. */
          tm_viewport_pan_fraction (self->viewport, (dy + dx) * KEY_PAN_FRACTION);
          return TRUE;
        }
      if (dy != 0.0)
        tm_viewport_zoom_at_fraction (self->viewport, pow (WHEEL_ZOOM_STEP, -dy), fraction);
      if (dx != 0.0)
        tm_viewport_pan_fraction (self->viewport, dx * KEY_PAN_FRACTION);
      return TRUE;
    }

  /* Touchpad (surface units, pixels): Ctrl zooms smoothly, otherwise
   * horizontal movement pans and vertical movement is left to the page. */
  if (state & GDK_CONTROL_MASK)
    {
      tm_viewport_zoom_at_fraction (self->viewport, exp (-dy * 0.01), fraction);
      return TRUE;
    }
  if (dx != 0.0)
    {
      tm_viewport_pan (self->viewport,
                       (gint64) llround (dx * (double) tm_viewport_get_span (self->viewport) / layout.plot.size.width));
      return TRUE;
    }

  return FALSE;
}

static void
pinch_begin_cb (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                TmTimeline       *self)
{
  TmTimelineLayout layout;
  double cx, cy;

  if (self->viewport == NULL)
    return;

  _tm_timeline_current_layout (self, &layout);
  if (!gtk_gesture_get_bounding_box_center (gesture, &cx, &cy))
    cx = layout.plot.origin.x + layout.plot.size.width / 2;

  self->pinch_span = tm_viewport_get_span (self->viewport);
  self->pinch_anchor = tm_viewport_x_to_time (self->viewport, cx - layout.plot.origin.x, layout.plot.size.width);
}

static void
pinch_scale_changed_cb (GtkGestureZoom *gesture,
                        double          scale,
                        TmTimeline     *self)
{
  double cx, cy;

  if (self->viewport == NULL || !(scale > 0.0) ||
      !gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    return;

  /* The time under the fingers' centre stays under it, wherever they go. */
  tm_viewport_set_span_at (self->viewport,
                           (gint64) llround ((double) self->pinch_span / scale),
                           self->pinch_anchor,
                           pointer_fraction (self, cx));
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               TmTimeline     *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  TmTimelineLayout layout;

  _tm_timeline_current_layout (self, &layout);
  if (!_tm_timeline_has_data (self) || x < layout.plot.origin.x || x > layout.plot.origin.x + layout.plot.size.width)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }

  self->dragging = TRUE;
  self->drag_moved = FALSE;
  self->banding = button == GDK_BUTTON_SECONDARY || (state & GDK_SHIFT_MASK) != 0;
  self->drag_start_x = x;
  self->band_x0 = self->band_x1 = x;
  self->drag_view_start = tm_viewport_get_start (self->viewport);
  self->drag_view_end = tm_viewport_get_end (self->viewport);

  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                TmTimeline     *self)
{
  TmTimelineLayout layout;

  if (!self->dragging)
    return;

  if (!self->drag_moved && fabs (dx) < DRAG_THRESHOLD)
    return;

  if (!self->drag_moved)
    {
      self->drag_moved = TRUE;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), self->banding ? "col-resize" : "grabbing");
      _tm_timeline_set_hover (self, FALSE, 0, G_MAXUINT);
    }

  _tm_timeline_current_layout (self, &layout);
  if (self->banding)
    {
      self->band_x1 = self->drag_start_x + dx;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  else
    {
      double span = (double) (self->drag_view_end - self->drag_view_start);
      gint64 delta = (gint64) llround (-dx * span / layout.plot.size.width);

      tm_viewport_set_range (self->viewport, self->drag_view_start + delta, self->drag_view_end + delta);
    }
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             TmTimeline     *self)
{
  if (!self->dragging)
    return;

  if (self->banding && self->drag_moved)
    {
      TmTimelineLayout layout;
      double x0 = MIN (self->band_x0, self->band_x1);
      double x1 = MAX (self->band_x0, self->band_x1);

      _tm_timeline_current_layout (self, &layout);
      x0 = CLAMP (x0, layout.plot.origin.x, layout.plot.origin.x + layout.plot.size.width);
      x1 = CLAMP (x1, layout.plot.origin.x, layout.plot.origin.x + layout.plot.size.width);
      /* The view becomes the band, with its figures (tm-timeline-range.c). */
      if (x1 - x0 >= 2.0)
        tm_timeline_show_range (self,
                                tm_viewport_x_to_time (self->viewport, x0 - layout.plot.origin.x, layout.plot.size.width),
                                tm_viewport_x_to_time (self->viewport, x1 - layout.plot.origin.x, layout.plot.size.width));
    }

  self->dragging = FALSE;
  self->banding = FALSE;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "crosshair");
  _tm_timeline_update_hover (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_cancel_cb (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                TmTimeline       *self)
{
  self->dragging = FALSE;
  self->banding = FALSE;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "crosshair");
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The click is not the first half of a double-click: the session gets it. */
static gboolean
commit_selection_cb (gpointer user_data)
{
  TmTimeline *self = user_data;

  self->pending_selection_source = 0;
  if (self->session != NULL)
    tm_session_select_time (self->session, self->pending_time);
  gtk_widget_queue_draw (GTK_WIDGET (self));

  return G_SOURCE_REMOVE;
}

void
_tm_timeline_drop_pending_selection (TmTimeline *self)
{
  if (self->pending_selection_source == 0)
    return;

  g_clear_handle_id (&self->pending_selection_source, g_source_remove);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
click_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  TmTimeline      *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));

  if (n_press == 2)
    {
      self->double_clicked = TRUE;
      /* The first click's selection never reaches the session. */
      _tm_timeline_drop_pending_selection (self);
      if (self->viewport != NULL)
        tm_viewport_reset (self->viewport);
    }
  else
    self->double_clicked = FALSE;
}

static void
click_released_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   TmTimeline      *self)
{
  int double_click_ms = 400;
  gint64 t;

  if (n_press != 1 || self->double_clicked || self->drag_moved)
    return;

  if (tm_timeline_pick_time (self, x, &t, NULL))
    {
      self->pending_time = t;
      gtk_widget_queue_draw (GTK_WIDGET (self));

      g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-double-click-time", &double_click_ms, NULL);
      g_clear_handle_id (&self->pending_selection_source, g_source_remove);
      self->pending_selection_source = g_timeout_add (MAX (double_click_ms, 1), commit_selection_cb, self);
    }
}

/* Zooming by key keeps the selected time in place when it is visible. */
static void
zoom_by_key (TmTimeline *self,
             double      factor)
{
  gint64 selected;

  if (self->viewport == NULL)
    return;

  if (_tm_timeline_get_shown_selection (self, &selected) &&
      selected >= tm_viewport_get_start (self->viewport) &&
      selected <= tm_viewport_get_end (self->viewport))
    tm_viewport_zoom (self->viewport, factor, selected);
  else
    tm_viewport_zoom_at_fraction (self->viewport, factor, 0.5);
}

static void
zoom_in_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  zoom_by_key (TM_TIMELINE (widget), KEY_ZOOM_STEP);
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  zoom_by_key (TM_TIMELINE (widget), 1.0 / KEY_ZOOM_STEP);
}

static void
pan_left_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  TmTimeline *self = TM_TIMELINE (widget);

  if (self->viewport != NULL)
    tm_viewport_pan_fraction (self->viewport, -KEY_PAN_FRACTION);
}

static void
pan_right_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  TmTimeline *self = TM_TIMELINE (widget);

  if (self->viewport != NULL)
    tm_viewport_pan_fraction (self->viewport, KEY_PAN_FRACTION);
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  TmTimeline *self = TM_TIMELINE (widget);

  if (self->viewport != NULL)
    tm_viewport_reset (self->viewport);
}

void
_tm_timeline_update_actions (TmTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean data = _tm_timeline_has_data (self);

  gtk_widget_action_set_enabled (widget, "timeline.zoom-in", data && tm_viewport_can_zoom_in (self->viewport));
  gtk_widget_action_set_enabled (widget, "timeline.zoom-out", data && tm_viewport_can_zoom_out (self->viewport));
  gtk_widget_action_set_enabled (widget, "timeline.pan-left",
                                 data && tm_viewport_get_start (self->viewport) > tm_viewport_get_data_start (self->viewport));
  gtk_widget_action_set_enabled (widget, "timeline.pan-right",
                                 data && tm_viewport_get_end (self->viewport) < tm_viewport_get_data_end (self->viewport));
  gtk_widget_action_set_enabled (widget, "timeline.reset", data && tm_viewport_is_zoomed (self->viewport));
}


void
_tm_timeline_input_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_left_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_right_action);
  gtk_widget_class_install_action (widget_class, "timeline.reset", NULL, reset_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_SHIFT_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Left, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Right, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "timeline.reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Home, 0, "timeline.reset", NULL);
}

void
_tm_timeline_input_init (TmTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_cursor_from_name (widget, "crosshair");

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (widget, controller);

  /* The focus ring is part of the overlay. */
  controller = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (controller, "enter", G_CALLBACK (gtk_widget_queue_draw), widget);
  g_signal_connect_swapped (controller, "leave", G_CALLBACK (gtk_widget_queue_draw), widget);
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (pinch_scale_changed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  /* Primary button: drag pans (Shift: rubber band); secondary: rubber band. */
  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  g_signal_connect (gesture, "cancel", G_CALLBACK (drag_cancel_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  g_signal_connect (gesture, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  _tm_timeline_update_actions (self);
}
