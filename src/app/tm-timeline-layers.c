/* tm-timeline-layers.c — what the timeline draws
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three layers: what does not move with the visible range (the value axes
 * and the legend), what does (the time ruler, the series image from
 * TmSeriesPainter, the HLO band, the peak), and the overlay drawn every
 * frame (focus, selection, hover, rubber band). tm-timeline.c caches the
 * first two as render nodes.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-legend-layer.h"
#include "tm-mark-layer.h"
#include "tm-series-layer.h"
#include "tm-timeline-private.h"

/* ------------------------------------------------------------------ */
/* Shapes                                                              */

void
_tm_timeline_append_dot (GtkSnapshot   *snapshot,
                         const GdkRGBA *ring,
                         const GdkRGBA *fill,
                         double         x,
                         double         y,
                         double         radius)
{
  GskRoundedRect circle;
  graphene_rect_t outer = GRAPHENE_RECT_INIT (x - radius - 1.5, y - radius - 1.5, 2 * radius + 3, 2 * radius + 3);
  graphene_rect_t inner = GRAPHENE_RECT_INIT (x - radius, y - radius, 2 * radius, 2 * radius);

  gsk_rounded_rect_init_from_rect (&circle, &outer, radius + 1.5);
  gtk_snapshot_push_rounded_clip (snapshot, &circle);
  gtk_snapshot_append_color (snapshot, ring, &outer);
  gtk_snapshot_pop (snapshot);

  gsk_rounded_rect_init_from_rect (&circle, &inner, radius);
  gtk_snapshot_push_rounded_clip (snapshot, &circle);
  gtk_snapshot_append_color (snapshot, fill, &inner);
  gtk_snapshot_pop (snapshot);
}


/* ------------------------------------------------------------------ */
/* The chart layers                                                     */

/* The session's hidden series as the layers' mask (1 << TmSeries, and
 * the fragmentation). */
static guint
chart_hidden (TmSeriesFlags hidden)
{
  return ((hidden & TM_SERIES_FLAG_STACK) ? 1u << TM_SERIES_STACK : 0) |
         ((hidden & TM_SERIES_FLAG_HEAP) ? 1u << TM_SERIES_HEAP : 0) |
         ((hidden & TM_SERIES_FLAG_FREE) ? 1u << TM_SERIES_FREE : 0) |
         ((hidden & TM_SERIES_FLAG_FRAGMENTATION) ? TM_LEGEND_FRAGMENTATION : 0);
}

/* A cairo node over bounds in which chart (all its layers) or one layer
 * draws, with the widget's label font and palette's colours. */
static void
draw_layers (GtkSnapshot           *snapshot,
             PangoLayout           *text,
             const graphene_rect_t *bounds,
             const TmPalette       *palette,
             TmChart               *chart,
             TmChartLayer          *layer,
             const TmChartGeometry *geometry)
{
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, bounds);
  TmChartCanvas *canvas = tm_chart_canvas_new_for_layout (cr, FALSE, TM_CHART_CANVAS_TEXT_DRAWN, text);
  TmChartPalette colors;

  tm_palette_to_chart (palette, &colors);
  tm_chart_canvas_set_palette (canvas, &colors);
  if (chart != NULL)
    tm_chart_draw (chart, canvas);
  if (layer != NULL)
    tm_chart_layer_draw (layer, canvas, geometry);
  tm_chart_canvas_free (canvas);
  cairo_destroy (cr);
}

/* ------------------------------------------------------------------ */
/* The static and the range layers                                     */

static void
draw_hlo_band (TmTimeline             *self,
               GtkSnapshot            *snapshot,
               const TmTimelineLayout *layout,
               const TmPalette        *palette)
{
  const graphene_rect_t *band = &layout->hlo_band;
  gint64 start = tm_viewport_get_start (self->viewport);
  gint64 end = tm_viewport_get_end (self->viewport);
  double last_x1 = -1;
  int last_color = -1;
  graphene_rect_t pending = GRAPHENE_RECT_INIT (0, 0, 0, 0);

  if (self->module_spans == NULL || self->module_spans->len == 0)
    return;

  tm_axis_append_rect (snapshot, &palette->grid, band->origin.x, band->origin.y, band->size.width, band->size.height);

  for (guint i = 0; i < self->module_spans->len; i++)
    {
      const ModuleSpan *m = &g_array_index (self->module_spans, ModuleSpan, i);
      double x0, x1;
      int color = i % 2;

      if (m->start_ps > end)
        break;
      if (m->end_ps < start)
        continue;

      x0 = MAX (_tm_timeline_time_to_x (self, layout, m->start_ps), band->origin.x);
      x1 = MIN (_tm_timeline_time_to_x (self, layout, m->end_ps), band->origin.x + band->size.width);
      if (x1 - x0 < 1.0)
        x1 = x0 + 1.0;

      /* Modules closer than a pixel merge into one block. */
      if (pending.size.width > 0 && x0 <= last_x1 + 0.5 && (color == last_color || x1 - x0 < 2.0 || last_x1 - pending.origin.x < 2.0))
        {
          last_x1 = MAX (last_x1, x1);
          pending.size.width = last_x1 - pending.origin.x;
          continue;
        }
      if (pending.size.width > 0)
        gtk_snapshot_append_color (snapshot, &palette->hlo[last_color], &pending);
      graphene_rect_init (&pending, x0, band->origin.y, x1 - x0, band->size.height);
      last_x1 = x1;
      last_color = color;
    }
  if (pending.size.width > 0)
    gtk_snapshot_append_color (snapshot, &palette->hlo[last_color], &pending);
}

