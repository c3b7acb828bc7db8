/* tm-chart-palette.c — the colours of the memory charts, light and dark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-chart-palette.h"

static void
rgb_init (TmChartColor *color,
          guint32       rgb,
          float         alpha)
{
  color->red = ((rgb >> 16) & 0xff) / 255.0f;
  color->green = ((rgb >> 8) & 0xff) / 255.0f;
  color->blue = (rgb & 0xff) / 255.0f;
  color->alpha = alpha;
}

void
tm_chart_palette_get_color (TmPaletteColor  color,
                            gboolean        dark,
                            TmChartColor   *out)
{
  /* GNOME palette: red 3, orange 3, green 3, blue 4, blue 3, purple 4/3,
   * purple 4 on light; red 1, orange 2, green 2, blue 1, blue 2,
   * purple 2/1, purple 1 on dark; the plan's level yellow 5 on light,
   * yellow 3 on dark. */
  static const guint32 light[] = { 0xe01b24, 0xff7800, 0x33d17a, 0x1c71d8, 0x3584e4, 0x813d9c, 0xc061cb, 0x813d9c,
                                   0xc88800 };
  static const guint32 dark_[] = { 0xf66151, 0xffa348, 0x57e389, 0x99c1f1, 0x78aeed, 0xc061cb, 0xdc8add, 0xdc8add,
                                   0xf6d32d };

  g_return_if_fail (out != NULL);
  g_return_if_fail ((guint) color < G_N_ELEMENTS (light));

  rgb_init (out, dark ? dark_[color] : light[color], 1.0f);
}

void
tm_chart_palette_init (TmChartPalette     *p,
                       const TmChartColor *fg,
                       gboolean            dark)
{
  g_return_if_fail (p != NULL);
  g_return_if_fail (fg != NULL);

  p->dark = dark;

  p->fg = *fg;
  p->fg.alpha = 1.0f;
  p->dim = p->fg;
  p->dim.alpha = 0.70f;
  p->grid = p->fg;
  p->grid.alpha = p->dark ? 0.10f : 0.08f;
  rgb_init (&p->background, p->dark ? 0x242424 : 0xffffff, 0.88f);

  tm_chart_palette_get_color (TM_PALETTE_STACK, p->dark, &p->series[TM_SERIES_STACK]);
  tm_chart_palette_get_color (TM_PALETTE_HEAP, p->dark, &p->series[TM_SERIES_HEAP]);
  tm_chart_palette_get_color (TM_PALETTE_FREE, p->dark, &p->series[TM_SERIES_FREE]);
  tm_chart_palette_get_color (TM_PALETTE_FRAGMENTATION, p->dark, &p->frag);
  tm_chart_palette_get_color (TM_PALETTE_ACCENT, p->dark, &p->accent);
  tm_chart_palette_get_color (TM_PALETTE_HLO, p->dark, &p->hlo[0]);
  tm_chart_palette_get_color (TM_PALETTE_HLO_ALT, p->dark, &p->hlo[1]);

  p->series_fill[TM_SERIES_STACK] = p->series[TM_SERIES_STACK];
  p->series_fill[TM_SERIES_STACK].alpha = p->dark ? 0.55f : 0.50f;
  p->series_fill[TM_SERIES_HEAP] = p->series[TM_SERIES_HEAP];
  p->series_fill[TM_SERIES_HEAP].alpha = p->dark ? 0.45f : 0.42f;
  p->series_fill[TM_SERIES_FREE] = p->series[TM_SERIES_FREE];
  p->series_fill[TM_SERIES_FREE].alpha = p->dark ? 0.20f : 0.22f;

  p->accent_fill = p->accent;
  p->accent_fill.alpha = 0.18f;
  p->peak = p->fg;
  p->peak.alpha = 0.75f;
}

void
tm_chart_palette_init_default (TmChartPalette *palette,
                               gboolean        dark)
{
  TmChartColor fg = { 0.0f, 0.0f, 0.0f, 0.8f };

  if (dark)
    fg = (TmChartColor) { 1.0f, 1.0f, 1.0f, 1.0f };
  tm_chart_palette_init (palette, &fg, dark);
}

void
tm_chart_palette_get_page (gboolean      dark,
                           TmChartColor *out)
{
  g_return_if_fail (out != NULL);

  rgb_init (out, dark ? 0x242424 : 0xffffff, 1.0f);
}

/* Seven GNOME palette hues (blue, green, yellow, orange, red, purple,
 * brown), two shades each per style. */
static const guint32 name_colors_light[] = {
  0x99c1f1, 0x62a0ea, 0x8ff0a4, 0x57e389, 0xf9f06b, 0xf6d32d, 0xffbe6f,
  0xffa348, 0xf66151, 0xed333b, 0xdc8add, 0xc061cb, 0xcdab8f, 0xb5835a,
};
static const guint32 name_colors_dark[] = {
  0x1c71d8, 0x1a5fb4, 0x26a269, 0x2ec27e, 0xc88800, 0xe5a50a, 0xc64600,
  0xe66100, 0xc01c28, 0xa51d2d, 0x813d9c, 0x613583, 0x865e3c, 0x63452c,
};

void
tm_chart_palette_color_for_name (const char   *name,
                                 gboolean      dark,
                                 TmChartColor *out)
{
  guint32 hash = 2166136261u;  /* FNV-1a: stable across runs and builds */
  guint index;

  g_return_if_fail (out != NULL);

  for (const guchar *p = (const guchar *) (name != NULL ? name : ""); *p != '\0'; p++)
    hash = (hash ^ *p) * 16777619u;
  index = hash % G_N_ELEMENTS (name_colors_light);
  rgb_init (out, dark ? name_colors_dark[index] : name_colors_light[index], 1.0f);
}
