/* tm-timeline-text.c — what the timeline says: an event, a module, a
 * legend entry, a range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The words of the tooltip and the read-outs, from the timeline's memory
 * store and modules. What the file does not hold is "unknown", never a
 * made-up 0 or -1 (docs/ui.md, "Values the file does not hold"); times
 * have the precision of the zoom (docs/ui.md, "Picking").
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "tm-axis.h"
#include "tm-format.h"
#include "tm-memory-viewer-query.h"
#include "tm-op-label.h"
#include "tm-static-selection.h"
#include "tm-timeline-private.h"

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
  g_autofree char *name = NULL;
  g_autofree char *op = NULL;
  g_autofree char *fields = NULL;
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
  if (self->layers.caching_allocator)
    {
      /* A snapshot's entry in PyTorch's words: its action (the region
       * type), stack and stream (the shape), the allocated and the not
       * allocated bytes after it (docs/pytorch.md, "In the views"). */
      g_autofree char *unbroken = NULL;

      append_markup (str, "<b>%s</b> · %s\n", activity.region_type, time);
      if (activity.kind != TM_ACTIVITY_UNKNOWN)
        {
          /* Translators: a PyTorch snapshot's alloc or free entry in the
           * timeline's tooltip: its requested bytes */
          append_markup (str, _("%s requested"), requested);
          g_string_append_c (str, '\n');
          name = tm_op_label_display_name (activity.op_name, FALSE);
          unbroken = tm_op_label_breakable (name);
          /* Translators: a PyTorch snapshot's entry in the timeline's
           * tooltip: its stack, outermost frame first */
          append_markup (str, _("Stack: %s"), unbroken);
          g_string_append_c (str, '\n');
        }
      append_markup (str, "%s\n", activity.shape);
      /* Translators: after a PyTorch snapshot's entry, in the timeline's
       * tooltip: the allocated bytes, then the reserved bytes not
       * allocated */
      append_markup (str, _("Allocated %s · not allocated %s"), heap, free_text);
      tm_activity_clear (&activity);
      return g_string_free (str, FALSE);
    }
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
  name = tm_op_label_display_name (activity.op_name, FALSE);
  op = tm_op_label_breakable (name);
  append_markup (str, _("Op: %s"), op);
  g_string_append_c (str, '\n');
  fields = tm_op_label_describe_fields (activity.step_id, activity.region_type, activity.data_type, activity.shape);
  append_markup (str, "%s", fields);
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

