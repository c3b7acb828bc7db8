/* tm-memory-map-input.c — zooming, panning, picking and the tooltip of the memory map
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time moves the session's viewport, so the usage timeline follows:
 * the wheel zooms time at the pointer, a drag pans time and addresses,
 * Shift+drag or right-drag zooms to a rubber band (a tall, narrow band
 * zooms only addresses, a flat one only time). Shift+wheel zooms
 * addresses at the pointer. A click selects the allocation under the
 * pointer in the session (an empty spot clears it). Keys when focused:
 * + − ← → Home for time, Up/Down pan addresses, Shift+Up/Shift+Down zoom
 * them, Page Up/Page Down zoom addresses too, Escape clears the selection.
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-memory-map-private.h"
#include "tm-op-label.h"

#define DRAG_THRESHOLD   4.0
#define WHEEL_ZOOM_STEP  1.25
#define KEY_ZOOM_STEP    1.5
#define KEY_PAN_FRACTION 0.1
#define PICK_RADIUS      2.0

static double
x_fraction (TmMemoryMap *self,
            double       x)
{
  const TmChartRect *plot = &self->geometry.plot;

  return CLAMP ((x - plot->x) / plot->width, 0.0, 1.0);
}

/* Zooms addresses by factor (> 1: in) keeping the offset at canvas y. */
static void
zoom_addresses (TmMemoryMap *self,
                double       factor,
                double       y)
{
  double anchor = tm_chart_geometry_y_to_axis (&self->geometry, y);
  double span = (self->y1 - self->y0) / factor;
  double frac = (self->y1 - anchor) / (self->y1 - self->y0);

  self->y1 = anchor + frac * span;
  self->y0 = self->y1 - span;
  _tm_memory_map_clamp_addresses (self);
}

static void
pan_addresses (TmMemoryMap *self,
               double       fraction)
{
  double d = (self->y1 - self->y0) * fraction;

  self->y0 += d;
  self->y1 += d;
  _tm_memory_map_clamp_addresses (self);
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           TmMemoryMap              *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  const TmChartRect *plot = &self->geometry.plot;
  double y;

  if (!_tm_memory_map_has_data (self) || dy == 0.0)
    return FALSE;

  y = self->pointer_inside ? self->pointer_y : plot->y + plot->height / 2;
  if (state & GDK_SHIFT_MASK)
    zoom_addresses (self, pow (WHEEL_ZOOM_STEP, -dy), y);
  else
    tm_viewport_zoom_at_fraction (self->viewport, pow (WHEEL_ZOOM_STEP, -dy),
                                  self->pointer_inside ? x_fraction (self, self->pointer_x) : 0.5);
  return TRUE;
}

static void
set_hover (TmMemoryMap *self,
           guint        index)
{
  if (self->hover == index)
    return;
  self->hover = index;
  gtk_widget_trigger_tooltip_query (self->canvas);
  _tm_memory_map_sync_pointer (self);
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           TmMemoryMap              *self)
{
  self->pointer_inside = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;
  if (!self->dragging)
    set_hover (self, _tm_memory_map_pick (self, x, y));
}

