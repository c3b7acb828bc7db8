/* tm-buffer-charts.c — the Memory Viewer page's three charts of one module
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "tm-alloc-raster.h"
#include "tm-buffer-charts.h"
#include "tm-heap-bars-layer.h"
#include "tm-heap-layer.h"
#include "tm-mark-layer.h"
#include "tm-program-axes-layer.h"
#include "tm-rect-map-layer.h"

/* The bars' margins: the plot spans the chart but for these. */
#define BARS_MARGIN 12

struct _TmBufferCharts
{
  GObject          parent_instance;

  TmChart         *charts[TM_BUFFER_N_CHARTS];
  guint            n_points;
  gint64           max_heap;      /* the heap chart's top: the peak */
  guint64          axis_length;   /* the offset chart's: the traced allocations' bytes */

  /* The objects at the peak, and the blocks (by rectangle: sorted by start). */
  GArray          *object_ids;    /* gint64 */
  GArray          *rects;         /* TmRasterRect */
  GArray          *rect_blocks;   /* guint: the block of each rectangle */
  GArray          *rect_ids;      /* gint64: its logical buffer */
  GArray          *object_lit;    /* guint8 */
  GArray          *rect_lit;      /* guint8 */

  TmHeapBarsLayer *bars;
  TmRectMapLayer  *map;
};

G_DEFINE_FINAL_TYPE (TmBufferCharts, tm_buffer_charts, G_TYPE_OBJECT)

static guint32
parse_color (const char *text)
{
  if (text == NULL || text[0] != '#' || strlen (text) != 7)
    return 0x808080;
  return (guint32) strtoul (text + 1, NULL, 16);
}

typedef struct
{
  TmRasterRect rect;
  guint        block;
} Sorted;

static int
compare_sorted (gconstpointer a,
                gconstpointer b)
{
  const Sorted *x = a, *y = b;

  if (x->rect.x0 != y->rect.x0)
    return x->rect.x0 < y->rect.x0 ? -1 : 1;
  return x->block < y->block ? -1 : x->block > y->block;
}

static void
build_bars (TmBufferCharts           *self,
            const TmBufferAssignment *ba)
{
  guint n = ba->max_heap->len;
  g_autoptr(GArray) sizes = g_array_sized_new (FALSE, FALSE, sizeof (gint64), n);
  g_autoptr(GArray) padding = g_array_sized_new (FALSE, FALSE, sizeof (gint64), n);
  g_autoptr(GArray) colors = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  g_autoptr(TmChartLayer) layer = NULL;

  for (guint i = 0; i < n; i++)
    {
      const TmHeapObject *o = &g_array_index (ba->max_heap, TmHeapObject, i);
      /* As XProf's page: 0 unless both sizes are known. */
      gint64 pad = o->size != 0 && o->unpadded_size != 0 ? o->size - o->unpadded_size : 0;
      guint32 color = parse_color (tm_buffer_assignment_color ((guint) o->numbered));

      g_array_append_val (sizes, o->size);
      g_array_append_val (padding, pad);
      g_array_append_val (colors, color);
      g_array_append_val (self->object_ids, o->logical_buffer_id);
    }
  layer = tm_heap_bars_layer_new (sizes, padding, colors, ba->by_size, ba->by_padding);
  self->bars = TM_HEAP_BARS_LAYER (layer);
  tm_chart_add_layer (self->charts[TM_BUFFER_CHART_BARS], layer);
}

