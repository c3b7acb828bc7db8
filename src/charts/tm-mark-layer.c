/* tm-mark-layer.c — marked times on a chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tm-chart-axes.h"
#include "tm-chart-palette.h"
#include "tm-format.h"
#include "tm-mark-layer.h"

struct _TmMarkLayer
{
  TmChartLayer  parent_instance;

  TmMarkKind    kind;
  GArray       *marks;       /* TmChartMark, labels owned */
  gboolean      has_color;
  TmChartColor  color;
};

G_DEFINE_FINAL_TYPE (TmMarkLayer, tm_mark_layer, TM_TYPE_CHART_LAYER)

static void
draw_peak (const TmChartMark     *mark,
           TmChartCanvas         *canvas,
           const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  const TmChartRect *plot = &g->plot;
  g_autofree char *bytes = NULL;
  g_autofree char *label = NULL;
  double x, y;
  gboolean right;

  x = round (tm_chart_geometry_time_to_x (g, mark->time_ps)) + 0.5;
  y = tm_chart_geometry_value_to_y (g, (double) mark->value);

  /* From the label down to the ring, not over the data. */
  tm_chart_canvas_dashed_vline (canvas, &palette->peak, x, plot->y, y - 7, 1.0, 4, 3);
  tm_chart_canvas_ring (canvas, &palette->fg, &palette->background, x, y, 5.5);

  bytes = tm_format_bytes (mark->value);
  /* Translators: the marker at the highest stack + heap, e.g. "Peak 5.78 GiB" */
  label = g_strdup_printf (_("Peak %s"), bytes);
  right = x + 160 < plot->x + plot->width;
  tm_chart_canvas_label (canvas, label, right ? x + 8 : x - 8, plot->y + 4,
                         right ? 0.0 : 1.0, 0.0, &palette->fg, &palette->background);
}

static void
draw_selection (const TmChartMark     *mark,
                TmChartCanvas         *canvas,
                const TmChartGeometry *g)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  const TmChartRect *plot = &g->plot;
  g_autofree char *label = NULL;
  double x = round (tm_chart_geometry_time_to_x (g, mark->time_ps));

  tm_chart_canvas_rect (canvas, &palette->accent, x - 1, plot->y, 2, plot->height);
  label = tm_chart_axes_format_time (mark->time_ps, g->end_ps - g->start_ps);
  tm_chart_canvas_label (canvas, label, CLAMP (x, plot->x + 40, plot->x + plot->width - 40),
                         plot->y + plot->height - 4, 0.5, 1.0, &palette->accent, &palette->background);
}

/* A line, and its label unless it would run into the label before it
 * (marks close in time: only the first of them is labelled); *label_end
 * is where the last label drawn ends. */
static void
draw_line (TmMarkLayer           *self,
           const TmChartMark     *mark,
           TmChartCanvas         *canvas,
           const TmChartGeometry *g,
           double                *label_end)
{
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  const TmChartColor *color = self->has_color ? &self->color : &palette->accent;
  const TmChartRect *plot = &g->plot;
  double x = tm_chart_geometry_time_to_x (g, mark->time_ps);
  int w = 0;

  if (x < plot->x || x > plot->x + plot->width)
    return;
  tm_chart_canvas_rect (canvas, color, round (x) - 0.5, plot->y, 1, plot->height);
  if (mark->label == NULL || round (x) + 3 < *label_end)
    return;
  tm_chart_canvas_label (canvas, mark->label, round (x) + 3, plot->y + 2, 0.0, 0.0, color, &palette->background);
  tm_chart_canvas_measure (canvas, mark->label, &w, NULL);
  *label_end = round (x) + 3 + w + 6;
}

static void
tm_mark_layer_draw (TmChartLayer          *layer,
                    TmChartCanvas         *canvas,
                    const TmChartGeometry *geometry)
{
  TmMarkLayer *self = TM_MARK_LAYER (layer);
  double label_end = -G_MAXDOUBLE;

  for (guint i = 0; i < self->marks->len; i++)
    {
      const TmChartMark *mark = &g_array_index (self->marks, TmChartMark, i);

      if (mark->time_ps < geometry->start_ps || mark->time_ps > geometry->end_ps)
        continue;
      if (self->kind == TM_MARK_PEAK && geometry->y_max > 0)
        draw_peak (mark, canvas, geometry);
      else if (self->kind == TM_MARK_SELECTION)
        draw_selection (mark, canvas, geometry);
      else if (self->kind == TM_MARK_LINE)
        draw_line (self, mark, canvas, geometry, &label_end);
    }
}

/* The selected time's line and label, or each line with its label; the
 * peak may be anywhere. */
static gboolean
tm_mark_layer_get_regions (TmChartLayer          *layer,
                           TmChartCanvas         *canvas,
                           const TmChartGeometry *g,
                           GArray                *regions)
{
  TmMarkLayer *self = TM_MARK_LAYER (layer);
  const TmChartRect *plot = &g->plot;

  if (self->kind == TM_MARK_PEAK)
    return FALSE;
  for (guint i = 0; i < self->marks->len; i++)
    {
      const TmChartMark *mark = &g_array_index (self->marks, TmChartMark, i);
      double x = round (tm_chart_geometry_time_to_x (g, mark->time_ps));
      double x0 = x - 2, x1 = x + 2;
      TmChartRect r;
      int w = 0;

      if (mark->time_ps < g->start_ps || mark->time_ps > g->end_ps)
        continue;
      if (self->kind == TM_MARK_SELECTION)
        {
          g_autofree char *label = tm_chart_axes_format_time (mark->time_ps, g->end_ps - g->start_ps);
          double center = CLAMP (x, plot->x + 40, plot->x + plot->width - 40);

          tm_chart_canvas_measure (canvas, label, &w, NULL);
          x0 = MIN (x0, center - w / 2.0 - 6);
          x1 = MAX (x1, center + w / 2.0 + 6);
        }
      else if (mark->label != NULL)
        {
          tm_chart_canvas_measure (canvas, mark->label, &w, NULL);
          x1 = MAX (x1, x + 3 + w + 6);
        }
      r = (TmChartRect) { floor (x0), plot->y - 2, ceil (x1) - floor (x0), plot->height + 4 };
      g_array_append_val (regions, r);
    }
  return TRUE;
}