static void
leave_cb (GtkEventControllerMotion *motion,
          TmMemoryMap              *self)
{
  self->pointer_inside = FALSE;
  set_hover (self, TM_ALLOCATIONS_NONE);
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               TmMemoryMap    *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  if (!_tm_memory_map_has_data (self))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->dragging = TRUE;
  self->drag_moved = FALSE;
  self->banding = button == GDK_BUTTON_SECONDARY || (state & GDK_SHIFT_MASK) != 0;
  self->drag_x0 = self->drag_x1 = x;
  self->drag_y0 = self->drag_y1 = y;
  self->drag_view_start = tm_viewport_get_start (self->viewport);
  self->drag_view_end = tm_viewport_get_end (self->viewport);
  self->drag_ay0 = self->y0;
  self->drag_ay1 = self->y1;
  gtk_widget_grab_focus (self->canvas);
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                TmMemoryMap    *self)
{
  const TmChartRect *plot = &self->geometry.plot;

  if (!self->dragging || (!self->drag_moved && hypot (dx, dy) < DRAG_THRESHOLD))
    return;
  if (!self->drag_moved)
    {
      self->drag_moved = TRUE;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      gtk_widget_set_cursor_from_name (self->canvas, self->banding ? "crosshair" : "grabbing");
      set_hover (self, TM_ALLOCATIONS_NONE);
    }

  self->drag_x1 = self->drag_x0 + dx;
  self->drag_y1 = self->drag_y0 + dy;
  if (self->banding)
    _tm_memory_map_sync_pointer (self);
  else
    {
      double span = (double) (self->drag_view_end - self->drag_view_start);
      gint64 delta = (gint64) llround (-dx * span / plot->width);
      double ay = dy * (self->drag_ay1 - self->drag_ay0) / plot->height;

      self->y0 = self->drag_ay0 + ay;
      self->y1 = self->drag_ay1 + ay;
      _tm_memory_map_clamp_addresses (self);
      tm_viewport_set_range (self->viewport, self->drag_view_start + delta, self->drag_view_end + delta);
    }
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             TmMemoryMap    *self)
{
  if (!self->dragging)
    return;

  if (self->banding && self->drag_moved)
    {
      const TmChartGeometry *g = &self->geometry;
      const TmChartRect *plot = &g->plot;
      double x0 = CLAMP (MIN (self->drag_x0, self->drag_x1), plot->x, plot->x + plot->width);
      double x1 = CLAMP (MAX (self->drag_x0, self->drag_x1), plot->x, plot->x + plot->width);
      double y0 = CLAMP (MIN (self->drag_y0, self->drag_y1), plot->y, plot->y + plot->height);
      double y1 = CLAMP (MAX (self->drag_y0, self->drag_y1), plot->y, plot->y + plot->height);
      /* Both ends read before either range moves the geometry. */
      double a0 = tm_chart_geometry_y_to_axis (g, y1), a1 = tm_chart_geometry_y_to_axis (g, y0);
      gint64 t0 = tm_chart_geometry_x_to_time (g, x0), t1 = tm_chart_geometry_x_to_time (g, x1);

      /* A tall, narrow band zooms addresses only; a flat one time only. */
      if (y1 - y0 >= DRAG_THRESHOLD && (y1 - y0) / plot->height > 0.5 * (x1 - x0) / plot->width)
        tm_memory_map_set_address_range (self, a0, a1);
      if (x1 - x0 >= DRAG_THRESHOLD && (x1 - x0) / plot->width > 0.5 * (y1 - y0) / plot->height)
        tm_viewport_set_range (self->viewport, t0, t1);
    }

  self->dragging = FALSE;
  self->banding = FALSE;
  gtk_widget_set_cursor_from_name (self->canvas, "crosshair");
  _tm_memory_map_sync_pointer (self);
}

static void
drag_cancel_cb (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                TmMemoryMap      *self)
{
  self->dragging = FALSE;
  self->banding = FALSE;
  gtk_widget_set_cursor_from_name (self->canvas, "crosshair");
  _tm_memory_map_sync_pointer (self);
}

static void
click_released_cb (GtkGestureClick *click,
                   int              n_press,
                   double           x,
                   double           y,
                   TmMemoryMap     *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  if (session == NULL || !_tm_memory_map_has_data (self) || self->drag_moved)
    return;
  if (n_press == 2)
    {
      /* Double-click shows everything, as on the timeline. */
      tm_viewport_reset (self->viewport);
      tm_memory_map_set_address_range (self, 0, (double) tm_allocations_get_axis_length (self->allocations));
      return;
    }
  tm_session_select_allocation (session, _tm_memory_map_pick (self, x, y));
  gtk_widget_grab_focus (self->canvas);
}

/* ------------------------------------------------------------------ */
/* Picking and the tooltip                                              */

guint
_tm_memory_map_pick (TmMemoryMap *self,
                     double       x,
                     double       y)
{
  const TmChartGeometry *g = &self->geometry;
  graphene_rect_t plot = GRAPHENE_RECT_INIT (g->plot.x, g->plot.y, g->plot.width, g->plot.height);
  TmAllocations *shown = _tm_memory_map_shown (self);
  double a_lo, a_hi;
  guint picked;

  if (!_tm_memory_map_has_data (self))
    return TM_ALLOCATIONS_NONE;
  if (!graphene_rect_contains_point (&plot, &GRAPHENE_POINT_INIT (x, y)))
    return TM_ALLOCATIONS_NONE;

  /* What is drawn in the pixels around the pointer: the largest there,
   * of those the filter keeps (as the index's). */
  a_lo = MAX (tm_chart_geometry_y_to_axis (g, y + PICK_RADIUS), 0.0);
  a_hi = MAX (tm_chart_geometry_y_to_axis (g, y - PICK_RADIUS), 0.0);
  /* At one moment (a block spans the width) x is that moment. */
  picked = tm_allocations_pick (shown,
                                g->moment ? g->start_ps : tm_chart_geometry_x_to_time (g, x - PICK_RADIUS),
                                g->moment ? g->start_ps : tm_chart_geometry_x_to_time (g, x + PICK_RADIUS),
                                tm_allocations_axis_to_address (shown, a_lo),
                                tm_allocations_axis_to_address (shown, a_hi));
  return picked != TM_ALLOCATIONS_NONE ? tm_allocations_get_parent_index (shown, picked) : TM_ALLOCATIONS_NONE;
}