static void
build_offsets (TmBufferCharts           *self,
               const TmBufferAssignment *ba)
{
  g_autoptr(GArray) sorted = g_array_sized_new (FALSE, FALSE, sizeof (Sorted), ba->blocks->len);
  g_autoptr(GArray) colors = NULL;
  g_autoptr(GArray) containers = g_array_new (FALSE, FALSE, sizeof (TmRasterRect));
  g_autoptr(TmChartLayer) map = NULL;

  for (guint i = 0; i < ba->blocks->len; i++)
    {
      const TmBufferBlock *b = &g_array_index (ba->blocks, TmBufferBlock, i);
      Sorted s;

      /* A container spans every point, under its buffers; a buffer is in
       * the heap from the point after the event that allocated it to the
       * point of the one that freed it. */
      s.rect.y0 = (double) b->offset;
      s.rect.y1 = (double) b->offset + (double) MAX (b->size, 1);
      self->axis_length = MAX (self->axis_length, b->offset + (guint64) MAX (b->size, 0));
      if (b->logical_buffer_id == -1)
        {
          s.rect.x0 = 0;
          s.rect.x1 = (double) MAX (self->n_points, (guint) MAX (b->end_step, 0) + 1);
          s.rect.bytes = 0;
          g_array_append_val (containers, s.rect);
          continue;
        }
      s.rect.x0 = (double) b->start_step + 1;
      s.rect.x1 = (double) b->end_step + 1;
      s.rect.bytes = (guint64) MAX (b->size, 1);
      s.block = i;
      g_array_append_val (sorted, s);
    }
  g_array_sort (sorted, compare_sorted);

  colors = g_array_sized_new (FALSE, FALSE, sizeof (guint32), sorted->len);
  for (guint i = 0; i < sorted->len; i++)
    {
      const Sorted *s = &g_array_index (sorted, Sorted, i);
      const TmBufferBlock *b = &g_array_index (ba->blocks, TmBufferBlock, s->block);
      gint64 id = b->logical_buffer_id;
      guint32 color = parse_color (b->color);
      guint8 lit = TRUE;

      g_array_append_val (self->rects, s->rect);
      g_array_append_val (self->rect_blocks, s->block);
      g_array_append_val (self->rect_ids, id);
      g_array_append_val (colors, color);
      g_array_append_val (self->rect_lit, lit);
    }
  map = tm_rect_map_layer_new (self->rects, colors);
  self->map = TM_RECT_MAP_LAYER (map);
  tm_rect_map_layer_set_lit (self->map, self->rect_lit);
  tm_rect_map_layer_set_backdrop (self->map, containers);
  tm_chart_add_layer (self->charts[TM_BUFFER_CHART_OFFSETS], tm_program_axes_layer_new (TM_PROGRAM_AXES_POINTS));
  tm_chart_add_layer (self->charts[TM_BUFFER_CHART_OFFSETS], map);
}

static void
tm_buffer_charts_finalize (GObject *object)
{
  TmBufferCharts *self = TM_BUFFER_CHARTS (object);

  for (guint k = 0; k < TM_BUFFER_N_CHARTS; k++)
    g_clear_object (&self->charts[k]);
  g_clear_pointer (&self->object_ids, g_array_unref);
  g_clear_pointer (&self->rects, g_array_unref);
  g_clear_pointer (&self->rect_blocks, g_array_unref);
  g_clear_pointer (&self->rect_ids, g_array_unref);
  g_clear_pointer (&self->object_lit, g_array_unref);
  g_clear_pointer (&self->rect_lit, g_array_unref);

  G_OBJECT_CLASS (tm_buffer_charts_parent_class)->finalize (object);
}

static void
tm_buffer_charts_class_init (TmBufferChartsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_buffer_charts_finalize;
}

static void
tm_buffer_charts_init (TmBufferCharts *self)
{
  for (guint k = 0; k < TM_BUFFER_N_CHARTS; k++)
    self->charts[k] = tm_chart_new ();
  self->object_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->rects = g_array_new (FALSE, FALSE, sizeof (TmRasterRect));
  self->rect_blocks = g_array_new (FALSE, FALSE, sizeof (guint));
  self->rect_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->object_lit = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->rect_lit = g_array_new (FALSE, FALSE, sizeof (guint8));
}

TmBufferCharts *
tm_buffer_charts_new (const TmBufferAssignment *ba)
{
  TmBufferCharts *self;
  g_autoptr(TmChartLayer) heap = NULL;
  g_autoptr(TmChartLayer) peak = NULL;

  g_return_val_if_fail (ba != NULL, NULL);

  self = g_object_new (TM_TYPE_BUFFER_CHARTS, NULL);
  self->n_points = ba->heap_sizes->len;

  heap = tm_heap_layer_new (ba->heap_sizes, ba->unpadded_heap_sizes, ba->indefinite_bytes);
  self->max_heap = tm_heap_layer_get_max (TM_HEAP_LAYER (heap));
  tm_chart_add_layer (self->charts[TM_BUFFER_CHART_HEAP], tm_program_axes_layer_new (TM_PROGRAM_AXES_BYTES |
                                                                                       TM_PROGRAM_AXES_POINTS));
  tm_chart_add_layer (self->charts[TM_BUFFER_CHART_HEAP], heap);
  peak = tm_mark_layer_new (TM_MARK_PEAK);
  /* The peak is reached at the point after the event that raised it. */
  tm_mark_layer_set (TM_MARK_LAYER (peak), ba->n_trace_events > 0, ba->peak_position + 1,
                     tm_buffer_assignment_get_peak (ba));
  tm_chart_add_layer (self->charts[TM_BUFFER_CHART_HEAP], peak);

  build_bars (self, ba);
  build_offsets (self, ba);
  g_array_set_size (self->object_lit, self->object_ids->len);
  return self;
}

