/* tm-timeline-input.c — zooming, panning, selecting and pointing on the
 * timeline
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
 * session's selection as it was. A click on a legend entry toggles its
 * series (the widget's "timeline.toggle-series" action). A click on an
 * XLA module's execution (the band under the plot), or on the planned
 * level drawn over one, opens that module on the Memory Viewer page
 * (docs/ui.md, "Memory Viewer", "Linked to the run").
 *
 * The pointer answers for the time under it: the state then is the one
 * the last snapshot at or before it left (a crosshair and a read-out over
 * the plot), and the tooltip says so and describes that snapshot's memory
 * event; over the band, the HLO module under the pointer. Never a
 * snapshot after the pointer, which may be off screen (docs/ui.md,
 * "Picking").
 *
 * Everything here reads the geometry the widget keeps for its size and
 * range; nothing lays the chart out again.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tm-axis.h"
#include "tm-memory-viewer-query.h"
#include "tm-op-label.h"
#include "tm-static-plan.h"
#include "tm-static-selection.h"
#include "tm-timeline-private.h"

#define DRAG_THRESHOLD   4.0
#define WHEEL_ZOOM_STEP  1.25
#define KEY_ZOOM_STEP    1.5
#define KEY_PAN_FRACTION 0.1

static double
pointer_fraction (TmTimeline *self,
                  double      x)
{
  const TmChartRect *plot = &self->geometry.plot;

  return CLAMP ((x - plot->x) / plot->width, 0.0, 1.0);
}

static void set_hover (TmTimeline *self,
                       gboolean    hovering,
                       gint64      time_ps,
                       guint       index);

/* The pointer's layers changed. */
static void
pointer_changed (TmTimeline *self)
{
  _tm_timeline_sync_pointer (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
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
  const TmChartRect *plot = &self->geometry.plot;

  if (!_tm_timeline_has_data (self))
    return FALSE;

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
                       (gint64) llround (dx * (double) tm_viewport_get_span (self->viewport) / plot->width));
      return TRUE;
    }

  return FALSE;
}

static void
pinch_begin_cb (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                TmTimeline       *self)
{
  const TmChartRect *plot = &self->geometry.plot;
  double cx, cy;

  if (self->viewport == NULL)
    return;

  if (!gtk_gesture_get_bounding_box_center (gesture, &cx, &cy))
    cx = plot->x + plot->width / 2;

  self->pinch_span = tm_viewport_get_span (self->viewport);
  self->pinch_anchor = tm_viewport_x_to_time (self->viewport, cx - plot->x, plot->width);
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
  const TmChartRect *plot = &self->geometry.plot;

  if (!_tm_timeline_has_data (self) || x < plot->x || x > plot->x + plot->width)
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
  const TmChartRect *plot = &self->geometry.plot;

  if (!self->dragging)
    return;

  if (!self->drag_moved && fabs (dx) < DRAG_THRESHOLD)
    return;

  if (!self->drag_moved)
    {
      self->drag_moved = TRUE;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), self->banding ? "col-resize" : "grabbing");
      set_hover (self, FALSE, 0, G_MAXUINT);
    }

  if (self->banding)
    {
      self->band_x1 = self->drag_start_x + dx;
      /* The read-out describes the band as it is dragged. */
      _tm_timeline_sync_readout (self, &self->layers);
      pointer_changed (self);
    }
  else
    {
      double span = (double) (self->drag_view_end - self->drag_view_start);
      gint64 delta = (gint64) llround (-dx * span / plot->width);

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
      const TmChartRect *plot = &self->geometry.plot;
      double x0 = CLAMP (MIN (self->band_x0, self->band_x1), plot->x, plot->x + plot->width);
      double x1 = CLAMP (MAX (self->band_x0, self->band_x1), plot->x, plot->x + plot->width);

      /* The view becomes the band, with its figures. */
      if (x1 - x0 >= 2.0)
        tm_timeline_show_range (self,
                                tm_viewport_x_to_time (self->viewport, x0 - plot->x, plot->width),
                                tm_viewport_x_to_time (self->viewport, x1 - plot->x, plot->width));
    }

  self->dragging = FALSE;
  self->banding = FALSE;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "crosshair");
  _tm_timeline_sync_readout (self, &self->layers);
  _tm_timeline_update_hover (self);
  pointer_changed (self);
}