/* What does not move with the visible range. */
void
_tm_timeline_draw_static (TmTimeline      *self,
                          GtkSnapshot     *snapshot,
                          int              width,
                          int              height,
                          const TmPalette *palette)
{
  g_autoptr(PangoLayout) text = tm_axis_create_label_layout (GTK_WIDGET (self));
  TmTimelineLayout layout;
  gint64 y_step;

  _tm_timeline_compute_layout (self, width, height, &layout, &y_step);

  if (!_tm_timeline_has_data (self))
    {
      tm_axis_draw_label (snapshot, text, _("No memory data"), width / 2.0, height / 2.0, 0.5, 0.5, &palette->dim, NULL);
      return;
    }

  {
    TmSeriesFlags hidden = self->hidden_series;
    TmChartGeometry geometry;

    tm_legend_layer_set_free (TM_LEGEND_LAYER (self->legend_layer), tm_memory_store_has_free_data (self->store));
    tm_legend_layer_set_hidden (TM_LEGEND_LAYER (self->legend_layer), chart_hidden (hidden));
    _tm_timeline_geometry (self, &layout, y_step, width, height, &geometry);
    tm_chart_set_geometry (self->static_chart, &geometry);
    draw_layers (snapshot, text, &GRAPHENE_RECT_INIT (0, 0, width, height), palette, self->static_chart, NULL, &geometry);
  }
}

/* The selected scope's bytes over time (tm-scopes), as a line of the
 * scope's colour: per pixel column the largest value of the snapshots in
 * it, so that no spike is lost. */
static void
draw_scope_series (TmTimeline             *self,
                   GtkSnapshot            *snapshot,
                   PangoLayout            *text,
                   const TmTimelineLayout *layout,
                   const TmPalette        *palette)
{
  const graphene_rect_t *plot = &layout->plot;
  const TmScope *scope = self->session != NULL ? tm_session_get_selected_scope (self->session) : NULL;
  const gint64 *series, *times;
  g_autofree char *path = NULL;
  g_autofree char *label = NULL;
  gint64 start, end;
  GdkRGBA color, outline;
  cairo_t *cr;
  guint n, first;
  int last_col = -1;
  double col_max = 0;
  gboolean drawing = FALSE;

  if (scope == NULL || layout->y_max <= 0 ||
      (series = tm_session_get_selected_scope_series (self->session)) == NULL)
    return;

  n = tm_memory_store_get_n_snapshots (self->store);
  times = tm_memory_store_get_times (self->store);
  start = tm_viewport_get_start (self->viewport);
  end = tm_viewport_get_end (self->viewport);
  first = tm_memory_store_find_at_or_before (self->store, start);

  tm_palette_color_for_name (scope->parts[g_strv_length (scope->parts) - 1], palette->dark, &color);
  cr = gtk_snapshot_append_cairo (snapshot, plot);
  cairo_rectangle (cr, plot->origin.x, plot->origin.y, plot->size.width, plot->size.height);
  cairo_clip (cr);
  cairo_set_line_width (cr, 2.0);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  /* A step line: each value holds until the next snapshot. */
  for (guint i = first; i < n; i++)
    {
      double x = MAX (_tm_timeline_time_to_x (self, layout, times[i]), plot->origin.x);
      double y = plot->origin.y + plot->size.height * (1.0 - (double) series[i] / (double) layout->y_max);
      int col = (int) floor (x);

      if (!drawing)
        {
          cairo_move_to (cr, x, y);
          drawing = TRUE;
          last_col = col;
          col_max = y;
        }
      else if (col != last_col)
        {
          cairo_line_to (cr, last_col + 0.5, col_max);
          cairo_line_to (cr, x, col_max);
          last_col = col;
          col_max = y;
        }
      else
        col_max = MIN (col_max, y);  /* the largest value is the smallest y */
      if (times[i] > end)
        break;
    }
  if (drawing)
    {
      cairo_line_to (cr, last_col + 0.5, col_max);
      cairo_line_to (cr, plot->origin.x + plot->size.width, col_max);
    }
  outline = palette->fg;
  outline.alpha = 0.7f;
  gdk_cairo_set_source_rgba (cr, &outline);
  cairo_set_line_width (cr, 4.0);
  cairo_stroke_preserve (cr);
  gdk_cairo_set_source_rgba (cr, &color);
  cairo_set_line_width (cr, 2.0);
  cairo_stroke (cr);
  cairo_destroy (cr);

  path = g_strjoinv (" / ", scope->parts);
  /* Translators: the timeline's label of the selected scope's line */
  label = g_strdup_printf (_("Scope: %s"), path);
  tm_axis_draw_label (snapshot, text, label, plot->origin.x + 6, plot->origin.y + 4, 0.0, 0.0,
                      &palette->fg, &palette->background);
}

