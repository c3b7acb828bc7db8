/* tm-timeline-range.c — what a range of the timeline holds: its duration,
 * the change in memory over it and the peak within it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * While the user drags a rubber band (Shift+drag or right-drag) the
 * readout describes the band; once the band has zoomed the view, it
 * describes the visible range, which is the band's, under the heading
 * "Range", until the view changes in any other way (docs/ui.md, "Range
 * figures"). Memory is memory in use (stack + heap); the state at a time
 * is the one the last snapshot at or before it left, as everywhere.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-timeline-private.h"

/* Stack + heap at snapshot i. */
static inline gint64
used_at (const gint64 *stack,
         const gint64 *heap,
         guint         i)
{
  return stack[i] + heap[i];
}

gboolean
tm_timeline_range_figures (TmTimeline     *self,
                           gint64          start_ps,
                           gint64          end_ps,
                           TmRangeFigures *out)
{
  const gint64 *times, *stack, *heap;
  guint n, first, last;

  g_return_val_if_fail (TM_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!_tm_timeline_has_data (self) || end_ps < start_ps)
    return FALSE;

  n = tm_memory_store_get_n_snapshots (self->store);
  times = tm_memory_store_get_times (self->store);
  stack = tm_memory_store_get_stack (self->store);
  heap = tm_memory_store_get_heap (self->store);
  first = tm_memory_store_find_at_or_before (self->store, start_ps);
  last = tm_memory_store_find_at_or_before (self->store, end_ps);

  *out = (TmRangeFigures) { start_ps, end_ps, 0, 0, 0, 0, 0 };
  out->start_bytes = first < n ? used_at (stack, heap, first) : 0;
  out->end_bytes = last < n ? used_at (stack, heap, last) : 0;
  out->delta_bytes = out->end_bytes - out->start_bytes;

  /* The peak: the state at the start, then every snapshot up to the end;
   * the first time the highest value is reached. */
  out->peak_bytes = out->start_bytes;
  out->peak_time_ps = start_ps;
  if (last < n)
    {
      guint i = first < n ? first + 1 : 0;

      for (; i <= last; i++)
        if (used_at (stack, heap, i) > out->peak_bytes)
          {
            out->peak_bytes = used_at (stack, heap, i);
            out->peak_time_ps = MAX (times[i], start_ps);
          }
    }

  return TRUE;
}

gboolean
tm_timeline_get_shown_range (TmTimeline     *self,
                             TmRangeFigures *out)
{
  g_return_val_if_fail (TM_IS_TIMELINE (self), FALSE);

  if (self->banding && self->drag_moved)
    {
      TmTimelineLayout layout;
      double x0 = MIN (self->band_x0, self->band_x1);
      double x1 = MAX (self->band_x0, self->band_x1);

      _tm_timeline_current_layout (self, &layout);
      x0 = CLAMP (x0, layout.plot.origin.x, layout.plot.origin.x + layout.plot.size.width);
      x1 = CLAMP (x1, layout.plot.origin.x, layout.plot.origin.x + layout.plot.size.width);
      return tm_timeline_range_figures (self,
                                        tm_viewport_x_to_time (self->viewport, x0 - layout.plot.origin.x, layout.plot.size.width),
                                        tm_viewport_x_to_time (self->viewport, x1 - layout.plot.origin.x, layout.plot.size.width),
                                        out);
    }

  if (!self->range_shown || self->viewport == NULL)
    return FALSE;
  return tm_timeline_range_figures (self, tm_viewport_get_start (self->viewport),
                                    tm_viewport_get_end (self->viewport), out);
}

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

char *
tm_timeline_describe_range (TmTimeline           *self,
                            const TmRangeFigures *figures)
{
  gint64 span = figures->end_ps - figures->start_ps;
  g_autofree char *start = tm_axis_format_time (figures->start_ps, span);
  g_autofree char *end = tm_axis_format_time (figures->end_ps, span);
  g_autofree char *duration = tm_axis_format_time (span, span);
  g_autofree char *delta = tm_format_bytes (ABS (figures->delta_bytes));
  g_autofree char *peak = tm_format_bytes (figures->peak_bytes);
  g_autofree char *peak_time = tm_axis_format_time (figures->peak_time_ps, span);
  const char *sign = figures->delta_bytes > 0 ? "+" : figures->delta_bytes < 0 ? "−" : "±";

  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);

  /* Translators: the timeline's range read-out: start – end (duration),
   * the change in memory in use from start to end, and the highest
   * memory in use within the range, at a time. E.g. "Range 2.500 ms –
   * 9.500 ms (7.000 ms) · change +84.0 MiB · peak 90.0 MiB at 9.000 ms" */
  return g_strdup_printf (_("Range %s – %s (%s) · change %s%s · peak %s at %s"),
                          start, end, duration, sign, delta, peak, peak_time);
}

void
_tm_timeline_draw_range_figures (TmTimeline             *self,
                                 GtkSnapshot            *snapshot,
                                 PangoLayout            *text,
                                 const TmTimelineLayout *layout,
                                 const TmPalette        *palette)
{
  g_autofree char *label = NULL;
  TmRangeFigures figures;
  double y = layout->plot.origin.y + 4;

  if (!tm_timeline_get_shown_range (self, &figures))
    return;

  /* Under the selected scope's label when there is one. */
  if (self->session != NULL && tm_session_get_selected_scope (self->session) != NULL)
    y += 20;
  label = tm_timeline_describe_range (self, &figures);
  pango_layout_set_ellipsize (text, PANGO_ELLIPSIZE_END);
  pango_layout_set_width (text, (int) (layout->plot.size.width - 12) * PANGO_SCALE);
  tm_axis_draw_label (snapshot, text, label, layout->plot.origin.x + 6, y, 0.0, 0.0,
                      &palette->fg, &palette->background);
  pango_layout_set_width (text, -1);
  pango_layout_set_ellipsize (text, PANGO_ELLIPSIZE_NONE);
}
