/* tm-chart-canvas.c — where a chart layer draws: a cairo context and its text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tm-chart-canvas.h"
#include "tm-chart-palette.h"

struct _TmChartCanvas
{
  cairo_t           *cr;
  gboolean           vector;
  TmChartCanvasText  text;
  PangoLayout       *layout;
  GArray            *labels;
  TmChartPalette     palette;
  double             label_width;
  int                scale;
};

static void
label_clear (gpointer data)
{
  TmChartLabel *label = data;

  g_free (label->text);
}

TmChartCanvas *
tm_chart_canvas_new (cairo_t                    *cr,
                     gboolean                    vector,
                     TmChartCanvasText           text,
                     const PangoFontDescription *font)
{
  TmChartCanvas *self;
  PangoAttrList *attrs;
  cairo_font_options_t *options;

  g_return_val_if_fail (cr != NULL, NULL);

  self = g_new0 (TmChartCanvas, 1);
  self->cr = cairo_reference (cr);
  self->vector = vector;
  self->text = text;
  self->layout = pango_cairo_create_layout (cr);
  /* Metrics in whole pixels, as an image surface and the window have
   * them: a vector surface would lay the text out unhinted, its baseline
   * up to a pixel from where the screen puts it. */
  options = cairo_font_options_create ();
  cairo_surface_get_font_options (cairo_get_target (cr), options);
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_ON);
  pango_cairo_context_set_font_options (pango_layout_get_context (self->layout), options);
  cairo_font_options_destroy (options);
  pango_layout_context_changed (self->layout);
  if (font != NULL)
    pango_layout_set_font_description (self->layout, font);
  /* Small tabular figures, as the window's axis labels. */
  attrs = pango_attr_list_new ();
  pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (self->layout, attrs);
  pango_attr_list_unref (attrs);
  self->labels = g_array_new (FALSE, FALSE, sizeof (TmChartLabel));
  g_array_set_clear_func (self->labels, label_clear);
  tm_chart_palette_init_default (&self->palette, FALSE);

  return self;
}

TmChartCanvas *
tm_chart_canvas_new_for_layout (cairo_t           *cr,
                                gboolean           vector,
                                TmChartCanvasText  text,
                                PangoLayout       *layout)
{
  TmChartCanvas *self;

  g_return_val_if_fail (cr != NULL, NULL);
  g_return_val_if_fail (PANGO_IS_LAYOUT (layout), NULL);

  self = g_new0 (TmChartCanvas, 1);
  self->cr = cairo_reference (cr);
  self->vector = vector;
  self->text = text;
  self->layout = g_object_ref (layout);
  self->labels = g_array_new (FALSE, FALSE, sizeof (TmChartLabel));
  g_array_set_clear_func (self->labels, label_clear);
  tm_chart_palette_init_default (&self->palette, FALSE);

  return self;
}

void
tm_chart_canvas_free (TmChartCanvas *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->layout);
  g_clear_pointer (&self->labels, g_array_unref);
  g_clear_pointer (&self->cr, cairo_destroy);
  g_free (self);
}

cairo_t *
tm_chart_canvas_get_cairo (TmChartCanvas *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->cr;
}

gboolean
tm_chart_canvas_is_vector (TmChartCanvas *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->vector;
}

int
tm_chart_canvas_get_scale (TmChartCanvas *self)
{
  double dx = 1, dy = 0;

  g_return_val_if_fail (self != NULL, 1);

  cairo_user_to_device_distance (self->cr, &dx, &dy);
  return MAX (self->scale, MAX (1, (int) lround (hypot (dx, dy))));
}

void
tm_chart_canvas_set_scale (TmChartCanvas *self,
                           int            scale)
{
  g_return_if_fail (self != NULL);

  self->scale = MAX (scale, 1);
}

const TmChartPalette *
tm_chart_canvas_get_palette (TmChartCanvas *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return &self->palette;
}

void
tm_chart_canvas_set_palette (TmChartCanvas        *self,
                             const TmChartPalette *palette)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (palette != NULL);

  self->palette = *palette;
}

GArray *
tm_chart_canvas_get_labels (TmChartCanvas *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->labels;
}

void
tm_chart_set_source (cairo_t            *cr,
                     const TmChartColor *color)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha);
}

void
tm_chart_canvas_measure (TmChartCanvas *self,
                         const char    *text,
                         int           *width,
                         int           *height)
{
  PangoRectangle logical;

  g_return_if_fail (self != NULL);

  pango_layout_set_text (self->layout, text, -1);
  pango_layout_get_pixel_extents (self->layout, NULL, &logical);
  if (width != NULL)
    *width = logical.width;
  if (height != NULL)
    *height = logical.height;
}