/* What does. */
void
_tm_timeline_draw_range (TmTimeline      *self,
                         GtkSnapshot     *snapshot,
                         int              width,
                         int              height,
                         int              scale,
                         const TmPalette *palette)
{
  g_autoptr(PangoLayout) text = NULL;
  TmSeriesFlags hidden = self->hidden_series;
  TmTimelineLayout layout;
  TmChartGeometry geometry;
  const graphene_rect_t *plot;
  gint64 y_step;

  if (!_tm_timeline_has_data (self))
    return;

  text = tm_axis_create_label_layout (GTK_WIDGET (self));
  _tm_timeline_compute_layout (self, width, height, &layout, &y_step);
  plot = &layout.plot;

  /* The time ruler, the series (one image from the painter: every
   * renderer draws it as one blit) and the fragmentation. */
  _tm_timeline_geometry (self, &layout, y_step, width, height, &geometry);
  tm_series_layer_set_hidden (TM_SERIES_LAYER (self->series_layer), chart_hidden (hidden) & ((1u << TM_N_SERIES) - 1));
  tm_chart_layer_set_visible (self->line_layer, (hidden & TM_SERIES_FLAG_FRAGMENTATION) == 0);
  tm_chart_set_geometry (self->range_chart, &geometry);
  draw_layers (snapshot, text, &GRAPHENE_RECT_INIT (0, plot->origin.y, width, height - plot->origin.y), palette,
               self->range_chart, NULL, &geometry);
  tm_axis_append_rect (snapshot, &palette->dim, plot->origin.x, round (plot->origin.y + plot->size.height) - 0.5,
                            plot->size.width, 1);

  draw_hlo_band (self, snapshot, &layout, palette);
  draw_scope_series (self, snapshot, text, &layout, palette);
  _tm_timeline_draw_baseline (self, snapshot, text, &layout, palette);

  {
    const TmSummary *summary = tm_memory_store_get_summary (self->store);
    graphene_rect_t around;

    graphene_rect_inset_r (plot, -16, -16, &around);
    tm_mark_layer_set (TM_MARK_LAYER (self->peak_layer), TRUE, summary->peak_time_ps, summary->peak_bytes_in_use);
    draw_layers (snapshot, text, &around, palette, NULL, self->peak_layer, &geometry);
  }
}

/* ------------------------------------------------------------------ */
/* The overlay                                                         */

static void
draw_selection (TmTimeline             *self,
                GtkSnapshot            *snapshot,
                PangoLayout            *text,
                const TmTimelineLayout *layout,
                const TmPalette        *palette)
{
  const graphene_rect_t *plot = &layout->plot;
  g_autofree char *label = NULL;
  gint64 selected;
  double x;

  if (!_tm_timeline_get_shown_selection (self, &selected) || !_tm_timeline_has_data (self) ||
      selected < tm_viewport_get_start (self->viewport) ||
      selected > tm_viewport_get_end (self->viewport))
    return;

  x = round (_tm_timeline_time_to_x (self, layout, selected));
  tm_axis_append_rect (snapshot, &palette->accent, x - 1, plot->origin.y, 2, plot->size.height);
  label = tm_axis_format_time (selected, tm_viewport_get_span (self->viewport));
  tm_axis_draw_label (snapshot, text, label,
                      CLAMP (x, plot->origin.x + 40, plot->origin.x + plot->size.width - 40),
                      plot->origin.y + plot->size.height - 4, 0.5, 1.0,
                      &palette->accent, &palette->background);
}

