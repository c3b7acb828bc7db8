/* tm-memory-map.h — every allocation of the shown memory id, over time and address
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view of the session (TmView): x is the session's time axis (its
 * viewport, shared with the usage timeline), y the address axis of the
 * memory id's allocation index (tm-allocations, from the session's
 * tm-allocations-query) with long unused gaps cut to a break. Each
 * allocation is a rectangle from its allocation to the event that ends
 * it; open edges are marked. Colours by op, region, data type or size
 * class; a click selects the allocation in the session. A chart widget
 * drawn by layer objects (docs/architecture.md, "Adding a layer").
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_MEMORY_MAP (tm_memory_map_get_type ())
G_DECLARE_FINAL_TYPE (TmMemoryMap, tm_memory_map, TM, MEMORY_MAP, TmView)

/* What the colours tell apart (the values of tm-map-painter's
 * TmMapColorBy). */
typedef enum
{
  TM_MEMORY_MAP_COLOR_OP,
  TM_MEMORY_MAP_COLOR_REGION,
  TM_MEMORY_MAP_COLOR_DATA_TYPE,
  TM_MEMORY_MAP_COLOR_SIZE,
} TmMemoryMapColor;

GtkWidget        *tm_memory_map_new              (TmSession        *session);
TmMemoryMapColor  tm_memory_map_get_color_by     (TmMemoryMap      *self);
void              tm_memory_map_set_color_by     (TmMemoryMap      *self,
                                                  TmMemoryMapColor  color_by);
/* Whether allocations never freed stand out (the others are dimmed). */
gboolean          tm_memory_map_get_highlight_never_freed (TmMemoryMap *self);
void              tm_memory_map_set_highlight_never_freed (TmMemoryMap *self,
                                                           gboolean     highlight);
/* Whether only the allocations never freed are drawn (and picked), the
 * others left out; the header says so, with a way back (docs/ui.md,
 * "The memory map's never-freed filter"). */
gboolean          tm_memory_map_get_never_freed_only (TmMemoryMap *self);
void              tm_memory_map_set_never_freed_only (TmMemoryMap *self,
                                                      gboolean     never_freed_only);
/* The drawing area (focusable; for tests and key bindings). */
GtkWidget        *tm_memory_map_get_canvas       (TmMemoryMap      *self);
/* The plot inside the canvas, in canvas coordinates. */
void              tm_memory_map_get_plot         (TmMemoryMap      *self,
                                                  graphene_rect_t  *plot);
/* The visible address axis range, in axis bytes (tm-allocations.h). */
void              tm_memory_map_get_address_range (TmMemoryMap     *self,
                                                   double          *y0,
                                                   double          *y1);
void              tm_memory_map_set_address_range (TmMemoryMap     *self,
                                                   double           y0,
                                                   double           y1);
/* What the canvas draws at width × height (benchmarks and tests; NULL
 * when nothing is drawn), uncached. */
GskRenderNode    *tm_memory_map_render_node      (TmMemoryMap      *self,
                                                  int               width,
                                                  int               height);

G_END_DECLS
