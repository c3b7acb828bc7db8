/* tm-memory-map-layers.c — the memory map's layers: the geometry, their
 * inputs, drawing them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The allocations, the address axis and the open ends (tm-map-layer: one
 * image from the painter on screen) and the time ruler are one cached
 * render node, made again when the geometry, the colours or what is
 * highlighted change; the shown time, the allocation under the pointer,
 * the selected one and a rubber band are drawn over it every frame.
 * Without allocations the plot holds a word instead ("Indexing
 * allocations…" under the time ruler while the index is built).
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tm-allocations-query.h"
#include "tm-axes-layer.h"
#include "tm-block-layer.h"
#include "tm-chart-node.h"
#include "tm-map-layer.h"
#include "tm-mark-layer.h"
#include "tm-memory-map-private.h"
#include "tm-note-layer.h"

gboolean
_tm_memory_map_has_data (TmMemoryMap *self)
{
  return self->allocations != NULL && self->viewport != NULL &&
         tm_allocations_get_n (self->allocations) > 0;
}

TmSegments *
_tm_memory_map_get_segments (TmMemoryMap *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmProfile *profile = session != NULL ? tm_session_get_profile (session) : NULL;

  return profile != NULL && self->allocations != NULL
         ? tm_profile_lookup_segments (profile, tm_allocations_get_store (self->allocations))
         : NULL;
}

void
_tm_memory_map_layers_init (TmMemoryMap *self)
{
  self->segments_layer = tm_block_layer_new (TM_BLOCK_FILL);
  self->oom_layer = tm_mark_layer_new (TM_MARK_LINE);
  self->map_layer = tm_map_layer_new (NULL);
  tm_map_layer_set_open_ends (TM_MAP_LAYER (self->map_layer), TRUE);
  self->time_layer = tm_axes_layer_new (TM_AXES_TIME);
  tm_axes_layer_set_label_gap (TM_AXES_LAYER (self->time_layer), 4);
  self->shown_layer = tm_mark_layer_new (TM_MARK_LINE);
  self->hover_layer = tm_block_layer_new (TM_BLOCK_OUTLINE);
  self->selected_layer = tm_block_layer_new (TM_BLOCK_SELECTED);
  self->band_layer = tm_block_layer_new (TM_BLOCK_BAND);
  self->empty_layer = tm_note_layer_new (TM_NOTE_PLOT_CENTER);
  self->moment_layer = tm_note_layer_new (TM_NOTE_TOP_LEFT);
  tm_chart_geometry_init_map (&self->geometry, 0, 0, 0, 1, 0, 1);
}

void
_tm_memory_map_layers_clear (TmMemoryMap *self)
{
  g_clear_object (&self->segments_layer);
  g_clear_object (&self->map_layer);
  g_clear_object (&self->time_layer);
  g_clear_object (&self->oom_layer);
  g_clear_object (&self->shown_layer);
  g_clear_object (&self->hover_layer);
  g_clear_object (&self->selected_layer);
  g_clear_object (&self->band_layer);
  g_clear_object (&self->empty_layer);
  g_clear_object (&self->moment_layer);
  g_clear_pointer (&self->map_node, gsk_render_node_unref);
  g_clear_pointer (&self->marks_node, gsk_render_node_unref);
}

/* ------------------------------------------------------------------ */
/* The geometry                                                         */

void
_tm_memory_map_compute_geometry (TmMemoryMap     *self,
                                 int              width,
                                 int              height,
                                 TmChartGeometry *geometry)
{
  tm_chart_geometry_init_map (geometry, width, height,
                              self->viewport != NULL ? tm_viewport_get_start (self->viewport) : 0,
                              self->viewport != NULL ? tm_viewport_get_end (self->viewport) : 1,
                              self->y0, self->y1);
  geometry->moment = self->allocations != NULL && tm_allocations_is_moment (self->allocations);
}

void
_tm_memory_map_invalidate (TmMemoryMap *self)
{
  g_clear_pointer (&self->map_node, gsk_render_node_unref);
  g_clear_pointer (&self->marks_node, gsk_render_node_unref);
  if (self->canvas != NULL)
    gtk_widget_queue_draw (self->canvas);
}