static void
draw_band (TmTimeline             *self,
           GtkSnapshot            *snapshot,
           const TmTimelineLayout *layout,
           const TmPalette        *palette)
{
  const graphene_rect_t *plot = &layout->plot;
  double x0, x1;

  if (!self->banding || !self->drag_moved)
    return;

  x0 = CLAMP (MIN (self->band_x0, self->band_x1), plot->origin.x, plot->origin.x + plot->size.width);
  x1 = CLAMP (MAX (self->band_x0, self->band_x1), plot->origin.x, plot->origin.x + plot->size.width);
  tm_axis_append_rect (snapshot, &palette->accent_fill, x0, plot->origin.y, x1 - x0, plot->size.height);
  tm_axis_append_rect (snapshot, &palette->accent, x0, plot->origin.y, 1, plot->size.height);
  tm_axis_append_rect (snapshot, &palette->accent, x1 - 1, plot->origin.y, 1, plot->size.height);
}

/* The session's selected allocation (picked on the memory map or in the
 * table): its lifetime as a band over the plot, edged at both ends. */
static void
draw_allocation_lifetime (TmTimeline             *self,
                          GtkSnapshot            *snapshot,
                          const TmTimelineLayout *layout,
                          const TmPalette        *palette)
{
  TmAllocations *allocations = self->session != NULL ? tm_session_get_allocations (self->session) : NULL;
  guint index = self->session != NULL ? tm_session_get_selected_allocation (self->session) : TM_ALLOCATIONS_NONE;
  const graphene_rect_t *p = &layout->plot;
  double x0, x1;

  if (allocations == NULL || index == TM_ALLOCATIONS_NONE)
    return;

  x0 = _tm_timeline_time_to_x (self, layout, tm_allocations_get_start_time (allocations, index));
  x1 = _tm_timeline_time_to_x (self, layout, tm_allocations_get_end_time (allocations, index));
  if (x1 < p->origin.x || x0 > p->origin.x + p->size.width)
    return;
  x0 = CLAMP (x0, p->origin.x, p->origin.x + p->size.width);
  x1 = MAX (CLAMP (x1, p->origin.x, p->origin.x + p->size.width), x0 + 1);
  tm_axis_append_rect (snapshot, &palette->accent_fill, x0, p->origin.y, x1 - x0, p->size.height);
  tm_axis_append_rect (snapshot, &palette->accent, x0, p->origin.y, 2, p->size.height);
  tm_axis_append_rect (snapshot, &palette->accent, x1 - 2, p->origin.y, 2, p->size.height);
  tm_axis_append_rect (snapshot, &palette->accent, x0, p->origin.y, x1 - x0, 3);
}

void
_tm_timeline_draw_overlay (TmTimeline      *self,
                           GtkSnapshot     *snapshot,
                           int              width,
                           int              height,
                           const TmPalette *palette,
                           gboolean         with_pointer)
{
  g_autoptr(PangoLayout) text = tm_axis_create_label_layout (GTK_WIDGET (self));
  TmTimelineLayout layout;

  _tm_timeline_compute_layout (self, width, height, &layout, NULL);

  /* A ring whenever the timeline has the focus, clicked or tabbed to:
   * it shows where + − ← → go. */
  if (gtk_widget_has_focus (GTK_WIDGET (self)) && with_pointer)
    {
      GdkRGBA focus = palette->accent;
      const graphene_rect_t *p = &layout.plot;

      focus.alpha = 0.6f;
      tm_axis_append_rect (snapshot, &focus, p->origin.x - 1, p->origin.y - 1, p->size.width + 2, 1);
      tm_axis_append_rect (snapshot, &focus, p->origin.x - 1, p->origin.y + p->size.height, p->size.width + 2, 1);
      tm_axis_append_rect (snapshot, &focus, p->origin.x - 1, p->origin.y, 1, p->size.height);
      tm_axis_append_rect (snapshot, &focus, p->origin.x + p->size.width, p->origin.y, 1, p->size.height);
    }

  draw_selection (self, snapshot, text, &layout, palette);
  draw_allocation_lifetime (self, snapshot, &layout, palette);
  _tm_timeline_draw_range_figures (self, snapshot, text, &layout, palette);
  if (with_pointer)
    {
      _tm_timeline_draw_hover (self, snapshot, text, &layout, palette);
      draw_band (self, snapshot, &layout, palette);
    }
}

