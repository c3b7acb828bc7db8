/* tm-timeline-layers.c — the timeline's layers: their inputs, the
 * geometry, drawing them, and what is under a point
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layers (tm-timeline-chart.h) draw from plain inputs; this file sets
 * those inputs from the widget's state, the session and the session's
 * query objects, computes the geometry they draw over, and draws them in
 * three groups of render nodes: what does not move with the visible range
 * (the value axes and the legend), what does (the time ruler, the series,
 * the fragmentation, the HLO band, the selected scope, a baseline, the
 * peak), and what is drawn every frame (the selections, the range
 * read-out, the pointer). tm-timeline.c caches the first two.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-allocations-query.h"
#include "tm-axis.h"
#include "tm-baseline-layer.h"
#include "tm-chart-node.h"
#include "tm-format.h"
#include "tm-hover-layer.h"
#include "tm-legend-layer.h"
#include "tm-mark-layer.h"
#include "tm-memory-viewer-query.h"
#include "tm-note-layer.h"
#include "tm-scope-series-query.h"
#include "tm-span-layer.h"
#include "tm-static-plan.h"
#include "tm-static-selection.h"
#include "tm-timeline-private.h"
#include "tm-trace-layer.h"

/* The hidden series as the layers' mask (1 << TmSeries, and the
 * fragmentation). */
static guint
chart_hidden (TmSeriesFlags hidden)
{
  return ((hidden & TM_SERIES_FLAG_STACK) ? 1u << TM_SERIES_STACK : 0) |
         ((hidden & TM_SERIES_FLAG_HEAP) ? 1u << TM_SERIES_HEAP : 0) |
         ((hidden & TM_SERIES_FLAG_FREE) ? 1u << TM_SERIES_FREE : 0) |
         ((hidden & TM_SERIES_FLAG_FRAGMENTATION) ? TM_LEGEND_FRAGMENTATION : 0);
}

/* ------------------------------------------------------------------ */
/* The geometry                                                         */

void
_tm_timeline_compute_geometry (TmTimeline      *self,
                               int              width,
                               int              height,
                               TmChartGeometry *geometry)
{
  gboolean band = self->hlo_modules != NULL && self->hlo_modules->len > 0;
  gboolean capacity = self->y_scale == TM_Y_SCALE_CAPACITY;
  gint64 start = self->viewport != NULL ? tm_viewport_get_start (self->viewport) : 0;
  gint64 end = self->viewport != NULL ? tm_viewport_get_end (self->viewport) : 0;
  gint64 max_bytes = 0;

  if (_tm_timeline_has_data (self))
    {
      max_bytes = tm_timeline_chart_max_bytes (self->store, start, end, capacity);
      /* A comparison's baseline fits too. */
      max_bytes = MAX (max_bytes, tm_baseline_layer_max (TM_BASELINE_LAYER (self->layers.baseline), start, end, capacity));
      /* And a module's planned level. */
      max_bytes = MAX (max_bytes, tm_timeline_layers_plan_max (&self->layers, start, end));
    }
  tm_chart_geometry_init (geometry, width, height, band, start, end, max_bytes);
}

static gboolean
same_rect (const TmChartRect *a,
           const TmChartRect *b)
{
  return a->x == b->x && a->y == b->y && a->width == b->width && a->height == b->height;
}