void
_tm_memory_map_update_geometry (TmMemoryMap *self)
{
  TmChartGeometry g;

  _tm_memory_map_compute_geometry (self, self->canvas != NULL ? gtk_widget_get_width (self->canvas) : 0,
                                   self->canvas != NULL ? gtk_widget_get_height (self->canvas) : 0, &g);
  if (memcmp (&g, &self->geometry, sizeof g) == 0)
    return;
  self->geometry = g;
  /* The pointer's blocks and the shown time sit at other pixels now. */
  _tm_memory_map_invalidate (self);
}

void
_tm_memory_map_clamp_addresses (TmMemoryMap *self)
{
  double len = self->allocations != NULL ? (double) tm_allocations_get_axis_length (self->allocations) : 1.0;
  double span = CLAMP (self->y1 - self->y0, MIN (16.0, len), MAX (len, 1.0));

  if (len <= 0)
    len = 1;
  self->y0 = CLAMP (self->y0, 0.0, MAX (len - span, 0.0));
  self->y1 = self->y0 + span;
  _tm_memory_map_update_geometry (self);
}

void
tm_memory_map_get_plot (TmMemoryMap     *self,
                        graphene_rect_t *plot)
{
  g_return_if_fail (TM_IS_MEMORY_MAP (self));
  g_return_if_fail (plot != NULL);

  graphene_rect_init (plot, self->geometry.plot.x, self->geometry.plot.y,
                      self->geometry.plot.width, self->geometry.plot.height);
}

void
tm_memory_map_get_address_range (TmMemoryMap *self,
                                 double      *y0,
                                 double      *y1)
{
  g_return_if_fail (TM_IS_MEMORY_MAP (self));

  *y0 = self->y0;
  *y1 = self->y1;
}

void
tm_memory_map_set_address_range (TmMemoryMap *self,
                                 double       y0,
                                 double       y1)
{
  g_return_if_fail (TM_IS_MEMORY_MAP (self));

  self->y0 = MIN (y0, y1);
  self->y1 = MAX (y0, y1);
  _tm_memory_map_clamp_addresses (self);
}

/* ------------------------------------------------------------------ */
/* The layers' inputs                                                   */

/* An allocation as a block on the address axis. */
static TmChartBlock
allocation_block (TmAllocations *allocations,
                  guint          index)
{
  const TmAllocation *a = tm_allocations_get (allocations, index);

  return (TmChartBlock) {
    tm_allocations_get_start_time (allocations, index),
    tm_allocations_get_end_time (allocations, index),
    tm_allocations_address_to_axis (allocations, a->address),
    tm_allocations_address_to_axis (allocations, a->address + (guint64) MAX (TM_ALLOCATION_BYTES (a), 1)),
  };
}

void
_tm_memory_map_sync_allocations (TmMemoryMap *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  const char *empty = NULL;
  gboolean moment;

  tm_map_layer_set_allocations (TM_MAP_LAYER (self->map_layer), _tm_memory_map_shown (self));
  /* A snapshot's reserved memory behind its allocations, its failures
   * over them (docs/ui.md, "Memory map"). */
  tm_block_layer_set_segments (TM_BLOCK_LAYER (self->segments_layer), _tm_memory_map_get_segments (self),
                               self->allocations);
  tm_mark_layer_set_out_of_memory (TM_MARK_LAYER (self->oom_layer), _tm_memory_map_get_segments (self));
  _tm_memory_map_sync_highlight (self);

  /* The index comes a moment after the rest of the window: the time axis
   * is already where the map will be, with a quiet word in the plot. */
  if (session == NULL || tm_session_get_memory_store (session) == NULL || _tm_memory_map_has_data (self))
    empty = NULL;
  else if (self->allocations == NULL && tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)))
    empty = _("Indexing allocations…");
  else if (self->allocations == NULL)
    empty = _("The allocations could not be read: the file changed on disk");
  else
    empty = _("No allocations in this memory id");
  /* The filter kept none: the axes stay, with a word over them. */
  if (empty == NULL && self->shown != NULL && tm_allocations_get_n (self->shown) == 0)
    empty = _("Every allocation was freed before the end of the profile");
  tm_note_layer_set_text (TM_NOTE_LAYER (self->empty_layer), empty, 0);
  /* A snapshot without a trace: no time to spread the blocks over, so
   * each spans the width at its address, and the map says why there is
   * no time axis (docs/ui.md, "Memory map"). */
  moment = self->allocations != NULL && tm_allocations_is_moment (self->allocations);
  tm_chart_layer_set_visible (self->time_layer, !moment);
  tm_note_layer_set_text (TM_NOTE_LAYER (self->moment_layer),
                          moment ? _("No trace, so no time axis: the blocks at snapshot time, by address") : NULL, 0);
  _tm_memory_map_sync_selection (self);
  _tm_memory_map_sync_pointer (self);
  _tm_memory_map_invalidate (self);
}