static void
drag_cancel_cb (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                TmTimeline       *self)
{
  self->dragging = FALSE;
  self->banding = FALSE;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "crosshair");
  _tm_timeline_sync_readout (self, &self->layers);
  pointer_changed (self);
}

/* The click is not the first half of a double-click: the session gets it. */
static gboolean
commit_selection_cb (gpointer user_data)
{
  TmTimeline *self = user_data;
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  self->pending_selection_source = 0;
  if (session != NULL)
    tm_session_select_time (session, self->pending_time);
  _tm_timeline_sync_selection (self, &self->layers);
  gtk_widget_queue_draw (GTK_WIDGET (self));

  return G_SOURCE_REMOVE;
}

void
_tm_timeline_drop_pending_selection (TmTimeline *self)
{
  if (self->pending_selection_source == 0)
    return;

  g_clear_handle_id (&self->pending_selection_source, g_source_remove);
  _tm_timeline_sync_selection (self, &self->layers);
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

      g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-double-click-time", &double_click_ms, NULL);
      g_clear_handle_id (&self->pending_selection_source, g_source_remove);
      self->pending_selection_source = g_timeout_add (MAX (double_click_ms, 1), commit_selection_cb, self);
      _tm_timeline_sync_selection (self, &self->layers);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

/* ------------------------------------------------------------------ */
/* The pointer and the tooltip                                          */

static void
set_hover (TmTimeline *self,
           gboolean    hovering,
           gint64      time_ps,
           guint       index)
{
  hovering = !!hovering;
  if (self->hovering == hovering && self->hover_time == time_ps && self->hover_index == index)
    return;

  self->hovering = hovering;
  self->hover_time = time_ps;
  self->hover_index = index;
  pointer_changed (self);
}

void
_tm_timeline_update_hover (TmTimeline *self)
{
  guint index;
  gint64 t;

  if (self->pointer_inside && tm_timeline_pick_time (self, self->pointer_x, &t, &index))
    set_hover (self, TRUE, t, index);
  else
    set_hover (self, FALSE, 0, G_MAXUINT);
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           TmTimeline               *self)
{
  self->pointer_inside = TRUE;
  self->pointer_x = x;
  _tm_timeline_update_hover (self);
}

static void
leave_cb (GtkEventControllerMotion *motion,
          TmTimeline               *self)
{
  self->pointer_inside = FALSE;
  set_hover (self, FALSE, 0, G_MAXUINT);
}

gboolean
_tm_timeline_query_tooltip (GtkWidget  *widget,
                            int         x,
                            int         y,
                            gboolean    keyboard_mode,
                            GtkTooltip *tooltip)
{
  TmTimeline *self = TM_TIMELINE (widget);
  g_autofree char *time = NULL;
  g_autofree char *header = NULL;
  g_autofree char *text = NULL;
  TmSeriesFlags series;
  const TmOutOfMemory *oom;
  int module;
  guint index;
  gint64 t;

  if (self->dragging)
    return FALSE;

  if (!keyboard_mode && (series = tm_timeline_legend_at (self, x, y)) != TM_SERIES_FLAG_NONE)
    {
      g_autofree char *legend = _tm_timeline_legend_tooltip (self, series);

      gtk_tooltip_set_text (tooltip, legend);
      return TRUE;
    }

  if (!keyboard_mode && (oom = tm_timeline_out_of_memory_at (self, x, y)) != NULL)
    {
      g_autofree char *markup = tm_timeline_describe_out_of_memory (self, oom);

      gtk_tooltip_set_markup (tooltip, markup);
      return TRUE;
    }

  module = _tm_timeline_module_at (self, x, y);
  if (module >= 0)
    {
      g_autofree char *about = _tm_timeline_describe_module (self, module);
      /* Translators: the last line of the tooltip of an XLA module's
       * execution on the timeline, and of its planned level */
      g_autofree char *hint = g_markup_printf_escaped ("<i>%s</i>", _("Click to open in the Memory Viewer"));
      g_autofree char *markup = g_strconcat (about, "\n", hint, NULL);

      gtk_tooltip_set_markup (tooltip, markup);
      return TRUE;
    }

  if (!keyboard_mode && (module = _tm_timeline_plan_at (self, x, y)) >= 0)
    {
      g_autofree char *markup = _tm_timeline_describe_plan (self, module);

      gtk_tooltip_set_custom (tooltip, tm_op_label_new_tooltip (markup));
      return TRUE;
    }

  if (keyboard_mode || !tm_timeline_pick_time (self, x, &t, &index))
    return FALSE;

  time = tm_axis_format_time (t, tm_viewport_get_span (self->viewport));
  if (index == G_MAXUINT)
    {
      g_autofree char *markup = g_markup_printf_escaped (_("<b>At %s</b>\nBefore the first memory event"), time);

      gtk_tooltip_set_markup (tooltip, markup);
      return TRUE;
    }

  if (self->described_markup == NULL || self->described_index != index)
    {
      g_free (self->described_markup);
      self->described_markup = tm_timeline_describe_snapshot (self, index);
      self->described_index = index;
    }
  /* Translators: first line of the timeline's tooltip: the time under the
   * pointer; the memory event that set the state then follows */
  header = g_markup_printf_escaped (_("<b>At %s</b>, the state after this event:"), time);
  text = g_strconcat (header, "\n", self->described_markup, NULL);
  /* No tip area: GTK hides a tooltip whenever the pointer leaves the
   * previous one, so a small area kept the tooltip from ever coming back
   * once the pointer had moved; without one it follows the pointer. A
   * long op name wraps (tm_op_label_new_tooltip). */
  gtk_tooltip_set_custom (tooltip, tm_op_label_new_tooltip (text));

  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The legend: its entries toggle their series                          */

/* Shows the module of execution (an index of the profile's modules) on
 * the Memory Viewer page: the module whose plan the execution ran (named
 * as it is, or as it is without its program id; the page makes the same
 * match once the plans are read), in the memory space the timeline's
 * memory id holds when the module has it, else the device's. */
void
_tm_timeline_open_module (TmTimeline *self,
                          guint       execution)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmMemoryViewerQuery *query;
  const TmModulePlan *plan;
  const char *name, *module;
  gint64 space;

  if (session == NULL || self->hlo_modules == NULL || execution >= self->hlo_modules->len)
    return;
  name = g_array_index (self->hlo_modules, TmHloModule, execution).name;
  if (name == NULL || name[0] == '\0')
    return;
  query = tm_memory_viewer_query_get_for_session (session);
  module = tm_static_plan_module_of (tm_memory_viewer_query_get_plans (query), name);
  if (module == NULL)
    module = name;
  space = tm_static_plan_memory_space_of_id (self->store != NULL ? tm_memory_store_get_id (self->store) : NULL);
  plan = tm_memory_viewer_query_lookup_plan (query, module);
  if (space != 0 && plan != NULL)
    {
      gboolean found = FALSE;

      for (guint k = 0; plan->memory_spaces != NULL && k < plan->memory_spaces->len; k++)
        found = found || g_array_index (plan->memory_spaces, gint64, k) == space;
      if (!found)
        space = 0;
    }
  tm_static_selection_show_module (session, module, space);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-page", "s", "memory-viewer");
}

/* The execution a click at (x, y) is about: on the band, or on a planned
 * level; -1 for none. */
static int
execution_at (TmTimeline *self,
              double      x,
              double      y)
{
  int module = _tm_timeline_module_at (self, x, y);
  int level;

  if (module >= 0)
    return module;
  level = _tm_timeline_plan_at (self, x, y);
  return level >= 0 ? (int) g_array_index (self->plan_levels, TmPlanLevel, level).execution : -1;
}

static void
legend_pressed_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   TmTimeline      *self)
{
  TmSeriesFlags series = tm_timeline_legend_at (self, x, y);
  int execution = series == TM_SERIES_FLAG_NONE ? execution_at (self, x, y) : -1;

  if (execution >= 0 && tm_view_get_session (TM_VIEW (self)) != NULL)
    {
      /* Claimed: no time is selected, no drag starts. */
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      _tm_timeline_open_module (self, (guint) execution);
      return;
    }
  if (series == TM_SERIES_FLAG_NONE || tm_view_get_session (TM_VIEW (self)) == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }

  /* Claimed: the timeline's own click (select a time) and drag never see it. */
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_widget_activate_action (GTK_WIDGET (self), "timeline.toggle-series", "u", (guint32) series);
}

