/* tm-memory-map-private.h — what the memory map's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-memory-map.c        the widget: header (colour by, never freed,
 *                        legend), session wiring, the canvas and drawing
 * tm-memory-map-legend.c colours, the legend, the selected scope's allocations
 * tm-memory-map-input.c  gestures, keys, picking and the tooltip
 */
#pragma once

#include "tm-alloc-raster.h"
#include "tm-allocations.h"
#include "tm-axis.h"
#include "tm-memory-map.h"
#include "tm-palette.h"

G_BEGIN_DECLS

#define TM_MAP_MARGIN_TOP 8

typedef struct _TmPixelPool TmPixelPool;

struct _TmMemoryMap
{
  GtkWidget         parent_instance;

  TmSession        *session;
  GSignalGroup     *session_signals;
  GSignalGroup     *viewport_signals;
  TmViewport       *viewport;
  TmAllocations    *allocations;

  /* Header */
  GtkWidget        *header;
  GtkWidget        *color_dropdown;
  GtkWidget        *never_freed_toggle;
  GtkWidget        *legend_box;
  GtkWidget        *canvas;

  TmMemoryMapColor  color_by;
  gboolean          highlight_never_freed;
  guint32          *label_colors;   /* per label, 0xAARRGGBB, for color_by */
  guint             n_label_colors;
  gboolean          colors_dark;
  GArray           *open_ended;     /* indices of allocations with an open edge */
  guint8           *in_scope;       /* per allocation: in the session's selected scope; NULL: no scope shown */

  /* The visible address range, in axis bytes. */
  double            y0;
  double            y1;

  /* The cached image and what it was made for. */
  GdkTexture       *texture;
  gint64            tex_t0;
  gint64            tex_t1;
  double            tex_y0;
  double            tex_y1;
  int               tex_width;
  int               tex_height;
  gboolean          tex_valid;
  TmPixelPool      *pixel_pool;     /* the image's pixel buffers, reused */
  /* tm_memory_map_render_node(): the size drawn for, instead of the canvas's. */
  int               forced_width;
  int               forced_height;

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

/* tm-memory-map.c */
void     _tm_memory_map_invalidate       (TmMemoryMap *self);
gboolean _tm_memory_map_has_data         (TmMemoryMap *self);
/* Plot x, y ↔ time and axis offset. */
gint64   _tm_memory_map_x_to_time        (TmMemoryMap *self,
                                          double       x);
double   _tm_memory_map_time_to_x        (TmMemoryMap *self,
                                          gint64       time_ps);
double   _tm_memory_map_y_to_axis        (TmMemoryMap *self,
                                          double       y);
double   _tm_memory_map_axis_to_y        (TmMemoryMap *self,
                                          double       offset);
void     _tm_memory_map_clamp_addresses  (TmMemoryMap *self);

/* tm-memory-map-legend.c */
guint32  _tm_memory_map_pack             (double       r,
                                          double       g,
                                          double       b,
                                          double       a);
/* Label colours for the colour mode, and the legend. */
void     _tm_memory_map_update_colors    (TmMemoryMap *self);
guint32  _tm_memory_map_allocation_color (TmMemoryMap        *self,
                                          const TmAllocation *a);
/* The colour of an allocation of that many bytes when colouring by size
 * (the same for every byte count of the same bit length). */
guint32  _tm_memory_map_size_color       (TmMemoryMap *self,
                                          gint64       bytes);
/* A quarter of color over bg (0xAARRGGBB). */
guint32  _tm_memory_map_dim_color        (guint32      color,
                                          guint32      bg);
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