gboolean
tm_buffer_charts_has_trace (TmBufferCharts *self)
{
  g_return_val_if_fail (TM_IS_BUFFER_CHARTS (self), FALSE);

  return self->n_points > 0;
}

gboolean
tm_buffer_charts_has_objects (TmBufferCharts *self)
{
  g_return_val_if_fail (TM_IS_BUFFER_CHARTS (self), FALSE);

  return self->object_ids->len > 0;
}

guint
tm_buffer_charts_get_n_points (TmBufferCharts *self)
{
  g_return_val_if_fail (TM_IS_BUFFER_CHARTS (self), 0);

  return self->n_points;
}

int
tm_buffer_charts_get_bars_height (TmBufferCharts *self,
                                  TmChartCanvas  *canvas)
{
  g_return_val_if_fail (TM_IS_BUFFER_CHARTS (self), 0);

  return tm_heap_bars_layer_get_height (canvas) + 2 * BARS_MARGIN;
}

void
tm_buffer_charts_set_size (TmBufferCharts    *self,
                           TmBufferChartKind  kind,
                           int                width,
                           int                height)
{
  TmChartGeometry g;

  g_return_if_fail (TM_IS_BUFFER_CHARTS (self));
  g_return_if_fail (kind < TM_BUFFER_N_CHARTS);

  switch (kind)
    {
    case TM_BUFFER_CHART_HEAP:
      tm_chart_geometry_init (&g, width, height, FALSE, 0, MAX (self->n_points, 1), self->max_heap);
      break;

    case TM_BUFFER_CHART_OFFSETS:
      tm_chart_geometry_init (&g, width, height, FALSE, 0, MAX (self->n_points, 1), (gint64) self->axis_length);
      /* The offset axis: the blocks' bytes from 0 at the bottom. */
      g.axis_y0 = 0;
      g.axis_y1 = (double) MAX (self->axis_length, 1);
      break;

    case TM_BUFFER_CHART_BARS:
    case TM_BUFFER_N_CHARTS:
    default:
      tm_chart_geometry_init (&g, width, height, FALSE, 0, 1, 1);
      g.plot = (TmChartRect) { BARS_MARGIN, BARS_MARGIN, MAX (1, width - 2 * BARS_MARGIN),
                               MAX (1, height - 2 * BARS_MARGIN) };
      break;
    }
  tm_chart_set_geometry (self->charts[kind], &g);
}

TmChart *
tm_buffer_charts_get_chart (TmBufferCharts    *self,
                            TmBufferChartKind  kind)
{
  g_return_val_if_fail (TM_IS_BUFFER_CHARTS (self), NULL);
  g_return_val_if_fail (kind < TM_BUFFER_N_CHARTS, NULL);

  return self->charts[kind];
}

void
tm_buffer_charts_draw (TmBufferCharts    *self,
                       TmBufferChartKind  kind,
                       TmChartCanvas     *canvas)
{
  g_return_if_fail (TM_IS_BUFFER_CHARTS (self));
  g_return_if_fail (kind < TM_BUFFER_N_CHARTS);

  tm_chart_draw (self->charts[kind], canvas);
}

guint
tm_buffer_charts_point_at (TmBufferCharts    *self,
                           TmBufferChartKind  kind,
                           double             x)
{
  const TmChartGeometry *g;
  double p;

  g_return_val_if_fail (TM_IS_BUFFER_CHARTS (self), G_MAXUINT);
  g_return_val_if_fail (kind < TM_BUFFER_N_CHARTS, G_MAXUINT);

  g = tm_chart_get_geometry (self->charts[kind]);
  if (self->n_points == 0 || x < g->plot.x || x >= g->plot.x + g->plot.width || g->end_ps <= g->start_ps)
    return G_MAXUINT;
  p = (double) g->start_ps + (x - g->plot.x) / g->plot.width * (double) (g->end_ps - g->start_ps);
  return MIN ((guint) floor (p), self->n_points - 1);
}