char *
_tm_memory_map_describe (TmMemoryMap *self,
                         guint        index)
{
  TmMemoryStore *store = tm_allocations_get_store (self->allocations);
  const TmAllocation *a = tm_allocations_get (self->allocations, index);
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL, *op = NULL, *plain = NULL, *fields = NULL;
  g_autofree char *alloc = NULL, *alloc_exact = NULL, *req = NULL, *start = NULL, *end = NULL, *life = NULL;
  TmActivity act;
  gint64 t0 = tm_allocations_get_start_time (self->allocations, index);
  gint64 t1 = tm_allocations_get_end_time (self->allocations, index);

  if (!tm_memory_store_get_activity (store, tm_allocations_get_event (self->allocations, index), &act, &error))
    return g_markup_escape_text (error->message, -1);

  /* What the file does not hold is "unknown" or left out, as everywhere
   * (docs/ui.md, "Values the file does not hold"). */
  name = tm_op_label_display_name (act.op_name, FALSE);
  plain = tm_op_label_breakable (name);
  op = g_markup_escape_text (plain, -1);
  g_clear_pointer (&plain, g_free);
  if (_tm_memory_map_get_segments (self) != NULL)
    /* A snapshot's: its action or how it was found, and its stream
     * (docs/pytorch.md, "In the views"); no step, data type or shape. */
    plain = g_strdup_printf ("%s · %s", act.region_type, act.shape);
  else
    plain = tm_op_label_describe_fields (act.step_id, act.region_type, act.data_type, act.shape);
  fields = g_markup_escape_text (plain, -1);
  alloc = tm_format_bytes (TM_ALLOCATION_BYTES (a));
  alloc_exact = tm_format_bytes_exact (TM_ALLOCATION_BYTES (a));
  req = act.requested_bytes == 0 && TM_ALLOCATION_BYTES (a) > 0 ? g_strdup (_("unknown")) : tm_format_bytes (act.requested_bytes);
  start = a->start != TM_ALLOCATIONS_OPEN ? tm_format_time_ms (t0) : g_strdup (_("before the profile"));
  end = tm_format_time_ms (t1);
  life = tm_format_duration (t1 - t0);

  g_string_append_printf (s, "<b>%s</b>\n%s\n", op, fields);
  g_string_append_printf (s, _("Allocated: %s (%s) · requested %s"), alloc, alloc_exact, req);
  if (a->address != 0)
    {
      g_autofree char *hex = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", a->address);

      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("Address: %s"), hex);
    }
  g_string_append_c (s, '\n');
  if (a->end != TM_ALLOCATIONS_OPEN)
    g_string_append_printf (s, _("Allocated at %s · freed at %s"), start, end);
  else
    g_string_append_printf (s, _("Allocated at %s · never freed"), start);
  g_string_append_c (s, '\n');
  if (a->start != TM_ALLOCATIONS_OPEN && a->end != TM_ALLOCATIONS_OPEN)
    g_string_append_printf (s, _("Lifetime: %s"), life);
  else
    g_string_append_printf (s, _("Lifetime: at least %s (open-ended)"), life);
  tm_activity_clear (&act);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static gboolean
