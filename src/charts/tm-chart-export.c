/* tm-chart-export.c — charts as files: a true vector SVG, or a PNG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cairo's SVG surface writes shapes as <path> elements, but text as glyph
 * outlines (<symbol> and <use>), which cannot be selected or searched. So
 * the SVG is drawn on a canvas that keeps its labels instead of drawing
 * them (TM_CHART_CANVAS_TEXT_ELEMENTS), and the labels are written as
 * <text> elements into the document cairo wrote, before its end tag.
 */
#include "config.h"

#include <string.h>

#include <cairo-svg.h>

#include "tm-axes-layer.h"
#include "tm-block-layer.h"
#include "tm-chart-export.h"
#include "tm-map-layer.h"
#include "tm-mark-layer.h"
#include "tm-timeline-chart.h"

void
tm_timeline_chart_options_init (TmTimelineChartOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->width = 1200;
  options->height = 400;
}

TmChart *
tm_chart_new_timeline (TmMemoryStore                *store,
                       const TmTimelineChartOptions *options)
{
  TmTimelineLayers layers;
  TmChartGeometry geometry;
  gint64 start, end;
  TmChart *chart;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);
  g_return_val_if_fail (options != NULL, NULL);

  start = options->start_ps;
  end = options->end_ps;
  if (start >= end && tm_memory_store_get_n_snapshots (store) > 0)
    {
      const gint64 *times = tm_memory_store_get_times (store);

      start = times[0];
      end = MAX (times[tm_memory_store_get_n_snapshots (store) - 1], start + 1);
    }
  tm_chart_geometry_init (&geometry, MAX (options->width, 1), MAX (options->height, 1),
                          options->modules != NULL && options->modules->len > 0, start, end,
                          tm_timeline_chart_max_bytes (store, start, end, options->capacity_scale));

  tm_timeline_layers_init (&layers);
  tm_timeline_layers_set_store (&layers, store);
  tm_timeline_layers_set_segments (&layers, options->segments);
  tm_timeline_layers_set_hidden (&layers, options->hidden);
  tm_timeline_layers_set_modules (&layers, options->modules);
  tm_mark_layer_set (TM_MARK_LAYER (layers.selection), options->has_selection, options->selected_ps, 0);
  chart = tm_timeline_layers_to_chart (&layers, &geometry);
  tm_timeline_layers_clear (&layers);
  return chart;
}

TmChart *
tm_chart_new_memory_map (TmAllocations *allocations,
                         TmSegments    *segments,
                         gint64         start_ps,
                         gint64         end_ps,
                         int            width,
                         int            height)
{
  g_autoptr(TmChart) chart = NULL;
  g_autoptr(TmChartLayer) time = NULL;
  g_autoptr(TmChartLayer) map = NULL;
  g_autoptr(TmChartLayer) reserved = NULL;
  g_autoptr(TmChartLayer) oom = NULL;
  TmMemoryStore *store;
  TmChartGeometry geometry;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (allocations), NULL);

  store = tm_allocations_get_store (allocations);
  if (start_ps >= end_ps && tm_memory_store_get_n_snapshots (store) > 0)
    {
      const gint64 *times = tm_memory_store_get_times (store);

      start_ps = times[0];
      end_ps = MAX (times[tm_memory_store_get_n_snapshots (store) - 1], start_ps + 1);
    }
  tm_chart_geometry_init_map (&geometry, MAX (width, 1), MAX (height, 1), start_ps, end_ps,
                              0, MAX ((double) tm_allocations_get_axis_length (allocations), 1.0));

  chart = tm_chart_new ();
  tm_chart_set_geometry (chart, &geometry);
  map = tm_map_layer_new (allocations);
  tm_map_layer_set_open_ends (TM_MAP_LAYER (map), TRUE);
  time = tm_axes_layer_new (TM_AXES_TIME);
  tm_axes_layer_set_label_gap (TM_AXES_LAYER (time), 4);
  reserved = tm_block_layer_new (TM_BLOCK_FILL);
  tm_block_layer_set_segments (TM_BLOCK_LAYER (reserved), segments, allocations);
  oom = tm_mark_layer_new (TM_MARK_LINE);
  tm_mark_layer_set_out_of_memory (TM_MARK_LAYER (oom), segments);
  /* As the window draws it: the segments under the allocations, the grid
   * of the time ruler over the data. */
  tm_chart_add_layer (chart, reserved);
  tm_chart_add_layer (chart, map);
  tm_chart_add_layer (chart, time);
  tm_chart_add_layer (chart, oom);

  return g_steal_pointer (&chart);
}