gboolean
_tm_timeline_update_geometry (TmTimeline *self)
{
  TmChartGeometry g, *old = &self->geometry;

  _tm_timeline_compute_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)),
                                 gtk_widget_get_height (GTK_WIDGET (self)), &g);
  /* The value axes and the legend move only with the plot and the scale. */
  if (g.width != old->width || g.height != old->height || !same_rect (&g.plot, &old->plot) ||
      !same_rect (&g.hlo_band, &old->hlo_band) || g.y_max != old->y_max || g.y_step != old->y_step)
    g_clear_pointer (&self->static_node, gsk_render_node_unref);
  else if (g.start_ps == old->start_ps && g.end_ps == old->end_ps)
    return FALSE;
  self->geometry = g;
  g_clear_pointer (&self->range_node, gsk_render_node_unref);
  g_clear_pointer (&self->marks_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

/* The widget's own layers that follow the selections changed. */
static void
marks_changed (TmTimeline       *self,
               TmTimelineLayers *layers)
{
  if (layers == &self->layers)
    g_clear_pointer (&self->marks_node, gsk_render_node_unref);
}

/* ------------------------------------------------------------------ */
/* The layers' inputs                                                   */

/* A PyTorch snapshot's segments of the shown store (NULL: none). */
static TmSegments *
shown_segments (TmTimeline *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmProfile *profile = session != NULL ? tm_session_get_profile (session) : NULL;

  return profile != NULL && self->store != NULL ? tm_profile_lookup_segments (profile, self->store) : NULL;
}

void
_tm_timeline_sync_store (TmTimeline       *self,
                         TmTimelineLayers *layers)
{
  tm_timeline_layers_set_store (layers, self->store);
  tm_timeline_layers_set_segments (layers, shown_segments (self));
  tm_timeline_layers_set_hidden (layers, chart_hidden (self->hidden_series));
  tm_timeline_layers_set_modules (layers, self->hlo_modules);
}

/* The selected scope's bytes over time, from the session's scope series
 * query (NULL until its index is built). */
void
_tm_timeline_sync_scope (TmTimeline       *self,
                         TmTimelineLayers *layers)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  const TmScope *scope = session != NULL ? tm_session_get_selected_scope (session) : NULL;
  GBytes *series = scope != NULL ? tm_scope_series_query_get_series (tm_scope_series_query_get_for_session (session)) : NULL;
  g_autofree char *path = NULL;
  g_autofree char *label = NULL;

  tm_trace_layer_set_data (TM_TRACE_LAYER (layers->scope), self->store, series);
  if (series == NULL)
    return;
  path = g_strjoinv (" / ", scope->parts);
  /* Translators: the timeline's label of the selected scope's line */
  label = g_strdup_printf (_("Scope: %s"), path);
  tm_trace_layer_set_name (TM_TRACE_LAYER (layers->scope), scope->parts[g_strv_length (scope->parts) - 1], label);
}

/* A comparison's baseline, shifted by the alignment (docs/compare.md). */
void
_tm_timeline_sync_baseline (TmTimeline       *self,
                            TmTimelineLayers *layers)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmMemoryStore *baseline = session != NULL ? tm_session_get_baseline (session) : NULL;
  g_autofree char *peak = NULL;
  g_autofree char *label = NULL;

  if (baseline == NULL || tm_memory_store_get_n_snapshots (baseline) == 0)
    {
      tm_baseline_layer_set (TM_BASELINE_LAYER (layers->baseline), NULL, 0, NULL);
      return;
    }
  peak = tm_format_bytes (tm_memory_store_get_summary (baseline)->peak_bytes_in_use);
  /* Translators: the timeline's label of a comparison's baseline line:
   * its memory id, then its peak, e.g. "Baseline GPU_4_bfc, peak 5.78 GiB" */
  label = g_strdup_printf (_("Baseline %s, peak %s"), tm_memory_store_get_id (baseline), peak);
  tm_baseline_layer_set (TM_BASELINE_LAYER (layers->baseline), baseline, tm_session_get_baseline_shift (session), label);
}

void
_tm_timeline_update_plan (TmTimeline *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  const TmStaticSelection *sel = session != NULL ? tm_session_get_static_selection (session) : NULL;
  TmMemoryViewerQuery *query = session != NULL ? tm_memory_viewer_query_get_for_session (session) : NULL;
  const TmModulePlan *plan = NULL;

  if (sel != NULL && sel->module != NULL && query != NULL)
    plan = tm_memory_viewer_query_lookup_plan (query, sel->module);
  g_clear_pointer (&self->plan_levels, g_array_unref);
  g_clear_pointer (&self->plan_module, g_free);
  self->plan_peak = 0;
  if (plan != NULL && plan->error == NULL && _tm_timeline_has_data (self) && self->hlo_modules != NULL)
    {
      self->plan_levels = tm_static_plan_levels (self->store, plan->peak, plan->name, self->hlo_modules);
      self->plan_module = g_strdup (plan->name);
      self->plan_peak = plan->peak;
      if (self->plan_levels->len == 0)
        g_clear_pointer (&self->plan_levels, g_array_unref);
    }
  _tm_timeline_sync_plan (self, &self->layers);
}

/* The level the plan puts memory in use at over each execution of the
 * Memory Viewer's module: the static peak plus what was live before it
 * (docs/buffer-assignment.md, section 6). */