/* The font's size in pixels, for a kept label. */
static double
layout_pixel_size (PangoLayout *layout,
                   double       scale)
{
  PangoContext *context = pango_layout_get_context (layout);
  const PangoFontDescription *desc = pango_layout_get_font_description (layout);
  PangoFontDescription *font = pango_font_description_copy (desc != NULL ? desc : pango_context_get_font_description (context));
  double size = pango_font_description_get_size (font) / (double) PANGO_SCALE;

  if (!pango_font_description_get_size_is_absolute (font))
    size *= pango_cairo_context_get_resolution (context) > 0 ? pango_cairo_context_get_resolution (context) / 72.0 : 96.0 / 72.0;
  pango_font_description_free (font);
  return size * scale;
}

/* Keeps text for the writer, at the layout's position (px, py). */
static void
keep_label (TmChartCanvas      *self,
            PangoLayout        *layout,
            const char         *text,
            double              px,
            double              py,
            double              scale,
            gboolean            bold,
            const TmChartColor *color)
{
  TmChartLabel label;
  PangoRectangle logical;
  double ux = px, uy = py + pango_layout_get_baseline (layout) / (double) PANGO_SCALE;
  double bx = px, by = py, bw, bh;

  pango_layout_get_pixel_extents (layout, NULL, &logical);
  bw = logical.width;
  bh = logical.height;
  /* In the surface's space: the writer adds the text after cairo's. */
  cairo_user_to_device (self->cr, &ux, &uy);
  cairo_user_to_device (self->cr, &bx, &by);
  cairo_user_to_device_distance (self->cr, &bw, &bh);
  label.text = g_strdup (text);
  label.x = ux;
  label.baseline = uy;
  label.size = layout_pixel_size (layout, scale);
  label.bold = bold;
  label.color = *color;
  label.box = (TmChartRect) { bx, by, bw, bh };
  g_array_append_val (self->labels, label);
}

void
tm_chart_canvas_set_label_width (TmChartCanvas *self,
                                 double         width)
{
  g_return_if_fail (self != NULL);

  self->label_width = MAX (width, 0.0);
}

const char *
tm_chart_canvas_get_family (TmChartCanvas *self)
{
  const PangoFontDescription *desc;
  const char *family;

  g_return_val_if_fail (self != NULL, NULL);

  desc = pango_layout_get_font_description (self->layout);
  if (desc == NULL)
    desc = pango_context_get_font_description (pango_layout_get_context (self->layout));
  family = desc != NULL ? pango_font_description_get_family (desc) : NULL;
  return family != NULL ? family : "sans-serif";
}

void
tm_chart_canvas_heading (TmChartCanvas      *self,
                         const char         *text,
                         double              x,
                         double              y,
                         double              width,
                         const TmChartColor *color)
{
  g_autoptr(PangoLayout) layout = NULL;
  PangoFontDescription *font;

  g_return_if_fail (self != NULL);
  g_return_if_fail (text != NULL && color != NULL);

  layout = pango_layout_copy (self->layout);
  pango_layout_set_attributes (layout, NULL);
  font = pango_font_description_copy (pango_layout_get_font_description (self->layout) != NULL
                                      ? pango_layout_get_font_description (self->layout)
                                      : pango_context_get_font_description (pango_layout_get_context (layout)));
  pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_text (layout, text, -1);

  if (self->text == TM_CHART_CANVAS_TEXT_ELEMENTS)
    {
      keep_label (self, layout, text, x, y, 1.0, TRUE, color);
      return;
    }
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  cairo_save (self->cr);
  cairo_move_to (self->cr, x, y);
  tm_chart_set_source (self->cr, color);
  pango_cairo_show_layout (self->cr, layout);
  cairo_restore (self->cr);
}

