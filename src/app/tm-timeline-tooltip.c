/* tm-timeline-tooltip.c — the timeline's hover, picking and tooltips
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pointer answers for the time under it: the state then is the one
 * the last snapshot at or before it left (a crosshair and a read-out over
 * the plot), and the tooltip says so and describes that snapshot's memory
 * event; over the band, the HLO module under the pointer. Never a snapshot
 * after the pointer, which may be off screen (docs/ui.md, "Picking").
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-timeline-private.h"

static int
pick_module (TmTimeline *self,
             double      x,
             double      y)
{
  TmTimelineLayout layout;
  gint64 t;

  if (self->module_spans == NULL || self->module_spans->len == 0)
    return -1;

  _tm_timeline_current_layout (self, &layout);
  if (y < layout.hlo_band.origin.y - 2 || y > layout.hlo_band.origin.y + layout.hlo_band.size.height + 2 ||
      x < layout.plot.origin.x || x > layout.plot.origin.x + layout.plot.size.width)
    return -1;

  t = tm_viewport_x_to_time (self->viewport, x - layout.plot.origin.x, layout.plot.size.width);
  for (guint i = 0; i < self->module_spans->len; i++)
    {
      const ModuleSpan *m = &g_array_index (self->module_spans, ModuleSpan, i);

      if (m->start_ps > t)
        break;
      if (m->end_ps >= t)
        return (int) m->index;
    }

  return -1;
}

gboolean
tm_timeline_pick_time (TmTimeline *self,
                       double      x,
                       gint64     *time_ps,
                       guint      *index)
{
  TmTimelineLayout layout;
  gint64 t;

  g_return_val_if_fail (TM_IS_TIMELINE (self), FALSE);

  if (!_tm_timeline_has_data (self))
    return FALSE;

  _tm_timeline_current_layout (self, &layout);
  if (x < layout.plot.origin.x || x > layout.plot.origin.x + layout.plot.size.width)
    return FALSE;

  t = tm_viewport_x_to_time (self->viewport, x - layout.plot.origin.x, layout.plot.size.width);
  if (time_ps != NULL)
    *time_ps = t;
  if (index != NULL)
    *index = t < tm_memory_store_get_times (self->store)[0]
             ? G_MAXUINT
             : tm_memory_store_find_at_or_before (self->store, t);

  return TRUE;
}

gboolean
tm_timeline_pick (TmTimeline *self,
                  double      x,
                  guint      *index)
{
  return tm_timeline_pick_time (self, x, NULL, index);
}

/* Appends format with every argument (strings) markup-escaped. */
G_GNUC_PRINTF (2, 3)
static void
append_markup (GString    *str,
               const char *format,
               ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_markup_vprintf_escaped (format, args);
  va_end (args);
  g_string_append (str, text);
}

char *
tm_timeline_describe_snapshot (TmTimeline *self,
                               guint       index)
{
  g_autoptr(GError) error = NULL;
  TmActivity activity = { 0 };
  GString *str;
  g_autofree char *time = NULL;
  g_autofree char *requested = NULL;
  g_autofree char *allocated = NULL;
  g_autofree char *in_use = NULL;
  g_autofree char *stack = NULL;
  g_autofree char *heap = NULL;
  g_autofree char *free_text = NULL;
  g_autofree char *frag = NULL;
  g_autofree char *step = NULL;
  const char *kind;

  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (_tm_timeline_has_data (self), NULL);
  g_return_val_if_fail (index < tm_memory_store_get_n_snapshots (self->store), NULL);

  if (!tm_memory_store_get_activity (self->store, index, &activity, &error))
    return g_markup_printf_escaped ("%s", error->message);

  switch (activity.kind)
    {
    case TM_ACTIVITY_ALLOCATION:
      kind = _("Allocation");
      break;
    case TM_ACTIVITY_DEALLOCATION:
      kind = _("Deallocation");
      break;
    case TM_ACTIVITY_UNKNOWN:
    default:
      kind = _("Memory event");
      break;
    }

  time = tm_format_time_ms (activity.time_ps);
  requested = tm_format_bytes (activity.requested_bytes);
  allocated = tm_format_bytes (activity.allocation_bytes);
  in_use = tm_format_bytes (activity.stack_bytes + activity.heap_bytes);
  stack = tm_format_bytes (activity.stack_bytes);
  heap = tm_format_bytes (activity.heap_bytes);
  free_text = tm_format_bytes (activity.free_bytes);
  frag = tm_format_percent (activity.fragmentation);

  /* Every value is escaped: "< 0.01 %" is not markup. */
  str = g_string_new (NULL);
  append_markup (str, "<b>%s</b> · %s\n", kind, time);
  /* What the file does not hold is "unknown", never a made-up 0 or -1
   * (docs/ui.md): a request of 0 bytes for a real allocation, step -1. */
  if (activity.requested_bytes == 0 && activity.allocation_bytes > 0)
    {
      g_free (requested);
      requested = g_strdup (_("unknown"));
    }
  append_markup (str, _("Requested %s · allocated %s"), requested, allocated);
  g_string_append_c (str, '\n');
  append_markup (str, _("Op: %s"), activity.op_name[0] != '\0' ? activity.op_name : _("unknown"));
  g_string_append_c (str, '\n');
  step = activity.step_id >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, activity.step_id) : g_strdup (_("unknown"));
  append_markup (str, _("Step %s · region %s · %s %s"), step,
                 activity.region_type[0] ? activity.region_type : "—",
                 activity.data_type[0] ? activity.data_type : "—",
                 activity.shape[0] ? activity.shape : "—");
  g_string_append_c (str, '\n');
  append_markup (str, _("In use %s (stack %s + heap %s)"), in_use, stack, heap);
  g_string_append_c (str, '\n');
  if (tm_memory_store_has_free_data (self->store))
    append_markup (str, _("Free %s · fragmentation %s"), free_text, frag);
  else
    append_markup (str, _("Fragmentation %s"), frag);

  tm_activity_clear (&activity);

  return g_string_free (str, FALSE);
}