static void
clear_mark (gpointer data)
{
  TmChartMark *mark = data;

  g_free ((char *) mark->label);
}

static void
tm_mark_layer_finalize (GObject *object)
{
  TmMarkLayer *self = TM_MARK_LAYER (object);

  g_clear_pointer (&self->marks, g_array_unref);

  G_OBJECT_CLASS (tm_mark_layer_parent_class)->finalize (object);
}

static void
tm_mark_layer_class_init (TmMarkLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_mark_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_mark_layer_draw;
  TM_CHART_LAYER_CLASS (klass)->get_regions = tm_mark_layer_get_regions;
}

static void
tm_mark_layer_init (TmMarkLayer *self)
{
  self->marks = g_array_new (FALSE, FALSE, sizeof (TmChartMark));
  g_array_set_clear_func (self->marks, clear_mark);
}

TmChartLayer *
tm_mark_layer_new (TmMarkKind kind)
{
  TmMarkLayer *self = g_object_new (TM_TYPE_MARK_LAYER, NULL);

  self->kind = kind;
  return TM_CHART_LAYER (self);
}

void
tm_mark_layer_set (TmMarkLayer *self,
                   gboolean     set,
                   gint64       time_ps,
                   gint64       value)
{
  TmChartMark mark = { time_ps, value, NULL };

  g_return_if_fail (TM_IS_MARK_LAYER (self));

  tm_mark_layer_set_marks (self, &mark, set ? 1 : 0);
}

void
tm_mark_layer_set_marks (TmMarkLayer       *self,
                         const TmChartMark *marks,
                         guint              n)
{
  g_return_if_fail (TM_IS_MARK_LAYER (self));
  g_return_if_fail (marks != NULL || n == 0);

  g_array_set_size (self->marks, 0);
  for (guint i = 0; i < n; i++)
    {
      TmChartMark mark = marks[i];

      mark.label = g_strdup (marks[i].label);
      g_array_append_val (self->marks, mark);
    }
}

guint
tm_mark_layer_get_n_marks (TmMarkLayer *self)
{
  g_return_val_if_fail (TM_IS_MARK_LAYER (self), 0);

  return self->marks->len;
}

const TmChartMark *
tm_mark_layer_get_mark (TmMarkLayer *self,
                        guint        index)
{
  g_return_val_if_fail (TM_IS_MARK_LAYER (self), NULL);
  g_return_val_if_fail (index < self->marks->len, NULL);

  return &g_array_index (self->marks, TmChartMark, index);
}

guint
tm_mark_layer_item_at (TmMarkLayer           *self,
                       const TmChartGeometry *g,
                       double                 x,
                       double                 y,
                       double                 slop)
{
  guint best = TM_MARK_NONE;
  double best_distance = slop;

  g_return_val_if_fail (TM_IS_MARK_LAYER (self), TM_MARK_NONE);
  g_return_val_if_fail (g != NULL, TM_MARK_NONE);

  if (x < g->plot.x - slop || x > g->plot.x + g->plot.width + slop ||
      y < g->plot.y || y > g->plot.y + g->plot.height)
    return TM_MARK_NONE;
  for (guint i = 0; i < self->marks->len; i++)
    {
      const TmChartMark *mark = &g_array_index (self->marks, TmChartMark, i);
      double distance;

      if (mark->time_ps < g->start_ps || mark->time_ps > g->end_ps)
        continue;
      /* Where draw_line() puts it. */
      distance = fabs (round (tm_chart_geometry_time_to_x (g, mark->time_ps)) - x);
      if (distance <= best_distance)
        {
          best = i;
          best_distance = distance;
        }
    }
  return best;
}

void
tm_mark_layer_set_out_of_memory (TmMarkLayer *self,
                                 TmSegments  *segments)
{
  const TmOutOfMemory *oom = NULL;
  g_autofree TmChartMark *marks = NULL;
  guint n = 0;

  g_return_if_fail (TM_IS_MARK_LAYER (self));

  if (segments != NULL)
    oom = tm_segments_get_out_of_memory (segments, &n);
  marks = g_new0 (TmChartMark, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    /* Translators: the label of a PyTorch out-of-memory entry's line on
     * the timeline and the memory map ("oom" is the entry's name in the
     * snapshot) */
    marks[i] = (TmChartMark) { oom[i].time_ps, oom[i].requested_bytes, C_("chart", "OOM") };
  tm_mark_layer_set_marks (self, marks, n);
  /* GNOME's red 3: an error in both styles. */
  tm_mark_layer_set_color (self, &(TmChartColor) { 0.878f, 0.106f, 0.141f, 1.0f });
}

void
tm_mark_layer_set_color (TmMarkLayer        *self,
                         const TmChartColor *color)
{
  g_return_if_fail (TM_IS_MARK_LAYER (self));

  self->has_color = color != NULL;
  if (color != NULL)
    self->color = *color;
}
