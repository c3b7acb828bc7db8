/* tm-block-layer.c — rectangles of time × address on the memory map
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tm-block-layer.h"
#include "tm-chart-palette.h"

struct _TmBlockLayer
{
  TmChartLayer  parent_instance;

  TmBlockStyle  style;
  GArray       *blocks;     /* TmChartBlock */
  gboolean      has_color;
  TmChartColor  color;
};

G_DEFINE_FINAL_TYPE (TmBlockLayer, tm_block_layer, TM_TYPE_CHART_LAYER)

gboolean
tm_block_layer_block_rect (const TmChartGeometry *g,
                           const TmChartBlock    *block,
                           TmChartRect           *rect)
{
  double x0 = tm_chart_geometry_time_to_x (g, block->start_ps);
  double x1 = tm_chart_geometry_time_to_x (g, block->end_ps);
  double ya = tm_chart_geometry_axis_to_y (g, block->axis_lo);
  double yb = tm_chart_geometry_axis_to_y (g, block->axis_hi);
  double left = g->plot.x, right = g->plot.x + g->plot.width;
  double top = g->plot.y, bottom = g->plot.y + g->plot.height;

  g_return_val_if_fail (g != NULL && block != NULL && rect != NULL, FALSE);

  if (x1 < left || x0 > right || ya < top || yb > bottom)
    return FALSE;
  x0 = CLAMP (x0, left, right);
  x1 = CLAMP (x1, left, right);
  if (g->moment)
    {
      /* Everything is at the one moment the plot spans. */
      x0 = left;
      x1 = right;
    }
  ya = CLAMP (ya, top, bottom);
  yb = CLAMP (yb, top, bottom);
  if (x1 - x0 < 1)
    x1 = x0 + 1;
  if (ya - yb < 1)
    yb = ya - 1;
  *rect = (TmChartRect) { x0, yb, x1 - x0, ya - yb };
  return TRUE;
}

/* A line-wide outline just outside r. */
static void
outline (TmChartCanvas      *canvas,
         const TmChartColor *color,
         const TmChartRect  *r,
         double              line)
{
  tm_chart_canvas_rect (canvas, color, r->x - line, r->y - line, r->width + 2 * line, line);
  tm_chart_canvas_rect (canvas, color, r->x - line, r->y + r->height, r->width + 2 * line, line);
  tm_chart_canvas_rect (canvas, color, r->x - line, r->y, line, r->height);
  tm_chart_canvas_rect (canvas, color, r->x + r->width, r->y, line, r->height);
}

static void
tm_block_layer_draw (TmChartLayer          *layer,
                     TmChartCanvas         *canvas,
                     const TmChartGeometry *g)
{
  TmBlockLayer *self = TM_BLOCK_LAYER (layer);
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  TmChartColor fill = palette->fg;

  if (g->axis_y1 <= g->axis_y0)
    return;
  fill.alpha = 0.12f;
  for (guint i = 0; i < self->blocks->len; i++)
    {
      TmChartRect r;

      if (!tm_block_layer_block_rect (g, &g_array_index (self->blocks, TmChartBlock, i), &r))
        continue;
      switch (self->style)
        {
        case TM_BLOCK_OUTLINE:
          outline (canvas, &palette->fg, &r, 1);
          break;
        case TM_BLOCK_SELECTED:
          tm_chart_canvas_rect (canvas, &palette->accent_fill, r.x, r.y, r.width, r.height);
          outline (canvas, &palette->accent, &r, 2);
          break;
        case TM_BLOCK_BAND:
          tm_chart_canvas_rect (canvas, &palette->accent_fill, r.x, r.y, r.width, r.height);
          outline (canvas, &palette->accent, &r, 1);
          break;
        case TM_BLOCK_FILL:
        default:
          tm_chart_canvas_rect (canvas, self->has_color ? &self->color : &fill, r.x, r.y, r.width, r.height);
          break;
        }
    }
}

/* Each block with its outline. */
static gboolean
tm_block_layer_get_regions (TmChartLayer          *layer,
                            TmChartCanvas         *canvas,
                            const TmChartGeometry *g,
                            GArray                *regions)
{
  TmBlockLayer *self = TM_BLOCK_LAYER (layer);

  for (guint i = 0; i < self->blocks->len && g->axis_y1 > g->axis_y0; i++)
    {
      TmChartRect r;

      if (!tm_block_layer_block_rect (g, &g_array_index (self->blocks, TmChartBlock, i), &r))
        continue;
      r = (TmChartRect) { floor (r.x) - 3, floor (r.y) - 3, ceil (r.width) + 7, ceil (r.height) + 7 };
      g_array_append_val (regions, r);
    }
  return TRUE;
}

static void
tm_block_layer_finalize (GObject *object)
{
  TmBlockLayer *self = TM_BLOCK_LAYER (object);

  g_clear_pointer (&self->blocks, g_array_unref);

  G_OBJECT_CLASS (tm_block_layer_parent_class)->finalize (object);
}

static void
tm_block_layer_class_init (TmBlockLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_block_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_block_layer_draw;
  TM_CHART_LAYER_CLASS (klass)->get_regions = tm_block_layer_get_regions;
}

static void
tm_block_layer_init (TmBlockLayer *self)
{
  self->blocks = g_array_new (FALSE, FALSE, sizeof (TmChartBlock));
}

TmChartLayer *
tm_block_layer_new (TmBlockStyle style)
{
  TmBlockLayer *self = g_object_new (TM_TYPE_BLOCK_LAYER, NULL);

  self->style = style;
  return TM_CHART_LAYER (self);
}

void
tm_block_layer_set_segments (TmBlockLayer  *self,
                             TmSegments    *segments,
                             TmAllocations *allocations)
{
  const TmSegment *seg;
  guint n = 0;

  g_return_if_fail (TM_IS_BLOCK_LAYER (self));

  g_array_set_size (self->blocks, 0);
  if (segments == NULL || allocations == NULL)
    return;
  seg = tm_segments_get_segments (segments, &n);
  g_array_set_size (self->blocks, n);
  for (guint i = 0; i < n; i++)
    g_array_index (self->blocks, TmChartBlock, i) = (TmChartBlock) {
      seg[i].start_ps, seg[i].end_ps,
      tm_allocations_address_to_axis (allocations, seg[i].address),
      tm_allocations_address_to_axis (allocations, seg[i].address + (guint64) MAX (seg[i].bytes, 1)),
    };
}

const TmChartBlock *
tm_block_layer_get_blocks (TmBlockLayer *self,
                           guint        *n)
{
  g_return_val_if_fail (TM_IS_BLOCK_LAYER (self), NULL);

  if (n != NULL)
    *n = self->blocks->len;
  return (const TmChartBlock *) self->blocks->data;
}

void
tm_block_layer_set_blocks (TmBlockLayer       *self,
                           const TmChartBlock *blocks,
                           guint               n)
{
  g_return_if_fail (TM_IS_BLOCK_LAYER (self));
  g_return_if_fail (blocks != NULL || n == 0);

  g_array_set_size (self->blocks, 0);
  if (n > 0)
    g_array_append_vals (self->blocks, blocks, n);
}

guint
tm_block_layer_get_n_blocks (TmBlockLayer *self)
{
  g_return_val_if_fail (TM_IS_BLOCK_LAYER (self), 0);

  return self->blocks->len;
}

void
tm_block_layer_set_color (TmBlockLayer       *self,
                          const TmChartColor *color)
{
  g_return_if_fail (TM_IS_BLOCK_LAYER (self));

  self->has_color = color != NULL;
  if (color != NULL)
    self->color = *color;
}
