/* tm-map-painter.h — the memory map's picture, in colour
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-alloc-raster finds which allocation owns each pixel of the memory map
 * (the largest touching it); the painter gives each pixel its owner's
 * colour: a stable colour per op name, region type or data type, or per
 * size class; dimmed to a quarter over the background when the allocation
 * is not among the highlighted ones (never freed, or of the selected
 * scope). The image is one blit for any renderer; its pixel buffers are
 * kept and reused from frame to frame (a fresh one of a few MB would cost
 * a page fault per 4 KiB). The colours are those of the window's legend,
 * which asks the same functions. No GTK.
 */
#pragma once

#include <cairo.h>

#include "tm-allocations.h"

G_BEGIN_DECLS

/* What the colours tell apart. */
typedef enum
{
  TM_MAP_COLOR_OP,
  TM_MAP_COLOR_REGION,
  TM_MAP_COLOR_DATA_TYPE,
  TM_MAP_COLOR_SIZE,
} TmMapColorBy;

/* Size classes: < 1 KiB, < 1 MiB, < 16 MiB, < 256 MiB, larger. */
#define TM_MAP_N_SIZE_CLASSES 5

/* Colours are 0xAARRGGBB. */
guint32      tm_map_color_pack       (double                   r,
                                      double                   g,
                                      double                   b,
                                      double                   a);
/* A stable colour for a name: its hash picks the hue; grey for "". */
guint32      tm_map_color_for_name   (const char              *name,
                                      gboolean                 dark);
guint        tm_map_size_class       (gint64                   bytes);
guint32      tm_map_size_class_color (guint                    klass,
                                      gboolean                 dark);
/* A quarter of color over bg. */
guint32      tm_map_dim_color        (guint32                  color,
                                      guint32                  bg);
/* The name an allocation's label is coloured by (the op for the size
 * mode, which colours by size). */
const char  *tm_map_label_key        (const TmAllocationLabel *label,
                                      TmMapColorBy             color_by);

/* What the picture shows besides the allocations. */
typedef struct
{
  TmMapColorBy   color_by;
  gboolean       dark;
  guint32        background;    /* opaque, what dimmed colours fade into */
  gboolean       never_freed;   /* only the never-freed ones at full colour */
  const guint8  *in_scope;      /* per allocation: at full colour (NULL: all) */
} TmMapPaintOptions;

typedef struct _TmMapPainter TmMapPainter;

TmMapPainter    *tm_map_painter_new    (void);
void             tm_map_painter_free   (TmMapPainter            *self);
/* The colour of allocation a of allocations, undimmed. */
guint32          tm_map_painter_color  (TmMapPainter            *self,
                                        TmAllocations           *allocations,
                                        const TmAllocation      *a,
                                        TmMapColorBy             color_by,
                                        gboolean                 dark);
/* [t0, t1] × axis offsets [y0, y1] of allocations as a width × height
 * image (ARGB32, premultiplied; empty pixels transparent); a new
 * reference. Its buffer comes back to the painter when it is destroyed. */
cairo_surface_t *tm_map_painter_paint  (TmMapPainter            *self,
                                        TmAllocations           *allocations,
                                        gint64                   t0_ps,
                                        gint64                   t1_ps,
                                        double                   y0,
                                        double                   y1,
                                        int                      width,
                                        int                      height,
                                        const TmMapPaintOptions *options);

/* A frame of owners coloured the same way, for a chart whose owners are
 * not allocations (tm-rect-map-layer: tm-alloc-raster's list of
 * rectangles): cells (width × height, row 0 at the top) hold an index
 * into colors (0xAARRGGBB, opaque) or TM_ALLOCATIONS_NONE for an empty
 * pixel, which stays transparent. A new reference, its buffer from the
 * painter's as above. */
cairo_surface_t *tm_map_painter_paint_owners (TmMapPainter          *self,
                                              const guint32         *cells,
                                              int                    width,
                                              int                    height,
                                              const guint32         *colors);
/* The same in three steps, for colouring the owners a band of columns at
 * a time as tm-alloc-raster finishes them (while they are in the cache,
 * and on its two threads): the picture's pixels (width × height, from the
 * painter's buffers), its columns [x0, x0 + n_columns) coloured from
 * cells (any thread, each its own columns), then the picture made of
 * them (it owns pixels from then on). */
guint32         *tm_map_painter_take_pixels  (TmMapPainter          *self,
                                              int                    width,
                                              int                    height);
void             tm_map_paint_owner_columns  (guint32               *pixels,
                                              const guint32         *cells,
                                              int                    width,
                                              int                    height,
                                              int                    x0,
                                              int                    n_columns,
                                              const guint32         *colors);
cairo_surface_t *tm_map_painter_image        (TmMapPainter          *self,
                                              guint32               *pixels,
                                              int                    width,
                                              int                    height);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmMapPainter, tm_map_painter_free)

G_END_DECLS