void
_tm_timeline_sync_plan (TmTimeline       *self,
                        TmTimelineLayers *layers)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (TmChartSpan));
  g_autofree char *peak = NULL;
  g_autofree char *label = NULL;
  g_autofree char *legend = NULL;

  for (guint k = 0; self->plan_levels != NULL && k < self->plan_levels->len; k++)
    {
      const TmPlanLevel *level = &g_array_index (self->plan_levels, TmPlanLevel, k);
      TmChartSpan span = { level->start_ps, level->end_ps, level->expected, k };

      g_array_append_val (spans, span);
    }
  if (spans->len > 0)
    {
      peak = tm_format_bytes (self->plan_peak);
      /* Translators: the label of an XLA module's planned level on the
       * timeline, e.g. "Static peak 1.08 GiB + live before" */
      label = g_strdup_printf (_("Static peak %s + live before"), peak);
      /* Translators: the timeline legend's entry of an XLA module's
       * planned level, e.g. "Plan of jit_step(4)" */
      legend = g_strdup_printf (_("Plan of %s"), self->plan_module);
    }
  tm_timeline_layers_set_plan (layers, (const TmChartSpan *) spans->data, spans->len, label, legend);
}

/* The selected time: a click not yet given to the session, else the
 * session's. */
void
_tm_timeline_sync_selection (TmTimeline       *self,
                             TmTimelineLayers *layers)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  gboolean shown = FALSE;
  gint64 t = 0;

  if (self->pending_selection_source != 0)
    {
      t = self->pending_time;
      shown = TRUE;
    }
  else if (session != NULL && tm_session_get_has_selected_time (session))
    {
      t = tm_session_get_selected_time (session);
      shown = TRUE;
    }
  tm_mark_layer_set (TM_MARK_LAYER (layers->selection), shown && _tm_timeline_has_data (self), t, 0);
  marks_changed (self, layers);
}

/* The selected allocation's lifetime (picked on the memory map or in the
 * table). */
void
_tm_timeline_sync_lifetime (TmTimeline       *self,
                            TmTimelineLayers *layers)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmAllocations *allocations = session != NULL
                               ? tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session))
                               : NULL;
  guint index = session != NULL ? tm_session_get_selected_allocation (session) : TM_ALLOCATIONS_NONE;
  TmChartSpan span;

  marks_changed (self, layers);
  if (allocations == NULL || index >= tm_allocations_get_n (allocations))
    {
      tm_span_layer_set_spans (TM_SPAN_LAYER (layers->lifetime), NULL, 0);
      return;
    }
  span = (TmChartSpan) { tm_allocations_get_start_time (allocations, index),
                         tm_allocations_get_end_time (allocations, index), 0, index };
  tm_span_layer_set_spans (TM_SPAN_LAYER (layers->lifetime), &span, 1);
}

gboolean
tm_timeline_get_shown_range (TmTimeline     *self,
                             TmRangeFigures *out)
{
  const TmChartGeometry *g;

  g_return_val_if_fail (TM_IS_TIMELINE (self), FALSE);

  g = &self->geometry;
  if (self->banding && self->drag_moved)
    {
      double x0 = CLAMP (MIN (self->band_x0, self->band_x1), g->plot.x, g->plot.x + g->plot.width);
      double x1 = CLAMP (MAX (self->band_x0, self->band_x1), g->plot.x, g->plot.x + g->plot.width);

      return tm_timeline_range_figures (self, tm_chart_geometry_x_to_time (g, x0),
                                        tm_chart_geometry_x_to_time (g, x1), out);
    }

  if (!self->range_shown || self->viewport == NULL)
    return FALSE;
  return tm_timeline_range_figures (self, tm_viewport_get_start (self->viewport),
                                    tm_viewport_get_end (self->viewport), out);
}

/* The range read-out, under the selected scope's label when there is
 * one. */
void
_tm_timeline_sync_readout (TmTimeline       *self,
                           TmTimelineLayers *layers)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  g_autofree char *label = NULL;
  TmRangeFigures figures;

  if (tm_timeline_get_shown_range (self, &figures))
    label = tm_timeline_describe_range (self, &figures);
  tm_note_layer_set_text (TM_NOTE_LAYER (layers->note), label,
                          session != NULL && tm_session_get_selected_scope (session) != NULL ? 1 : 0);
  marks_changed (self, layers);
}

/* The hover (at the pointer's time, at the height of the state then) and
 * the rubber band being dragged. */