static char *
describe_module (TmTimeline *self,
                 guint       index)
{
  const TmHloModule *m = &g_array_index (self->hlo_modules, TmHloModule, index);
  g_autofree char *start = tm_format_time_ms (m->start_ps);
  g_autofree char *end = tm_format_time_ms (m->end_ps);
  g_autofree char *duration = tm_format_duration (m->end_ps - m->start_ps);

  /* Translators: tooltip of an HLO module span: name, device, start – end, duration */
  return g_markup_printf_escaped (_("<b>%s</b> on %s\n%s – %s (%s)"),
                                  m->name != NULL && m->name[0] != '\0' ? m->name : _("unnamed module"), m->device, start, end, duration);
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
  int module;
  guint index;
  gint64 t;

  if (self->dragging)
    return FALSE;

  if (!keyboard_mode && _tm_timeline_legend_at (self, x, y) != TM_SERIES_FLAG_NONE)
    {
      g_autofree char *legend = _tm_timeline_legend_tooltip (self, _tm_timeline_legend_at (self, x, y));

      gtk_tooltip_set_text (tooltip, legend);
      return TRUE;
    }

  module = pick_module (self, x, y);
  if (module >= 0)
    {
      g_autofree char *markup = describe_module (self, module);

      gtk_tooltip_set_markup (tooltip, markup);
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
   * once the pointer had moved; without one it follows the pointer. */
  gtk_tooltip_set_markup (tooltip, text);

  return TRUE;
}

void
_tm_timeline_set_hover (TmTimeline *self,
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
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_tm_timeline_update_hover (TmTimeline *self)
{
  guint index;
  gint64 t;

  if (self->pointer_inside && tm_timeline_pick_time (self, self->pointer_x, &t, &index))
    _tm_timeline_set_hover (self, TRUE, t, index);
  else
    _tm_timeline_set_hover (self, FALSE, 0, G_MAXUINT);
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
  _tm_timeline_set_hover (self, FALSE, 0, G_MAXUINT);
}

void
_tm_timeline_draw_hover (TmTimeline             *self,
                         GtkSnapshot            *snapshot,
                         PangoLayout            *text,
                         const TmTimelineLayout *layout,
                         const TmPalette        *palette)
{
  const graphene_rect_t *plot = &layout->plot;
  const gint64 *times, *stack, *heap;
  g_autofree char *time_text = NULL;
  g_autofree char *used_text = NULL;
  g_autofree char *readout = NULL;
  GdkRGBA line = palette->fg;
  gint64 used;
  double x, y;

  if (!self->hovering || !_tm_timeline_has_data (self) || self->dragging)
    return;

  times = tm_memory_store_get_times (self->store);
  stack = tm_memory_store_get_stack (self->store);
  heap = tm_memory_store_get_heap (self->store);
  used = self->hover_index != G_MAXUINT ? stack[self->hover_index] + heap[self->hover_index] : 0;

  /* At the pointer's time, at the height of the state then. */
  x = round (_tm_timeline_time_to_x (self, layout, self->hover_time)) + 0.5;
  y = round (tm_axis_value_to_y (&layout->plot, layout->y_max, (double) used)) + 0.5;

  line.alpha = 0.45f;
  if (x >= plot->origin.x && x <= plot->origin.x + plot->size.width)
    {
      tm_axis_append_rect (snapshot, &line, x - 0.5, plot->origin.y, 1, plot->size.height);
      if (self->hover_index != G_MAXUINT)
        {
          for (double hx = plot->origin.x; hx < plot->origin.x + plot->size.width; hx += 6)
            tm_axis_append_rect (snapshot, &line, hx, y - 0.5, 3, 1);
          _tm_timeline_append_dot (snapshot, &palette->background, &palette->fg, x, y, 3.5);
        }
    }

  (void) times;
  time_text = tm_axis_format_time (self->hover_time, tm_viewport_get_span (self->viewport));
  used_text = tm_format_bytes (used);
  /* Translators: hover read-out above the timeline: time · memory in use */
  readout = g_strdup_printf (_("%s · %s in use"), time_text, used_text);
  tm_axis_draw_label (snapshot, text, readout, plot->origin.x + plot->size.width, 14, 1.0, 0.5, &palette->fg, NULL);
}

void
_tm_timeline_tooltip_init (TmTimeline *self)
{
  GtkEventController *controller;

  self->hover_index = G_MAXUINT;
  self->hovering = FALSE;
  self->described_index = G_MAXUINT;

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