char *
_tm_timeline_describe_module (TmTimeline *self,
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

char *
tm_timeline_describe_out_of_memory (TmTimeline          *self,
                                    const TmOutOfMemory *oom)
{
  g_autofree char *time = NULL;
  g_autofree char *requested = NULL;
  g_autofree char *requested_exact = NULL;
  g_autofree char *head = NULL;
  g_autofree char *body = NULL;

  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (oom != NULL, NULL);

  time = tm_format_time_ms (oom->time_ps);
  requested = tm_format_bytes (oom->requested_bytes);
  requested_exact = tm_format_bytes_exact (oom->requested_bytes);
  /* Translators: first line of the tooltip of a PyTorch out-of-memory
   * entry on the timeline: its time */
  head = g_markup_printf_escaped (_("<b>Out of memory at %s</b>"), time);
  if (oom->device_free_bytes >= 0)
    {
      g_autofree char *free_text = tm_format_bytes (oom->device_free_bytes);
      g_autofree char *free_exact = tm_format_bytes_exact (oom->device_free_bytes);

      /* Translators: the tooltip of a PyTorch out-of-memory entry: the
       * memory id (the device's index), the bytes asked for (short, then
       * exact), the free bytes the device reported (short, then exact) */
      body = g_markup_printf_escaped (_("Device %s: an allocation of %s (%s) failed; the device "
                                        "reported %s (%s) free.\nTrace entry %" PRId64 ", an oom."),
                                      tm_memory_store_get_id (self->store), requested, requested_exact,
                                      free_text, free_exact, oom->entry);
    }
  else
    /* Translators: the same, for an entry that gives no free bytes */
    body = g_markup_printf_escaped (_("Device %s: an allocation of %s (%s) failed; the entry does not "
                                      "say how much was free.\nTrace entry %" PRId64 ", an oom."),
                                    tm_memory_store_get_id (self->store), requested, requested_exact, oom->entry);
  return g_strconcat (head, "\n", body, NULL);
}

char *
_tm_timeline_describe_plan (TmTimeline *self,
                            guint       index)
{
  const TmPlanLevel *level = &g_array_index (self->plan_levels, TmPlanLevel, index);
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmMemoryViewerQuery *query = tm_memory_viewer_query_get_for_session (session);
  const TmStaticSelection *sel = tm_session_get_static_selection (session);
  const TmBufferAssignment *result = tm_memory_viewer_query_get_result (query);
  g_autofree char *start = tm_format_time_ms (level->start_ps);
  g_autofree char *before = tm_format_bytes (level->live_before);
  g_autofree char *peak = tm_format_bytes (self->plan_peak);
  g_autofree char *expected = tm_format_bytes (level->expected);
  GString *str = g_string_new (NULL);
  TmPlanComparison comparison;

  /* Translators: first line of the tooltip of an XLA module's planned
   * level on the timeline: the module, when the execution started */
  append_markup (str, _("<b>Plan of %s</b>, the execution at %s"), self->plan_module, start);
  g_string_append_c (str, '\n');
  /* Translators: live before + static peak = the level drawn */
  append_markup (str, _("Live before %s + static peak %s = %s"), before, peak, expected);
  g_string_append_c (str, '\n');
  /* The words of the Memory Viewer's "Against the Run" card, when the
   * page computed the module in memory space 0 (they need its
   * parameters); else what the allocator held. */
  if (result != NULL && result->memory_space == 0 && sel != NULL && g_strcmp0 (sel->module, self->plan_module) == 0 &&
      tm_static_plan_compare (self->store, result, level->start_ps, level->end_ps, &comparison))
    {
      g_autofree char *words = tm_static_plan_explain (&comparison, self->plan_module,
                                                       tm_memory_store_get_id (self->store));

      append_markup (str, "%s", words);
    }
  else if (level->held >= 0)
    {
      g_autofree char *held = tm_format_bytes (level->held);
      g_autofree char *difference = tm_format_bytes_delta (level->held - level->expected);

      /* Translators: the most the allocator held during the execution,
       * then the difference from the plan, e.g. "+2.00 MiB" */
      append_markup (str, _("The allocator held at most %s (%s against the plan)."), held, difference);
    }
  g_string_append_c (str, '\n');
  append_markup (str, "<i>%s</i>", _("Click to open in the Memory Viewer"));
  return g_string_free (str, FALSE);
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
      /* A snapshot's in PyTorch's words, as its legend (docs/ui.md,
       * "Segments and out-of-memory entries"). */
      name = self->layers.caching_allocator ? _("Allocated") : _("Heap");
      break;
    case TM_SERIES_FLAG_FREE:
      name = self->layers.caching_allocator ? _("Not allocated") : _("Free");
      break;
    case TM_SERIES_FLAG_FRAGMENTATION:
      name = _("Fragmentation");
      break;
    case TM_SERIES_FLAG_NONE:
    default:
      return NULL;
    }

  /* Translators: the tooltip of a timeline legend entry, e.g. "Click to hide Heap" */
  return g_strdup_printf ((self->hidden_series & series) != 0 ? _("Click to show %s") : _("Click to hide %s"), name);
}

char *
_tm_timeline_hover_readout (TmTimeline *self,
                            gint64      time_ps,
                            gint64      used)
{
  g_autofree char *time_text = tm_axis_format_time (time_ps, tm_viewport_get_span (self->viewport));
  g_autofree char *used_text = tm_format_bytes (used);

  /* Translators: hover read-out above the timeline: time · memory in use */
  return g_strdup_printf (_("%s · %s in use"), time_text, used_text);
}

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