query_tooltip_cb (GtkWidget   *widget,
                  int          x,
                  int          y,
                  gboolean     keyboard_mode,
                  GtkTooltip  *tooltip,
                  TmMemoryMap *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  guint index;
  g_autofree char *markup = NULL;

  if (keyboard_mode && session != NULL)
    index = tm_session_get_selected_allocation (session);
  else
    index = _tm_memory_map_pick (self, x, y);
  if (index == TM_ALLOCATIONS_NONE || self->dragging)
    return FALSE;

  markup = _tm_memory_map_describe (self, index);
  gtk_tooltip_set_custom (tooltip, tm_op_label_new_tooltip (markup));
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Keys                                                                 */

static void
key_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  TmMemoryMap *self = TM_MEMORY_MAP (widget);
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  const TmChartRect *plot = &self->geometry.plot;

  if (!_tm_memory_map_has_data (self))
    return;

  if (g_str_equal (action_name, "memory-map.zoom-in"))
    tm_viewport_zoom_at_fraction (self->viewport, KEY_ZOOM_STEP, 0.5);
  else if (g_str_equal (action_name, "memory-map.zoom-out"))
    tm_viewport_zoom_at_fraction (self->viewport, 1.0 / KEY_ZOOM_STEP, 0.5);
  else if (g_str_equal (action_name, "memory-map.pan-left"))
    tm_viewport_pan_fraction (self->viewport, -KEY_PAN_FRACTION);
  else if (g_str_equal (action_name, "memory-map.pan-right"))
    tm_viewport_pan_fraction (self->viewport, KEY_PAN_FRACTION);
  else if (g_str_equal (action_name, "memory-map.pan-up"))
    pan_addresses (self, KEY_PAN_FRACTION);
  else if (g_str_equal (action_name, "memory-map.pan-down"))
    pan_addresses (self, -KEY_PAN_FRACTION);
  else if (g_str_equal (action_name, "memory-map.zoom-addresses-in"))
    zoom_addresses (self, KEY_ZOOM_STEP, plot->y + plot->height / 2);
  else if (g_str_equal (action_name, "memory-map.zoom-addresses-out"))
    zoom_addresses (self, 1.0 / KEY_ZOOM_STEP, plot->y + plot->height / 2);
  else if (g_str_equal (action_name, "memory-map.reset"))
    {
      tm_viewport_reset (self->viewport);
      tm_memory_map_set_address_range (self, 0, (double) tm_allocations_get_axis_length (self->allocations));
    }
  else if (g_str_equal (action_name, "memory-map.unselect") && session != NULL)
    tm_session_select_allocation (session, TM_ALLOCATIONS_NONE);
}

void
_tm_memory_map_input_class_init (GtkWidgetClass *widget_class)
{
  static const struct { const char *action; guint key; GdkModifierType mods; } keys[] = {
    { "memory-map.zoom-in", GDK_KEY_plus, 0 },
    { "memory-map.zoom-in", GDK_KEY_plus, GDK_SHIFT_MASK },
    { "memory-map.zoom-in", GDK_KEY_equal, 0 },
    { "memory-map.zoom-in", GDK_KEY_KP_Add, 0 },
    { "memory-map.zoom-out", GDK_KEY_minus, 0 },
    { "memory-map.zoom-out", GDK_KEY_KP_Subtract, 0 },
    { "memory-map.pan-left", GDK_KEY_Left, 0 },
    { "memory-map.pan-right", GDK_KEY_Right, 0 },
    { "memory-map.pan-up", GDK_KEY_Up, 0 },
    { "memory-map.pan-down", GDK_KEY_Down, 0 },
    { "memory-map.zoom-addresses-in", GDK_KEY_Up, GDK_SHIFT_MASK },
    { "memory-map.zoom-addresses-out", GDK_KEY_Down, GDK_SHIFT_MASK },
    { "memory-map.zoom-addresses-in", GDK_KEY_Page_Up, 0 },
    { "memory-map.zoom-addresses-out", GDK_KEY_Page_Down, 0 },
    { "memory-map.reset", GDK_KEY_Home, 0 },
    { "memory-map.unselect", GDK_KEY_Escape, 0 },
  };
  const char *last = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      if (last == NULL || !g_str_equal (last, keys[i].action))
        {
          gboolean seen = FALSE;

          for (guint j = 0; j < i; j++)
            seen |= g_str_equal (keys[j].action, keys[i].action);
          if (!seen)
            gtk_widget_class_install_action (widget_class, keys[i].action, NULL, key_action);
        }
      last = keys[i].action;
      gtk_widget_class_add_binding_action (widget_class, keys[i].key, keys[i].mods, keys[i].action, NULL);
    }
}

void
_tm_memory_map_input_init (TmMemoryMap *self)
{
  GtkEventController *scroll, *motion;
  GtkGesture *drag, *click;

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL |
                                            GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (self->canvas, scroll);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (self->canvas, motion);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  g_signal_connect (drag, "cancel", G_CALLBACK (drag_cancel_cb), self);
  gtk_widget_add_controller (self->canvas, GTK_EVENT_CONTROLLER (drag));

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (self->canvas, GTK_EVENT_CONTROLLER (click));

  gtk_widget_set_has_tooltip (self->canvas, TRUE);
  g_signal_connect (self->canvas, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
}