void
_tm_timeline_sync_pointer (TmTimeline *self)
{
  const TmChartGeometry *g = &self->geometry;

  if (self->hovering && _tm_timeline_has_data (self) && !self->dragging)
    {
      const gint64 *stack = tm_memory_store_get_stack (self->store);
      const gint64 *heap = tm_memory_store_get_heap (self->store);
      gint64 used = self->hover_index != G_MAXUINT ? stack[self->hover_index] + heap[self->hover_index] : 0;
      g_autofree char *readout = _tm_timeline_hover_readout (self, self->hover_time, used);

      tm_hover_layer_set (TM_HOVER_LAYER (self->hover_layer), TRUE, self->hover_time,
                          self->hover_index != G_MAXUINT, used, readout);
    }
  else
    tm_hover_layer_set (TM_HOVER_LAYER (self->hover_layer), FALSE, 0, FALSE, 0, NULL);

  if (self->banding && self->drag_moved)
    {
      double x0 = CLAMP (MIN (self->band_x0, self->band_x1), g->plot.x, g->plot.x + g->plot.width);
      double x1 = CLAMP (MAX (self->band_x0, self->band_x1), g->plot.x, g->plot.x + g->plot.width);
      TmChartSpan span = { tm_chart_geometry_x_to_time (g, x0), tm_chart_geometry_x_to_time (g, x1), 0, 0 };

      tm_span_layer_set_spans (TM_SPAN_LAYER (self->band_layer), &span, 1);
    }
  else
    tm_span_layer_set_spans (TM_SPAN_LAYER (self->band_layer), NULL, 0);
}

/* ------------------------------------------------------------------ */
/* Drawing                                                              */

/* The layers given, drawn into one cairo node over bounds. */
#define APPEND(bounds, ...) \
  G_STMT_START { \
    TmChartLayer *layers_[] = { __VA_ARGS__ }; \
    tm_chart_node_append (snapshot, GTK_WIDGET (self), palette, g, (bounds), layers_, G_N_ELEMENTS (layers_)); \
  } G_STMT_END

void
_tm_timeline_draw_static (TmTimeline            *self,
                          GtkSnapshot           *snapshot,
                          const TmChartGeometry *g,
                          const TmPalette       *palette)
{
  graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, g->width, g->height);

  if (!_tm_timeline_has_data (self))
    APPEND (&all, self->no_data_layer);
  else
    APPEND (&all, self->layers.values, self->layers.legend);
}

void
_tm_timeline_draw_range (TmTimeline            *self,
                         GtkSnapshot           *snapshot,
                         const TmChartGeometry *g,
                         const TmPalette       *palette)
{
  const TmChartRect *p = &g->plot;
  graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, g->width, g->height);
  graphene_rect_t below = GRAPHENE_RECT_INIT (0, p->y, g->width, g->height - p->y);
  graphene_rect_t plot = GRAPHENE_RECT_INIT (p->x, p->y, p->width, p->height);
  graphene_rect_t around;

  if (!_tm_timeline_has_data (self))
    return;

  graphene_rect_inset_r (&plot, -16, -16, &around);
  /* The series as one image from the painter: every renderer draws it
   * as one blit. */
  APPEND (&below, self->layers.time, self->layers.series, self->layers.line);
  APPEND (&all, self->layers.base);
  APPEND (&all, self->layers.modules);
  APPEND (&plot, self->layers.scope);
  APPEND (&plot, self->layers.baseline);
  APPEND (&all, self->layers.plan);
  APPEND (&all, self->layers.oom);
  APPEND (&around, self->layers.peak);
}

void
_tm_timeline_draw_marks (TmTimeline            *self,
                         GtkSnapshot           *snapshot,
                         const TmChartGeometry *g,
                         const TmPalette       *palette)
{
  graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, g->width, g->height);

  tm_chart_node_append_layer (snapshot, GTK_WIDGET (self), palette, g, &all, self->layers.selection);
  tm_chart_node_append_layer (snapshot, GTK_WIDGET (self), palette, g, &all, self->layers.lifetime);
  tm_chart_node_append_layer (snapshot, GTK_WIDGET (self), palette, g, &all, self->layers.note);
}

