/* tm-memory-map-private.h — what the memory map's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The memory map is a view (TmView) with a header (title, colour by, never
 * freed, the filter's line, legend) over one chart widget, the canvas, drawn by layer
 * objects (src/charts: the allocations and the address axis of
 * tm-map-layer, the time ruler, the shown time, the allocation under the
 * pointer, the selected one, a rubber band). Its files call one another
 * one way only, each the ones below it (tests/check-layering.py fails on
 * a circle):
 *
 * tm-memory-map.c        the widget: header, canvas, properties, the
 *                        session and its allocations query followed
 * tm-memory-map-input.c  gestures, keys, picking and the tooltip
 * tm-memory-map-legend.c the legend under the header, and which
 *                        allocations the selected scope holds
 * tm-memory-map-layers.c the geometry (canvas size, time range, address
 *                        range), the layers' inputs, drawing them
 */
#pragma once

#include "tm-allocations.h"
#include "tm-chart-layer.h"
#include "tm-memory-map.h"
#include "tm-palette.h"

G_BEGIN_DECLS

struct _TmMemoryMap
{
  TmView            parent_instance;

  TmViewport       *viewport;
  GSignalGroup     *viewport_signals;
  GSignalGroup     *allocations_signals;
  TmAllocations    *allocations;
  /* With the never-freed filter on, the subset of allocations drawn and
   * picked (tm_allocations_new_subset); NULL: all of them. */
  TmAllocations    *shown;

  /* Header */
  GtkWidget        *header;
  GtkWidget        *color_dropdown;
  GtkWidget        *never_freed_toggle;
  GtkWidget        *filter_box;     /* "Only the … never freed", Show All */
  GtkWidget        *filter_label;
  GtkWidget        *legend_box;     /* a TmFitBox */
  GtkWidget        *legend_more;    /* "+N more", its last child */
  guint             legend_beyond;  /* names not among the legend's entries */
  guint             legend_more_idle;
  GtkWidget        *canvas;

  TmMemoryMapColor  color_by;
  gboolean          highlight_never_freed;
  gboolean          never_freed_only;
  gboolean          colors_dark;    /* the style the legend was made for */
  gboolean          setting_modes;  /* the colour dropdown set by the map */
  GBytes           *in_scope;       /* per allocation: in the session's selected scope; NULL: no scope shown */

  /* The visible address range, in axis bytes, and the geometry of the
   * canvas's size, the visible time range and that address range,
   * computed when one of them changes and read by every hover. */
  double            y0;
  double            y1;
  TmChartGeometry   geometry;

  /* The layers, the cached node of the allocations, the address axis and
   * the time ruler, and that of the shown time and the selected
   * allocation (the style they were drawn in). */
  TmChartLayer     *segments_layer;  /* a PyTorch snapshot's segments, under the allocations */
  TmChartLayer     *map_layer;
  TmChartLayer     *time_layer;
  TmChartLayer     *oom_layer;       /* its out-of-memory entries */
  TmChartLayer     *shown_layer;
  TmChartLayer     *hover_layer;
  TmChartLayer     *selected_layer;
  TmChartLayer     *band_layer;
  TmChartLayer     *empty_layer;
  TmChartLayer     *moment_layer;    /* why a moment's map has no time axis */
  GskRenderNode    *map_node;
  GskRenderNode    *marks_node;
  int               cache_scale;
  gboolean          cache_dark;

  /* Pointer and gestures */
  double            pointer_x;
  double            pointer_y;
  guint             hover;
  gboolean          pointer_inside;
  gboolean          dragging;
  gboolean          banding;
  gboolean          drag_moved;
  double            drag_x0;
  double            drag_y0;
  double            drag_x1;
  double            drag_y1;
  gint64            drag_view_start;
  gint64            drag_view_end;
  double            drag_ay0;
  double            drag_ay1;
};

/* The allocations drawn and picked: those the filter keeps, or all. */
static inline TmAllocations *
_tm_memory_map_shown (TmMemoryMap *self)
{
  return self->shown != NULL ? self->shown : self->allocations;
}

/* tm-memory-map-layers.c */
/* Allocations to draw: an index with some, and a viewport. */
gboolean _tm_memory_map_has_data         (TmMemoryMap           *self);
/* A PyTorch snapshot's segments of the indexed memory id (NULL: none). */
TmSegments *_tm_memory_map_get_segments  (TmMemoryMap           *self);
void     _tm_memory_map_layers_init      (TmMemoryMap           *self);
void     _tm_memory_map_layers_clear     (TmMemoryMap           *self);
/* The geometry of a width × height canvas. */
void     _tm_memory_map_compute_geometry (TmMemoryMap           *self,
                                          int                    width,
                                          int                    height,
                                          TmChartGeometry       *geometry);
/* The geometry of the canvas again (its size, the viewport, the address
 * range), dropping the cached node when it changed. */
void     _tm_memory_map_update_geometry  (TmMemoryMap           *self);
/* The drawing changed: the cached node goes. */
void     _tm_memory_map_invalidate       (TmMemoryMap           *self);
/* Keeps the address range inside the axis, at least 16 bytes tall, and
 * lays out again. */
void     _tm_memory_map_clamp_addresses  (TmMemoryMap           *self);
/* The layers' inputs: the index, the colours and what is highlighted;
 * the shown time and the selected allocation; the pointer's. */
void     _tm_memory_map_sync_allocations (TmMemoryMap           *self);
void     _tm_memory_map_sync_highlight   (TmMemoryMap           *self);
void     _tm_memory_map_sync_selection   (TmMemoryMap           *self);
void     _tm_memory_map_sync_pointer     (TmMemoryMap           *self);
/* Everything, on snapshot over geometry. */
void     _tm_memory_map_draw             (TmMemoryMap           *self,
                                          GtkSnapshot           *snapshot,
                                          const TmChartGeometry *geometry,
                                          gboolean               cached);

/* tm-memory-map-legend.c */
/* The legend for the colour mode and the style. */
void     _tm_memory_map_update_legend    (TmMemoryMap *self);
/* Its "+N more": the names beyond its entries and the entries left out
 * for room. */
void     _tm_memory_map_update_legend_more (TmMemoryMap *self);
/* Finds the allocations of the session's selected scope (in_scope). */
void     _tm_memory_map_sync_scope       (TmMemoryMap *self);

/* tm-memory-map-input.c */
void     _tm_memory_map_input_class_init (GtkWidgetClass *widget_class);
void     _tm_memory_map_input_init       (TmMemoryMap    *self);
/* The allocation drawn under a canvas point (TM_ALLOCATIONS_NONE if none). */
guint    _tm_memory_map_pick             (TmMemoryMap    *self,
                                          double          x,
                                          double          y);
char    *_tm_memory_map_describe         (TmMemoryMap    *self,
                                          guint           index);

G_END_DECLS
