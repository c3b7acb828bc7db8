/* tm-heap-bars-layer.h — the buffers live at the peak as bars
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * XProf's pictures of the objects at the peak (docs/buffer-assignment.md,
 * "Objects at the peak"), three bars under each other across the plot,
 * each titled: the objects in program order, by size and by padding. In a
 * bar every object is a segment whose width is its share of the bar's
 * bytes (padded size; padding for the third), at least a pixel, in its
 * colour; the selected object is outlined in all three, and objects not
 * lit are faded. tm_heap_bars_layer_object_at() tells which object a
 * point is on.
 */
#pragma once

#include "tm-chart-layer.h"

G_BEGIN_DECLS

#define TM_TYPE_HEAP_BARS_LAYER (tm_heap_bars_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmHeapBarsLayer, tm_heap_bars_layer, TM, HEAP_BARS_LAYER, TmChartLayer)

typedef enum
{
  TM_HEAP_BARS_ORDER,    /* program order */
  TM_HEAP_BARS_SIZE,
  TM_HEAP_BARS_PADDING,
  TM_HEAP_BARS_N,
} TmHeapBarsKind;

/* sizes and padding (gint64 per object), colors (guint32 0xRRGGBB per
 * object), by_size and by_padding (guint: object indices in those
 * orders); references are taken. */
TmChartLayer *tm_heap_bars_layer_new          (GArray          *sizes,
                                               GArray          *padding,
                                               GArray          *colors,
                                               GArray          *by_size,
                                               GArray          *by_padding);
void          tm_heap_bars_layer_set_selected (TmHeapBarsLayer *self,
                                               guint            object);
/* guint8 per object (a reference is taken), or NULL: all lit. */
void          tm_heap_bars_layer_set_lit      (TmHeapBarsLayer *self,
                                               GArray          *lit);
/* The height the three bars with their titles need, in pixels. */
int           tm_heap_bars_layer_get_height   (TmChartCanvas   *canvas);
/* The object at (x, y) when drawn over geometry (G_MAXUINT: none); kind
 * says in which bar. */
guint         tm_heap_bars_layer_object_at    (TmHeapBarsLayer       *self,
                                               TmChartCanvas         *canvas,
                                               const TmChartGeometry *geometry,
                                               double                 x,
                                               double                 y,
                                               TmHeapBarsKind        *kind);

G_END_DECLS