static cairo_status_t
append_bytes (void                *closure,
              const unsigned char *data,
              unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* Page, title and chart on cr. */
static void
draw_page (TmChart              *chart,
           TmChartCanvas        *canvas,
           const char           *title,
           const TmChartPalette *palette)
{
  const TmChartGeometry *g = tm_chart_get_geometry (chart);
  cairo_t *cr = tm_chart_canvas_get_cairo (canvas);
  TmChartColor page;

  tm_chart_canvas_set_palette (canvas, palette);
  tm_chart_palette_get_page (palette->dark, &page);
  cairo_rectangle (cr, 0, 0, g->width, g->height + (title != NULL ? TM_CHART_TITLE_HEIGHT : 0));
  tm_chart_set_source (cr, &page);
  cairo_fill (cr);
  if (title != NULL)
    {
      tm_chart_canvas_heading (canvas, title, 12, 8, g->width - 2 * 12, &palette->fg);
      cairo_translate (cr, 0, TM_CHART_TITLE_HEIGHT);
    }
  tm_chart_draw (chart, canvas);
}

static void
append_color (GString            *svg,
              const char         *attribute,
              const TmChartColor *color)
{
  g_string_append_printf (svg, " %s=\"rgb(%d,%d,%d)\"", attribute,
                          (int) (color->red * 255 + 0.5), (int) (color->green * 255 + 0.5),
                          (int) (color->blue * 255 + 0.5));
  if (color->alpha < 1.0f)
    {
      char opacity[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (opacity, sizeof opacity, "%.3f", color->alpha);
      g_string_append_printf (svg, " %s-opacity=\"%s\"", attribute, opacity);
    }
}

/* The kept labels as <text> elements. */
static char *
labels_to_svg (TmChartCanvas *canvas)
{
  GArray *labels = tm_chart_canvas_get_labels (canvas);
  g_autofree char *family = g_markup_escape_text (tm_chart_canvas_get_family (canvas), -1);
  GString *svg = g_string_new (NULL);

  g_string_append_printf (svg, "<g font-family=\"%s, sans-serif\" style=\"font-feature-settings: 'tnum'\">\n", family);
  for (guint i = 0; i < labels->len; i++)
    {
      const TmChartLabel *label = &g_array_index (labels, TmChartLabel, i);
      g_autofree char *text = g_markup_escape_text (label->text, -1);
      char x[G_ASCII_DTOSTR_BUF_SIZE], y[G_ASCII_DTOSTR_BUF_SIZE], size[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (x, sizeof x, "%.2f", label->x);
      g_ascii_formatd (y, sizeof y, "%.2f", label->baseline);
      g_ascii_formatd (size, sizeof size, "%.2f", label->size);
      g_string_append_printf (svg, "<text x=\"%s\" y=\"%s\" font-size=\"%s\"%s xml:space=\"preserve\"",
                              x, y, size, label->bold ? " font-weight=\"bold\"" : "");
      append_color (svg, "fill", &label->color);
      g_string_append_printf (svg, ">%s</text>\n", text);
    }
  g_string_append (svg, "</g>\n");
  return g_string_free (svg, FALSE);
}

static PangoFontDescription *
label_font (const PangoFontDescription *font)
{
  return font != NULL ? pango_font_description_copy (font) : pango_font_description_from_string ("Cantarell 11");
}

static gboolean
check_status (cairo_status_t   status,
              GError         **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot draw the chart: %s", cairo_status_to_string (status));
  return FALSE;
}

gboolean
tm_chart_write_svg (TmChart                     *chart,
                    const char                  *title,
                    const TmChartPalette        *palette,
                    const PangoFontDescription  *font,
                    GOutputStream               *out,
                    GCancellable                *cancellable,
                    GError                     **error)
{
  const TmChartGeometry *g;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(PangoFontDescription) desc = label_font (font);
  g_autofree char *text = NULL;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  gsize end;

  g_return_val_if_fail (TM_IS_CHART (chart), FALSE);
  g_return_val_if_fail (palette != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  g = tm_chart_get_geometry (chart);
  surface = cairo_svg_surface_create_for_stream (append_bytes, bytes, g->width,
                                                 g->height + (title != NULL ? TM_CHART_TITLE_HEIGHT : 0));
  cairo_svg_surface_restrict_to_version (surface, CAIRO_SVG_VERSION_1_1);
  cr = cairo_create (surface);
  {
    g_autoptr(TmChartCanvas) canvas = tm_chart_canvas_new (cr, TRUE, TM_CHART_CANVAS_TEXT_ELEMENTS, desc);

    draw_page (chart, canvas, title, palette);
    text = labels_to_svg (canvas);
  }
  status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (!check_status (status, error))
    return FALSE;

  /* The text goes last, over the shapes, inside the root element. */
  end = bytes->len;
  while (end > 0 && g_ascii_isspace (bytes->data[end - 1]))
    end--;
  if (end < 6 || memcmp (bytes->data + end - 6, "</svg>", 6) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot draw the chart: the SVG surface wrote no end tag");
      return FALSE;
    }
  return g_output_stream_write_all (out, bytes->data, end - 6, NULL, cancellable, error) &&
         g_output_stream_write_all (out, text, strlen (text), NULL, cancellable, error) &&
         g_output_stream_write_all (out, "</svg>\n", 7, NULL, cancellable, error);
}

static cairo_status_t
write_to_stream (void                *closure,
                 const unsigned char *data,
                 unsigned int         length)
{
  return g_output_stream_write_all (closure, data, length, NULL, NULL, NULL)
         ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

gboolean
tm_chart_write_png (TmChart                     *chart,
                    const char                  *title,
                    const TmChartPalette        *palette,
                    const PangoFontDescription  *font,
                    int                          scale,
                    GOutputStream               *out,
                    GCancellable                *cancellable,
                    GError                     **error)
{
  const TmChartGeometry *g;
  g_autoptr(PangoFontDescription) desc = label_font (font);
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  int height;

  g_return_val_if_fail (TM_IS_CHART (chart), FALSE);
  g_return_val_if_fail (palette != NULL, FALSE);
  g_return_val_if_fail (scale >= 1, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  g = tm_chart_get_geometry (chart);
  height = g->height + (title != NULL ? TM_CHART_TITLE_HEIGHT : 0);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, g->width * scale, height * scale);
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  {
    g_autoptr(TmChartCanvas) canvas = tm_chart_canvas_new (cr, FALSE, TM_CHART_CANVAS_TEXT_DRAWN, desc);

    draw_page (chart, canvas, title, palette);
  }
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS && !g_cancellable_set_error_if_cancelled (cancellable, error))
    status = cairo_surface_write_to_png_stream (surface, write_to_stream, out);
  else if (status == CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }
  cairo_surface_destroy (surface);
  return check_status (status, error);
}
