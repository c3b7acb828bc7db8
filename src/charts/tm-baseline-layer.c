/* tm-baseline-layer.c — a comparison's baseline, as an outline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tm-baseline-layer.h"
#include "tm-chart-palette.h"

struct _TmBaselineLayer
{
  TmChartLayer   parent_instance;

  TmMemoryStore *store;
  gint64         shift;
  char          *label;
};

G_DEFINE_FINAL_TYPE (TmBaselineLayer, tm_baseline_layer, TM_TYPE_CHART_LAYER)

gint64
tm_baseline_layer_max (TmBaselineLayer *self,
                       gint64           start_ps,
                       gint64           end_ps,
                       gboolean         capacity)
{
  TmLodBucket bucket;
  TmLod *lod;

  g_return_val_if_fail (TM_IS_BASELINE_LAYER (self), 0);

  if (self->store == NULL || (lod = tm_memory_store_get_lod (self->store)) == NULL)
    return 0;
  if (capacity)
    return tm_memory_store_has_free_data (self->store) ? tm_lod_get_max_total (lod) : tm_lod_get_max_used (lod);
  if (!tm_lod_query_time (lod, start_ps - self->shift, end_ps - self->shift + 1, &bucket))
    return 0;
  return bucket.used_max;
}

static void
tm_baseline_layer_draw (TmChartLayer          *layer,
                        TmChartCanvas         *canvas,
                        const TmChartGeometry *g)
{
  TmBaselineLayer *self = TM_BASELINE_LAYER (layer);
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  const TmChartRect *plot = &g->plot;
  g_autofree TmLodBucket *buckets = NULL;
  const TmSummary *summary;
  TmLod *lod;
  TmChartColor color, halo;
  gboolean drawing = FALSE;
  guint n;

  if (self->store == NULL || (lod = tm_memory_store_get_lod (self->store)) == NULL || g->y_max <= 0)
    return;

  n = (guint) MAX (1.0, floor (plot->width));
  buckets = g_new0 (TmLodBucket, n);
  tm_lod_query_columns (lod, g->start_ps - self->shift, g->end_ps - self->shift, n, buckets);

  tm_chart_palette_get_color (TM_PALETTE_BASELINE, palette->dark, &color);
  halo = palette->background;
  halo.alpha = 0.8f;
  cairo_save (cr);
  cairo_rectangle (cr, plot->x, plot->y, plot->width, plot->height);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  /* The top of each column: a step line that follows the most in use. */
  for (guint c = 0; c < n; c++)
    {
      double x0 = plot->x + c;
      double y;

      if (!buckets[c].has_data)
        {
          drawing = FALSE;
          continue;
        }
      y = tm_chart_geometry_value_to_y (g, (double) buckets[c].used_max);
      if (!drawing)
        cairo_move_to (cr, x0, y);
      else
        cairo_line_to (cr, x0, y);
      cairo_line_to (cr, x0 + 1, y);
      drawing = TRUE;
    }
  tm_chart_set_source (cr, &halo);
  cairo_set_line_width (cr, 4.0);
  cairo_stroke_preserve (cr);
  tm_chart_set_source (cr, &color);
  cairo_set_line_width (cr, 2.0);
  cairo_stroke (cr);

  /* Its peak, where it falls on this axis. */
  summary = tm_memory_store_get_summary (self->store);
  if (summary->peak_time_ps + self->shift >= g->start_ps && summary->peak_time_ps + self->shift <= g->end_ps)
    {
      double x = tm_chart_geometry_time_to_x (g, summary->peak_time_ps + self->shift);
      double y = tm_chart_geometry_value_to_y (g, (double) summary->peak_bytes_in_use);

      cairo_new_path (cr);
      cairo_arc (cr, x, y, 4.5, 0, 2 * G_PI);
      tm_chart_set_source (cr, &palette->background);
      cairo_fill_preserve (cr);
      tm_chart_set_source (cr, &color);
      cairo_set_line_width (cr, 2.0);
      cairo_stroke (cr);
    }
  cairo_restore (cr);

  if (self->label != NULL)
    tm_chart_canvas_label (canvas, self->label, plot->x + plot->width - 6, plot->y + 24, 1.0, 0.0,
                           &color, &palette->background);
}

static void
tm_baseline_layer_finalize (GObject *object)
{
  TmBaselineLayer *self = TM_BASELINE_LAYER (object);

  g_clear_object (&self->store);
  g_clear_pointer (&self->label, g_free);

  G_OBJECT_CLASS (tm_baseline_layer_parent_class)->finalize (object);
}

static void
tm_baseline_layer_class_init (TmBaselineLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_baseline_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_baseline_layer_draw;
}

static void
tm_baseline_layer_init (TmBaselineLayer *self)
{
}

TmChartLayer *
tm_baseline_layer_new (void)
{
  return g_object_new (TM_TYPE_BASELINE_LAYER, NULL);
}

void
tm_baseline_layer_set (TmBaselineLayer *self,
                       TmMemoryStore   *baseline,
                       gint64           shift_ps,
                       const char      *label)
{
  g_return_if_fail (TM_IS_BASELINE_LAYER (self));

  g_set_object (&self->store, baseline);
  self->shift = shift_ps;
  g_free (self->label);
  self->label = g_strdup (label);
}

TmMemoryStore *
tm_baseline_layer_get_store (TmBaselineLayer *self)
{
  g_return_val_if_fail (TM_IS_BASELINE_LAYER (self), NULL);

  return self->store;
}
