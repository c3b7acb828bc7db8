/* tm-palette.c — the colours of the memory charts, light and dark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-palette.h"

G_STATIC_ASSERT (sizeof (GdkRGBA) == sizeof (TmChartColor));

static void
to_rgba (const TmChartColor *color,
         GdkRGBA            *rgba)
{
  rgba->red = color->red;
  rgba->green = color->green;
  rgba->blue = color->blue;
  rgba->alpha = color->alpha;
}

static void
to_chart (const GdkRGBA *rgba,
          TmChartColor  *color)
{
  color->red = rgba->red;
  color->green = rgba->green;
  color->blue = rgba->blue;
  color->alpha = rgba->alpha;
}

void
tm_palette_get_color (TmPaletteColor  color,
                      gboolean        dark,
                      GdkRGBA        *rgba)
{
  TmChartColor c;

  g_return_if_fail (rgba != NULL);

  tm_chart_palette_get_color (color, dark, &c);
  to_rgba (&c, rgba);
}

gboolean
tm_palette_is_dark_style (GtkWidget *widget)
{
  GdkRGBA fg;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

void
tm_palette_init (TmPalette     *p,
                 const GdkRGBA *fg,
                 gboolean       dark)
{
  TmChartPalette chart;
  TmChartColor color;

  g_return_if_fail (p != NULL);
  g_return_if_fail (fg != NULL);

  to_chart (fg, &color);
  tm_chart_palette_init (&chart, &color, dark);
  p->dark = chart.dark;
  to_rgba (&chart.fg, &p->fg);
  to_rgba (&chart.dim, &p->dim);
  to_rgba (&chart.grid, &p->grid);
  to_rgba (&chart.background, &p->background);
  for (int s = 0; s < TM_N_SERIES; s++)
    {
      to_rgba (&chart.series[s], &p->series[s]);
      to_rgba (&chart.series_fill[s], &p->series_fill[s]);
    }
  to_rgba (&chart.frag, &p->frag);
  to_rgba (&chart.accent, &p->accent);
  to_rgba (&chart.accent_fill, &p->accent_fill);
  to_rgba (&chart.peak, &p->peak);
  to_rgba (&chart.hlo[0], &p->hlo[0]);
  to_rgba (&chart.hlo[1], &p->hlo[1]);
}

void
tm_palette_to_chart (const TmPalette *p,
                     TmChartPalette  *out)
{
  g_return_if_fail (p != NULL);
  g_return_if_fail (out != NULL);

  out->dark = p->dark;
  to_chart (&p->fg, &out->fg);
  to_chart (&p->dim, &out->dim);
  to_chart (&p->grid, &out->grid);
  to_chart (&p->background, &out->background);
  for (int s = 0; s < TM_N_SERIES; s++)
    {
      to_chart (&p->series[s], &out->series[s]);
      to_chart (&p->series_fill[s], &out->series_fill[s]);
    }
  to_chart (&p->frag, &out->frag);
  to_chart (&p->accent, &out->accent);
  to_chart (&p->accent_fill, &out->accent_fill);
  to_chart (&p->peak, &out->peak);
  to_chart (&p->hlo[0], &out->hlo[0]);
  to_chart (&p->hlo[1], &out->hlo[1]);
}

void
tm_palette_init_for_widget (TmPalette *palette,
                            GtkWidget *widget)
{
  GdkRGBA fg;

  g_return_if_fail (palette != NULL);
  g_return_if_fail (GTK_IS_WIDGET (widget));

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  tm_palette_init (palette, &fg, tm_palette_is_dark_style (widget));
}

void
tm_palette_color_for_name (const char *name,
                           gboolean    dark,
                           GdkRGBA    *out)
{
  TmChartColor c;

  g_return_if_fail (out != NULL);

  tm_chart_palette_color_for_name (name, dark, &c);
  to_rgba (&c, out);
}