TmChartRect
tm_chart_canvas_label (TmChartCanvas      *self,
                       const char         *text,
                       double              x,
                       double              y,
                       double              xalign,
                       double              yalign,
                       const TmChartColor *color,
                       const TmChartColor *background)
{
  PangoRectangle logical;
  TmChartRect box = { 0, 0, 0, 0 };
  double px, py;

  g_return_val_if_fail (self != NULL, box);
  g_return_val_if_fail (text != NULL && color != NULL, box);

  pango_layout_set_text (self->layout, text, -1);
  if (self->label_width > 0 && self->text == TM_CHART_CANVAS_TEXT_DRAWN)
    {
      pango_layout_set_width (self->layout, (int) (self->label_width * PANGO_SCALE));
      pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_END);
    }
  pango_layout_get_pixel_extents (self->layout, NULL, &logical);
  px = round (x - xalign * logical.width);
  py = round (y - yalign * logical.height);
  box = (TmChartRect) { px, py, logical.width, logical.height };

  if (background != NULL)
    {
      double bx = px - 4, by = py - 1, bw = logical.width + 8, bh = logical.height + 2, r = 4;

      cairo_new_sub_path (self->cr);
      cairo_arc (self->cr, bx + bw - r, by + r, r, -G_PI / 2, 0);
      cairo_arc (self->cr, bx + bw - r, by + bh - r, r, 0, G_PI / 2);
      cairo_arc (self->cr, bx + r, by + bh - r, r, G_PI / 2, G_PI);
      cairo_arc (self->cr, bx + r, by + r, r, G_PI, 3 * G_PI / 2);
      cairo_close_path (self->cr);
      tm_chart_set_source (self->cr, background);
      cairo_fill (self->cr);
    }

  if (self->text == TM_CHART_CANVAS_TEXT_ELEMENTS)
    {
      keep_label (self, self->layout, text, px, py, PANGO_SCALE_SMALL, FALSE, color);
      return box;
    }

  cairo_save (self->cr);
  cairo_move_to (self->cr, px, py);
  tm_chart_set_source (self->cr, color);
  pango_cairo_show_layout (self->cr, self->layout);
  cairo_restore (self->cr);
  if (self->label_width > 0)
    {
      pango_layout_set_width (self->layout, -1);
      pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_NONE);
    }
  return box;
}

void
tm_chart_canvas_rect (TmChartCanvas      *self,
                      const TmChartColor *color,
                      double              x,
                      double              y,
                      double              width,
                      double              height)
{
  g_return_if_fail (self != NULL);

  if (width <= 0 || height <= 0)
    return;
  cairo_rectangle (self->cr, x, y, width, height);
  tm_chart_set_source (self->cr, color);
  cairo_fill (self->cr);
}

void
tm_chart_canvas_dashed_vline (TmChartCanvas      *self,
                              const TmChartColor *color,
                              double              x,
                              double              y0,
                              double              y1,
                              double              width,
                              double              dash,
                              double              gap)
{
  g_return_if_fail (self != NULL);

  for (double y = y0; y < y1; y += dash + gap)
    cairo_rectangle (self->cr, x - width / 2, y, width, MIN (dash, y1 - y));
  tm_chart_set_source (self->cr, color);
  cairo_fill (self->cr);
}

void
tm_chart_canvas_ring (TmChartCanvas      *self,
                      const TmChartColor *color,
                      const TmChartColor *halo,
                      double              x,
                      double              y,
                      double              radius)
{
  g_return_if_fail (self != NULL);

  /* Rings as the area between two circles, as a border is drawn: the
   * halo between radius + 1 and radius, the ring 2 px inside that. */
  cairo_save (self->cr);
  cairo_set_fill_rule (self->cr, CAIRO_FILL_RULE_EVEN_ODD);
  cairo_new_path (self->cr);
  cairo_arc (self->cr, x, y, radius + 1, 0, 2 * G_PI);
  cairo_new_sub_path (self->cr);
  cairo_arc (self->cr, x, y, radius, 0, 2 * G_PI);
  tm_chart_set_source (self->cr, halo);
  cairo_fill (self->cr);
  cairo_arc (self->cr, x, y, radius, 0, 2 * G_PI);
  cairo_new_sub_path (self->cr);
  cairo_arc (self->cr, x, y, radius - 2, 0, 2 * G_PI);
  tm_chart_set_source (self->cr, color);
  cairo_fill (self->cr);
  cairo_restore (self->cr);
}

void
tm_chart_canvas_dot (TmChartCanvas      *self,
                     const TmChartColor *ring,
                     const TmChartColor *fill,
                     double              x,
                     double              y,
                     double              radius)
{
  g_return_if_fail (self != NULL);

  cairo_new_path (self->cr);
  cairo_arc (self->cr, x, y, radius + 1.5, 0, 2 * G_PI);
  tm_chart_set_source (self->cr, ring);
  cairo_fill (self->cr);
  cairo_arc (self->cr, x, y, radius, 0, 2 * G_PI);
  tm_chart_set_source (self->cr, fill);
  cairo_fill (self->cr);
}