double
tm_buffer_charts_point_to_x (TmBufferCharts    *self,
                             TmBufferChartKind  kind,
                             guint              point)
{
  g_return_val_if_fail (TM_IS_BUFFER_CHARTS (self), 0);
  g_return_val_if_fail (kind < TM_BUFFER_N_CHARTS, 0);

  return tm_chart_geometry_time_to_x (tm_chart_get_geometry (self->charts[kind]), point);
}

guint
tm_buffer_charts_object_at (TmBufferCharts *self,
                            TmChartCanvas  *canvas,
                            double          x,
                            double          y)
{
  g_return_val_if_fail (TM_IS_BUFFER_CHARTS (self), G_MAXUINT);

  return tm_heap_bars_layer_object_at (self->bars, canvas, tm_chart_get_geometry (self->charts[TM_BUFFER_CHART_BARS]),
                                       x, y, NULL);
}

guint
tm_buffer_charts_block_at (TmBufferCharts *self,
                           double          x,
                           double          y)
{
  const TmChartGeometry *g;
  double px, value, per_px, per_value;
  guint best = G_MAXUINT;
  guint64 best_bytes = 0;

  g_return_val_if_fail (TM_IS_BUFFER_CHARTS (self), G_MAXUINT);

  g = tm_chart_get_geometry (self->charts[TM_BUFFER_CHART_OFFSETS]);
  if (x < g->plot.x || x >= g->plot.x + g->plot.width || y < g->plot.y || y >= g->plot.y + g->plot.height ||
      g->end_ps <= g->start_ps || self->axis_length == 0)
    return G_MAXUINT;
  per_px = (double) (g->end_ps - g->start_ps) / g->plot.width;
  per_value = (double) self->axis_length / g->plot.height;
  px = (double) g->start_ps + (x - g->plot.x) * per_px;
  value = (g->plot.y + g->plot.height - y) * per_value;

  /* The largest buffer within a pixel of the pointer, as the painter
   * lets the largest own a pixel. */
  for (guint i = 0; i < self->rects->len; i++)
    {
      const TmRasterRect *r = &g_array_index (self->rects, TmRasterRect, i);

      if (r->x0 > px + per_px)
        break;
      if (r->x1 < px - per_px ||
          r->y0 > value + per_value || r->y1 < value - per_value)
        continue;
      if (best == G_MAXUINT || r->bytes > best_bytes)
        {
          best = g_array_index (self->rect_blocks, guint, i);
          best_bytes = r->bytes;
        }
    }
  return best;
}

void
tm_buffer_charts_select (TmBufferCharts *self,
                         gint64          id)
{
  guint object = G_MAXUINT, rect = G_MAXUINT;

  g_return_if_fail (TM_IS_BUFFER_CHARTS (self));

  for (guint i = 0; id != -1 && i < self->object_ids->len && object == G_MAXUINT; i++)
    if (g_array_index (self->object_ids, gint64, i) == id)
      object = i;
  for (guint i = 0; id != -1 && i < self->rect_ids->len && rect == G_MAXUINT; i++)
    if (g_array_index (self->rect_ids, gint64, i) == id)
      rect = i;
  tm_heap_bars_layer_set_selected (self->bars, object);
  tm_rect_map_layer_set_selected (self->map, rect);
}

static int
compare_id (gconstpointer a,
            gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static gboolean
has_id (GArray *ids,
        gint64  id)
{
  return ids->len > 0 && bsearch (&id, ids->data, ids->len, sizeof (gint64), compare_id) != NULL;
}

void
tm_buffer_charts_set_lit (TmBufferCharts *self,
                          GArray         *ids)
{
  g_return_if_fail (TM_IS_BUFFER_CHARTS (self));

  for (guint i = 0; i < self->rect_lit->len; i++)
    {
      gint64 id = g_array_index (self->rect_ids, gint64, i);

      g_array_index (self->rect_lit, guint8, i) = ids == NULL || has_id (ids, id);
    }
  for (guint i = 0; ids != NULL && i < self->object_lit->len; i++)
    g_array_index (self->object_lit, guint8, i) = has_id (ids, g_array_index (self->object_ids, gint64, i));
  tm_heap_bars_layer_set_lit (self->bars, ids != NULL ? self->object_lit : NULL);
  tm_rect_map_layer_set_lit (self->map, self->rect_lit);
}