static void
legend_motion_cb (GtkEventControllerMotion *motion,
                  double                    x,
                  double                    y,
                  TmTimeline               *self)
{
  /* A legend entry, an execution and a planned level can be clicked. */
  gboolean over = tm_timeline_legend_at (self, x, y) != TM_SERIES_FLAG_NONE || execution_at (self, x, y) >= 0;

  if (self->dragging)
    return;
  if (over != self->over_legend)
    {
      self->over_legend = over;
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), over ? "pointer" : "crosshair");
      gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
    }
}

/* ------------------------------------------------------------------ */
/* The range a rubber band zoomed to                                    */

void
tm_timeline_show_range (TmTimeline *self,
                        gint64      start_ps,
                        gint64      end_ps)
{
  g_return_if_fail (TM_IS_TIMELINE (self));

  if (self->viewport == NULL)
    return;

  tm_viewport_set_range (self->viewport, start_ps, end_ps);
  /* After the viewport's limits: what it shows is the range described. */
  self->range_start = tm_viewport_get_start (self->viewport);
  self->range_end = tm_viewport_get_end (self->viewport);
  self->range_shown = TRUE;
  _tm_timeline_sync_readout (self, &self->layers);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_tm_timeline_range_viewport_changed (TmTimeline *self)
{
  if (self->range_shown &&
      (tm_viewport_get_start (self->viewport) != self->range_start ||
       tm_viewport_get_end (self->viewport) != self->range_end))
    self->range_shown = FALSE;
}

/* ------------------------------------------------------------------ */
/* Keys                                                                 */

/* Zooming by key keeps the selected time in place when it is visible. */
static void
zoom_by_key (TmTimeline *self,
             double      factor)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  gboolean shown = self->pending_selection_source != 0 || (session != NULL && tm_session_get_has_selected_time (session));
  gint64 selected = self->pending_selection_source != 0 ? self->pending_time
                    : session != NULL ? tm_session_get_selected_time (session) : 0;

  if (self->viewport == NULL)
    return;

  if (shown && selected >= tm_viewport_get_start (self->viewport) && selected <= tm_viewport_get_end (self->viewport))
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

  self->hover_index = G_MAXUINT;
  self->described_index = G_MAXUINT;
  gtk_widget_set_has_tooltip (widget, TRUE);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (widget, controller);

  /* The legend's click (capture phase) before the others: GTK lists the
   * controllers last added first, and tests look for the timeline's own
   * click. */
  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (gesture), GTK_PHASE_CAPTURE);
  g_signal_connect (gesture, "pressed", G_CALLBACK (legend_pressed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (legend_motion_cb), self);
  g_signal_connect (controller, "enter", G_CALLBACK (legend_motion_cb), self);
  gtk_widget_add_controller (widget, controller);

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