void
_tm_memory_map_sync_highlight (TmMemoryMap *self)
{
  g_autoptr(GBytes) in_scope = self->in_scope != NULL ? g_bytes_ref (self->in_scope) : NULL;

  /* The scope's mask is per allocation of the index: the filter's subset
   * reads it by its own indices. */
  if (in_scope != NULL && self->shown != NULL)
    {
      const guint8 *all = g_bytes_get_data (self->in_scope, NULL);
      guint n = tm_allocations_get_n (self->shown);
      guint8 *kept = g_new (guint8, MAX (n, 1));

      for (guint i = 0; i < n; i++)
        kept[i] = all[tm_allocations_get_parent_index (self->shown, i)];
      g_bytes_unref (in_scope);
      in_scope = g_bytes_new_take (kept, MAX (n, 1));
    }
  tm_map_layer_set_color_by (TM_MAP_LAYER (self->map_layer), (TmMapColorBy) self->color_by);
  tm_map_layer_set_highlight (TM_MAP_LAYER (self->map_layer), self->highlight_never_freed && self->shown == NULL, in_scope);
  _tm_memory_map_invalidate (self);
}

/* The shown time, as on the usage timeline, and the selected
 * allocation. */
void
_tm_memory_map_sync_selection (TmMemoryMap *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  guint selected = session != NULL ? tm_session_get_selected_allocation (session) : TM_ALLOCATIONS_NONE;

  tm_mark_layer_set (TM_MARK_LAYER (self->shown_layer), session != NULL,
                     session != NULL ? tm_session_get_shown_time (session) : 0, 0);
  /* One the filter leaves out is not drawn (the table may select it). */
  if (self->allocations != NULL && selected < tm_allocations_get_n (self->allocations) &&
      (self->shown == NULL || tm_allocations_find_parent_index (self->shown, selected) != TM_ALLOCATIONS_NONE))
    {
      TmChartBlock block = allocation_block (self->allocations, selected);

      tm_block_layer_set_blocks (TM_BLOCK_LAYER (self->selected_layer), &block, 1);
    }
  else
    tm_block_layer_set_blocks (TM_BLOCK_LAYER (self->selected_layer), NULL, 0);
  g_clear_pointer (&self->marks_node, gsk_render_node_unref);
  if (self->canvas != NULL)
    gtk_widget_queue_draw (self->canvas);
}

/* The allocation under the pointer (unless it is the selected one, or a
 * drag is on) and the rubber band. */
void
_tm_memory_map_sync_pointer (TmMemoryMap *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  guint selected = session != NULL ? tm_session_get_selected_allocation (session) : TM_ALLOCATIONS_NONE;
  const TmChartGeometry *g = &self->geometry;

  if (self->allocations != NULL && self->hover < tm_allocations_get_n (self->allocations) &&
      self->hover != selected && !self->dragging)
    {
      TmChartBlock block = allocation_block (self->allocations, self->hover);

      tm_block_layer_set_blocks (TM_BLOCK_LAYER (self->hover_layer), &block, 1);
    }
  else
    tm_block_layer_set_blocks (TM_BLOCK_LAYER (self->hover_layer), NULL, 0);

  if (self->banding && self->drag_moved)
    {
      double x0 = CLAMP (MIN (self->drag_x0, self->drag_x1), g->plot.x, g->plot.x + g->plot.width);
      double x1 = CLAMP (MAX (self->drag_x0, self->drag_x1), g->plot.x, g->plot.x + g->plot.width);
      double ya = CLAMP (MAX (self->drag_y0, self->drag_y1), g->plot.y, g->plot.y + g->plot.height);
      double yb = CLAMP (MIN (self->drag_y0, self->drag_y1), g->plot.y, g->plot.y + g->plot.height);
      TmChartBlock band = { tm_chart_geometry_x_to_time (g, x0), tm_chart_geometry_x_to_time (g, x1),
                            tm_chart_geometry_y_to_axis (g, ya), tm_chart_geometry_y_to_axis (g, yb) };

      tm_block_layer_set_blocks (TM_BLOCK_LAYER (self->band_layer), &band, 1);
    }
  else
    tm_block_layer_set_blocks (TM_BLOCK_LAYER (self->band_layer), NULL, 0);
  if (self->canvas != NULL)
    gtk_widget_queue_draw (self->canvas);
}

