/* tm-legend-layer.c — the timeline's legend row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tm-chart-palette.h"
#include "tm-legend-layer.h"

#define LEGEND_Y 14
#define MAX_ITEMS 6

typedef struct
{
  guint        entry;
  const char  *label;
  TmChartRect  box;        /* what a click hits */
  double       swatch_x;
} Item;

struct _TmLegendLayer
{
  TmChartLayer parent_instance;

  gboolean     has_free;
  gboolean     caching_allocator;
  guint        hidden;
  char        *plan;       /* the plan's level's entry, or NULL */
  /* The entries as last drawn, for tm_legend_layer_item_at() without a
   * canvas. */
  Item         drawn[MAX_ITEMS];
  guint        n_drawn;
};

G_DEFINE_FINAL_TYPE (TmLegendLayer, tm_legend_layer, TM_TYPE_CHART_LAYER)

/* The entries in order, laid out from the plot's left edge. */
static guint
layout_items (TmLegendLayer         *self,
              TmChartCanvas         *canvas,
              const TmChartGeometry *g,
              Item                   items[MAX_ITEMS])
{
  double x = g->plot.x;
  guint n = 0;

  if (self->caching_allocator)
    {
      /* PyTorch's words, as the cards say them: no stack, no
       * fragmentation over time. */
      items[n++] = (Item) { 1u << TM_SERIES_HEAP, _("Allocated") };
      if (self->has_free)
        items[n++] = (Item) { 1u << TM_SERIES_FREE, _("Not allocated") };
      items[n++] = (Item) { TM_LEGEND_PEAK, _("Peak") };
    }
  else
    {
      items[n++] = (Item) { 1u << TM_SERIES_STACK, _("Stack") };
      items[n++] = (Item) { 1u << TM_SERIES_HEAP, _("Heap") };
      if (self->has_free)
        items[n++] = (Item) { 1u << TM_SERIES_FREE, _("Free") };
      items[n++] = (Item) { TM_LEGEND_FRAGMENTATION, _("Fragmentation (right axis)") };
      items[n++] = (Item) { TM_LEGEND_PEAK, _("Window peak") };
    }
  if (self->plan != NULL)
    items[n++] = (Item) { TM_LEGEND_PLAN, self->plan };

  for (guint i = 0; i < n; i++)
    {
      int w, h;

      tm_chart_canvas_measure (canvas, items[i].label, &w, &h);
      items[i].swatch_x = x;
      items[i].box = (TmChartRect) { x - 4, LEGEND_Y - MAX (h, 14) / 2.0 - 2, 18 + w + 8, MAX (h, 14) + 4 };
      x += 18 + w + 16;
    }
  return n;
}

static void
tm_legend_layer_draw (TmChartLayer          *layer,
                      TmChartCanvas         *canvas,
                      const TmChartGeometry *g)
{
  TmLegendLayer *self = TM_LEGEND_LAYER (layer);
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);
  Item items[MAX_ITEMS];
  guint n = layout_items (self, canvas, g, items);

  memcpy (self->drawn, items, sizeof items);
  self->n_drawn = n;
  for (guint i = 0; i < n; i++)
    {
      const Item *item = &items[i];
      gboolean hidden = (item->entry & self->hidden) != 0;
      double x = item->swatch_x, y = LEGEND_Y;
      TmChartColor fill, line, label = hidden ? palette->dim : palette->fg;

      if (item->entry == TM_LEGEND_PEAK)
        fill = line = palette->peak;
      else if (item->entry == TM_LEGEND_PLAN)
        {
          tm_chart_palette_get_color (TM_PALETTE_PLAN, palette->dark, &line);
          fill = line;
        }
      else if (item->entry == TM_LEGEND_FRAGMENTATION)
        fill = line = palette->frag;
      else
        {
          int series = g_bit_nth_lsf (item->entry, -1);

          fill = palette->series_fill[series];
          line = palette->series[series];
        }
      if (hidden)
        {
          line.alpha *= 0.5f;
          label.alpha *= 0.8f;
        }

      if (item->entry == TM_LEGEND_PEAK)
        {
          /* The window peak's dotted line. */
          for (double yy = y - 6; yy < y + 6; yy += 5)
            tm_chart_canvas_rect (canvas, &line, x + 6 - 0.5, yy, 1, 3);
        }
      else if (item->entry == TM_LEGEND_PLAN)
        tm_chart_canvas_rect (canvas, &line, x, y - 1, 13, 2);
      else if (item->entry == TM_LEGEND_FRAGMENTATION)
        {
          tm_chart_canvas_rect (canvas, &line, x, y - 1, 5, 2);
          tm_chart_canvas_rect (canvas, &line, x + 8, y - 1, 5, 2);
        }
      else if (hidden)
        {
          /* A hollow swatch: the series is not drawn. */
          tm_chart_canvas_rect (canvas, &line, x, y - 5, 13, 1);
          tm_chart_canvas_rect (canvas, &line, x, y + 4, 13, 1);
          tm_chart_canvas_rect (canvas, &line, x, y - 5, 1, 10);
          tm_chart_canvas_rect (canvas, &line, x + 12, y - 5, 1, 10);
        }
      else
        {
          tm_chart_canvas_rect (canvas, &fill, x, y - 5, 13, 10);
          tm_chart_canvas_rect (canvas, &line, x, y - 5, 13, 2);
        }

      tm_chart_canvas_label (canvas, item->label, x + 18, y, 0.0, 0.5, &label, NULL);
      /* Struck through, so the state reads without colour too. */
      if (hidden)
        tm_chart_canvas_rect (canvas, &label, x + 18, y, item->box.width - 26, 1);
    }
}