void
_tm_timeline_draw_focus (TmTimeline            *self,
                         GtkSnapshot           *snapshot,
                         const TmChartGeometry *g,
                         const TmPalette       *palette)
{
  /* A ring whenever the timeline has the focus, clicked or tabbed to:
   * it shows where + − ← → go. */
  if (gtk_widget_has_focus (GTK_WIDGET (self)))
    {
      GdkRGBA focus = palette->accent;
      const TmChartRect *p = &g->plot;

      focus.alpha = 0.6f;
      tm_axis_append_rect (snapshot, &focus, p->x - 1, p->y - 1, p->width + 2, 1);
      tm_axis_append_rect (snapshot, &focus, p->x - 1, p->y + p->height, p->width + 2, 1);
      tm_axis_append_rect (snapshot, &focus, p->x - 1, p->y, 1, p->height);
      tm_axis_append_rect (snapshot, &focus, p->x + p->width, p->y, 1, p->height);
    }
}

void
_tm_timeline_draw_pointer (TmTimeline            *self,
                           GtkSnapshot           *snapshot,
                           const TmChartGeometry *g,
                           const TmPalette       *palette)
{
  graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, g->width, g->height);

  /* Only where they draw: a moving pointer makes GTK redraw these, not
   * the plot under them. */
  tm_chart_node_append_layer (snapshot, GTK_WIDGET (self), palette, g, &all, self->hover_layer);
  tm_chart_node_append_layer (snapshot, GTK_WIDGET (self), palette, g, &all, self->band_layer);
}

/* ------------------------------------------------------------------ */
/* What is under a point                                                */

gboolean
tm_timeline_pick_time (TmTimeline *self,
                       double      x,
                       gint64     *time_ps,
                       guint      *index)
{
  const TmChartGeometry *g;
  gint64 t;

  g_return_val_if_fail (TM_IS_TIMELINE (self), FALSE);

  g = &self->geometry;
  if (!_tm_timeline_has_data (self) || x < g->plot.x || x > g->plot.x + g->plot.width)
    return FALSE;

  t = tm_chart_geometry_x_to_time (g, x);
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

TmSeriesFlags
tm_timeline_legend_at (TmTimeline *self,
                       double      x,
                       double      y)
{
  TmLegendLayer *legend;
  guint entry;

  g_return_val_if_fail (TM_IS_TIMELINE (self), TM_SERIES_FLAG_NONE);

  if (!_tm_timeline_has_data (self) || y > TM_CHART_MARGIN_TOP)
    return TM_SERIES_FLAG_NONE;

  /* The legend layer lays its entries out as it draws them; before its
   * first frame, ask it with the widget's label font on a canvas that
   * draws nothing. */
  legend = TM_LEGEND_LAYER (self->layers.legend);
  if (tm_legend_layer_is_laid_out (legend))
    entry = tm_legend_layer_item_at (legend, NULL, &self->geometry, x, y);
  else
    {
      g_autoptr(PangoLayout) text = tm_axis_create_label_layout (GTK_WIDGET (self));
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
      cairo_t *cr = cairo_create (surface);
      TmChartCanvas *canvas = tm_chart_canvas_new_for_layout (cr, FALSE, TM_CHART_CANVAS_TEXT_DRAWN, text);

      entry = tm_legend_layer_item_at (legend, canvas, &self->geometry, x, y);
      tm_chart_canvas_free (canvas);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }

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

const TmOutOfMemory *
tm_timeline_out_of_memory_at (TmTimeline *self,
                              double      x,
                              double      y)
{
  TmSegments *segments;
  const TmOutOfMemory *oom;
  guint index, n = 0;

  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);

  if (!_tm_timeline_has_data (self))
    return NULL;
  index = tm_mark_layer_item_at (TM_MARK_LAYER (self->layers.oom), &self->geometry, x, y, 3);
  segments = shown_segments (self);
  if (index == TM_MARK_NONE || segments == NULL)
    return NULL;
  oom = tm_segments_get_out_of_memory (segments, &n);
  /* The layer's marks are the entries, in their order. */
  return index < n ? &oom[index] : NULL;
}

int
_tm_timeline_module_at (TmTimeline *self,
                        double      x,
                        double      y)
{
  guint tag = tm_span_layer_item_at (TM_SPAN_LAYER (self->layers.modules), &self->geometry, x, y);

  return tag == TM_SPAN_NONE || self->hlo_modules == NULL || tag >= self->hlo_modules->len ? -1 : (int) tag;
}

int
_tm_timeline_plan_at (TmTimeline *self,
                      double      x,
                      double      y)
{
  guint tag = tm_span_layer_item_at (TM_SPAN_LAYER (self->layers.plan), &self->geometry, x, y);

  return tag == TM_SPAN_NONE || self->plan_levels == NULL || tag >= self->plan_levels->len ? -1 : (int) tag;
}