/* ------------------------------------------------------------------ */
/* Drawing                                                              */

static void
append (TmMemoryMap           *self,
        GtkSnapshot           *snapshot,
        const TmChartGeometry *g,
        const TmPalette       *palette,
        TmChartLayer          *first,
        TmChartLayer          *second)
{
  TmChartLayer *layers[] = { first, second };
  graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, g->width, g->height);

  tm_chart_node_append (snapshot, self->canvas, palette, g, &all, layers, second != NULL ? 2 : 1);
}

/* The segments, the allocations, the time ruler, the out-of-memory
 * lines and the note of a moment, in that order, as one node. */
static void
append_map (TmMemoryMap           *self,
            GtkSnapshot           *snapshot,
            const TmChartGeometry *g,
            const TmPalette       *palette)
{
  TmChartLayer *layers[] = { self->segments_layer, self->map_layer, self->time_layer, self->oom_layer,
                             self->moment_layer };
  graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, g->width, g->height);

  tm_chart_node_append (snapshot, self->canvas, palette, g, &all, layers, G_N_ELEMENTS (layers));
}

/* One layer, only where it draws (a moving pointer, a new selection
 * make GTK redraw those, not the map under them). */
static void
append_layer (TmMemoryMap           *self,
              GtkSnapshot           *snapshot,
              const TmChartGeometry *g,
              const TmPalette       *palette,
              TmChartLayer          *layer)
{
  graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, g->width, g->height);

  tm_chart_node_append_layer (snapshot, self->canvas, palette, g, &all, layer);
}

/* The allocations, the axes, then the marks; a node of them kept when
 * cached (a new one only when they change). */
static void
append_cached (TmMemoryMap           *self,
               GtkSnapshot           *snapshot,
               const TmChartGeometry *g,
               const TmPalette       *palette,
               gboolean               cached,
               GskRenderNode        **node,
               gboolean               marks)
{
  GtkSnapshot *child;

  if (cached && *node != NULL)
    {
      gtk_snapshot_append_node (snapshot, *node);
      return;
    }
  child = cached ? gtk_snapshot_new () : snapshot;
  if (marks)
    {
      append_layer (self, child, g, palette, self->shown_layer);
      append_layer (self, child, g, palette, self->selected_layer);
    }
  else
    append_map (self, child, g, palette);
  if (!cached)
    return;
  *node = gtk_snapshot_free_to_node (child);
  if (*node != NULL)
    gtk_snapshot_append_node (snapshot, *node);
}

void
_tm_memory_map_draw (TmMemoryMap           *self,
                     GtkSnapshot           *snapshot,
                     const TmChartGeometry *g,
                     gboolean               cached)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  int scale = gtk_widget_get_scale_factor (self->canvas);
  TmPalette palette;

  if (session == NULL || tm_session_get_memory_store (session) == NULL)
    return;

  tm_palette_init_for_widget (&palette, self->canvas);
  if (!_tm_memory_map_has_data (self))
    {
      /* While the index is built, the time ruler is already there. */
      if (self->allocations == NULL && tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)))
        append (self, snapshot, g, &palette, self->map_layer, self->time_layer);
      append (self, snapshot, g, &palette, self->empty_layer, NULL);
      return;
    }

  if (cached && (self->cache_scale != scale || self->cache_dark != palette.dark))
    {
      g_clear_pointer (&self->map_node, gsk_render_node_unref);
      g_clear_pointer (&self->marks_node, gsk_render_node_unref);
      self->cache_scale = scale;
      self->cache_dark = palette.dark;
    }
  append_cached (self, snapshot, g, &palette, cached, &self->map_node, FALSE);
  append_cached (self, snapshot, g, &palette, cached, &self->marks_node, TRUE);
  if (self->shown != NULL && tm_allocations_get_n (self->shown) == 0)
    append_layer (self, snapshot, g, &palette, self->empty_layer);
  append_layer (self, snapshot, g, &palette, self->hover_layer);
  append_layer (self, snapshot, g, &palette, self->band_layer);
}
