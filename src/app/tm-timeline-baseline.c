/* tm-timeline-baseline.c — the baseline of a comparison, as an outline over the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * While the session compares (docs/compare.md), the baseline's memory in
 * use (stack + heap) is drawn on the same time axis, shifted by the
 * session's alignment: per pixel column the most in use in it, as a line,
 * with a ring at the baseline's peak and a label that names it.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-timeline-private.h"

/* GNOME's purple: apart from the series, the peak and the scopes' line. */
static void
baseline_color (gboolean  dark,
                GdkRGBA  *rgba)
{
  gdk_rgba_parse (rgba, dark ? "#dc8add" : "#813d9c");
}

/* The baseline's LOD: its store's, else one made for the moment (freed
 * by the caller through *own). */
static TmLod *
baseline_lod (TmMemoryStore  *baseline,
              TmLod         **own)
{
  TmLod *lod = tm_memory_store_get_lod (baseline);

  *own = NULL;
  if (lod != NULL)
    return lod;
  *own = tm_lod_new (tm_memory_store_get_n_snapshots (baseline),
                     tm_memory_store_get_times (baseline),
                     tm_memory_store_get_stack (baseline),
                     tm_memory_store_get_heap (baseline),
                     tm_memory_store_get_free (baseline),
                     tm_memory_store_get_fragmentation (baseline));
  return *own;
}

gint64
_tm_timeline_baseline_max (TmTimeline *self,
                           gboolean    capacity)
{
  TmMemoryStore *baseline = self->session != NULL ? tm_session_get_baseline (self->session) : NULL;
  g_autoptr(TmLod) own = NULL;
  TmLod *lod;
  TmLodBucket bucket;
  gint64 shift;

  if (baseline == NULL || tm_memory_store_get_n_snapshots (baseline) == 0)
    return 0;

  lod = baseline_lod (baseline, &own);
  if (capacity)
    return tm_memory_store_has_free_data (baseline) ? tm_lod_get_max_total (lod) : tm_lod_get_max_used (lod);

  shift = tm_session_get_baseline_shift (self->session);
  if (!tm_lod_query_time (lod, tm_viewport_get_start (self->viewport) - shift,
                          tm_viewport_get_end (self->viewport) - shift + 1, &bucket))
    return 0;
  return bucket.used_max;
}

void
_tm_timeline_draw_baseline (TmTimeline             *self,
                            GtkSnapshot            *snapshot,
                            PangoLayout            *text,
                            const TmTimelineLayout *layout,
                            const TmPalette        *palette)
{
  TmMemoryStore *baseline = self->session != NULL ? tm_session_get_baseline (self->session) : NULL;
  const graphene_rect_t *plot = &layout->plot;
  g_autoptr(TmLod) own = NULL;
  g_autofree TmLodBucket *buckets = NULL;
  g_autofree char *peak = NULL;
  g_autofree char *label = NULL;
  const TmSummary *summary;
  TmLod *lod;
  GdkRGBA color, halo;
  cairo_t *cr;
  guint n;
  gint64 shift;
  gboolean drawing = FALSE;

  if (baseline == NULL || tm_memory_store_get_n_snapshots (baseline) == 0 || layout->y_max <= 0)
    return;

  lod = baseline_lod (baseline, &own);
  shift = tm_session_get_baseline_shift (self->session);
  n = (guint) MAX (1.0, floor (plot->size.width));
  buckets = g_new0 (TmLodBucket, n);
  tm_lod_query_columns (lod, tm_viewport_get_start (self->viewport) - shift,
                        tm_viewport_get_end (self->viewport) - shift, n, buckets);

  baseline_color (palette->dark, &color);
  halo = palette->background;
  halo.alpha = 0.8f;
  cr = gtk_snapshot_append_cairo (snapshot, plot);
  cairo_rectangle (cr, plot->origin.x, plot->origin.y, plot->size.width, plot->size.height);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  /* The top of each column: a step line that follows the most in use. */
  for (guint c = 0; c < n; c++)
    {
      double x0 = plot->origin.x + c;
      double y;

      if (!buckets[c].has_data)
        {
          drawing = FALSE;
          continue;
        }
      y = tm_axis_value_to_y (plot, layout->y_max, (double) buckets[c].used_max);
      if (!drawing)
        cairo_move_to (cr, x0, y);
      else
        cairo_line_to (cr, x0, y);
      cairo_line_to (cr, x0 + 1, y);
      drawing = TRUE;
    }
  gdk_cairo_set_source_rgba (cr, &halo);
  cairo_set_line_width (cr, 4.0);
  cairo_stroke_preserve (cr);
  gdk_cairo_set_source_rgba (cr, &color);
  cairo_set_line_width (cr, 2.0);
  cairo_stroke (cr);

  /* Its peak, where it falls on this axis. */
  summary = tm_memory_store_get_summary (baseline);
  if (summary->peak_time_ps + shift >= tm_viewport_get_start (self->viewport) &&
      summary->peak_time_ps + shift <= tm_viewport_get_end (self->viewport))
    {
      double x = _tm_timeline_time_to_x (self, layout, summary->peak_time_ps + shift);
      double y = tm_axis_value_to_y (plot, layout->y_max, (double) summary->peak_bytes_in_use);

      cairo_new_path (cr);
      cairo_arc (cr, x, y, 4.5, 0, 2 * G_PI);
      gdk_cairo_set_source_rgba (cr, &palette->background);
      cairo_fill_preserve (cr);
      gdk_cairo_set_source_rgba (cr, &color);
      cairo_set_line_width (cr, 2.0);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);

  peak = tm_format_bytes (summary->peak_bytes_in_use);
  /* Translators: the timeline's label of a comparison's baseline line:
   * its memory id, then its peak, e.g. "Baseline GPU_4_bfc, peak 5.78 GiB" */
  label = g_strdup_printf (_("Baseline %s, peak %s"), tm_memory_store_get_id (baseline), peak);
  tm_axis_draw_label (snapshot, text, label, plot->origin.x + plot->size.width - 6, plot->origin.y + 24,
                      1.0, 0.0, &color, &palette->background);
}