static void
tm_legend_layer_finalize (GObject *object)
{
  g_clear_pointer (&TM_LEGEND_LAYER (object)->plan, g_free);

  G_OBJECT_CLASS (tm_legend_layer_parent_class)->finalize (object);
}

static void
tm_legend_layer_class_init (TmLegendLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_legend_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_legend_layer_draw;
}

static void
tm_legend_layer_init (TmLegendLayer *self)
{
}

TmChartLayer *
tm_legend_layer_new (void)
{
  return g_object_new (TM_TYPE_LEGEND_LAYER, NULL);
}

void
tm_legend_layer_set_free (TmLegendLayer *self,
                          gboolean       has_free)
{
  g_return_if_fail (TM_IS_LEGEND_LAYER (self));

  /* Another set of entries: laid out again when next drawn. */
  if (self->has_free != !!has_free)
    self->n_drawn = 0;
  self->has_free = !!has_free;
}

void
tm_legend_layer_set_caching_allocator (TmLegendLayer *self,
                                       gboolean       caching_allocator)
{
  g_return_if_fail (TM_IS_LEGEND_LAYER (self));

  if (self->caching_allocator != !!caching_allocator)
    self->n_drawn = 0;
  self->caching_allocator = !!caching_allocator;
}

void
tm_legend_layer_set_hidden (TmLegendLayer *self,
                            guint          hidden)
{
  g_return_if_fail (TM_IS_LEGEND_LAYER (self));

  self->hidden = hidden;
}

void
tm_legend_layer_set_plan (TmLegendLayer *self,
                          const char    *label)
{
  g_return_if_fail (TM_IS_LEGEND_LAYER (self));

  if (g_strcmp0 (self->plan, label) == 0)
    return;
  g_free (self->plan);
  self->plan = g_strdup (label);
  self->n_drawn = 0;
}

gboolean
tm_legend_layer_is_laid_out (TmLegendLayer *self)
{
  g_return_val_if_fail (TM_IS_LEGEND_LAYER (self), FALSE);

  return self->n_drawn > 0;
}

guint
tm_legend_layer_item_at (TmLegendLayer         *self,
                         TmChartCanvas         *canvas,
                         const TmChartGeometry *geometry,
                         double                 x,
                         double                 y)
{
  Item items[MAX_ITEMS];
  guint n;

  g_return_val_if_fail (TM_IS_LEGEND_LAYER (self), 0);

  if (canvas == NULL)
    {
      memcpy (items, self->drawn, sizeof items);
      n = self->n_drawn;
    }
  else
    n = layout_items (self, canvas, geometry, items);
  for (guint i = 0; i < n; i++)
    if (x >= items[i].box.x && x < items[i].box.x + items[i].box.width &&
        y >= items[i].box.y && y < items[i].box.y + items[i].box.height)
      return items[i].entry;
  return 0;
}
