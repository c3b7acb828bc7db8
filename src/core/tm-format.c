/* tm-format.c — bytes, times and percentages for people
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Numbers stay exact integers everywhere else; this is the one place where
 * they become text. Groups of three digits are separated by a narrow
 * no-break space (U+202F) so that a number never breaks across lines.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "tm-format.h"

#define GROUP_SEP "\u202f"

static void
append_grouped (GString *str,
                guint64  value)
{
  char digits[32];
  int len;

  len = g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, value);
  for (int i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append (str, GROUP_SEP);
      g_string_append_c (str, digits[i]);
    }
}

static guint64
magnitude (gint64 value)
{
  /* Safe for G_MININT64. */
  return value < 0 ? (guint64) 0 - (guint64) value : (guint64) value;
}

char *
tm_format_count (guint64 count)
{
  GString *str = g_string_new (NULL);

  append_grouped (str, count);
  return g_string_free (str, FALSE);
}

char *
tm_format_bytes (gint64 bytes)
{
  static const char * const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
  guint64 mag = magnitude (bytes);
  const char *sign = bytes < 0 ? "−" : "";
  double value;
  guint unit = 0;

  if (mag < 1024)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT " B", sign, mag);

  value = (double) mag / 1024.0;
  while (value >= 1024.0 && unit + 1 < G_N_ELEMENTS (units))
    {
      value /= 1024.0;
      unit++;
    }

  /* Three significant digits; rounding may carry into the next unit. */
  if (value >= 999.5 && unit + 1 < G_N_ELEMENTS (units))
    {
      value /= 1024.0;
      unit++;
    }

  if (value >= 99.95)
    return g_strdup_printf ("%s%.0f %s", sign, value, units[unit]);
  else if (value >= 9.995)
    return g_strdup_printf ("%s%.1f %s", sign, value, units[unit]);
  else
    return g_strdup_printf ("%s%.2f %s", sign, value, units[unit]);
}

char *
tm_format_bytes_exact (gint64 bytes)
{
  GString *str = g_string_new (NULL);
  g_autofree char *number = NULL;
  guint64 mag = magnitude (bytes);

  if (bytes < 0)
    g_string_append (str, "−");
  append_grouped (str, mag);
  number = g_string_free (str, FALSE);
  /* Translators: an exact size, %s is a number such as "6 210 111 488" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s byte", "%s bytes", mag), number);
}

char *
tm_format_time_ms (gint64 time_ps)
{
  GString *str = g_string_new (NULL);
  guint64 mag = magnitude (time_ps);
  /* Round to the nearest microsecond: 1 ms = 10^9 ps. */
  guint64 us = mag / 1000000 + (mag % 1000000 >= 500000 ? 1 : 0);

  if (time_ps < 0)
    g_string_append (str, "−");
  append_grouped (str, us / 1000);
  g_string_append_printf (str, ".%03u ms", (guint) (us % 1000));
  return g_string_free (str, FALSE);
}

char *
tm_format_duration (gint64 duration_ps)
{
  guint64 mag = magnitude (duration_ps);
  const char *sign = duration_ps < 0 ? "−" : "";
  static const struct { double scale; const char *unit; } units[] = {
    { 1e12, "s" }, { 1e9, "ms" }, { 1e6, "µs" }, { 1e3, "ns" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      if ((double) mag >= units[i].scale)
        {
          double value = (double) mag / units[i].scale;

          if (value >= 99.95)
            return g_strdup_printf ("%s%.0f %s", sign, value, units[i].unit);
          else if (value >= 9.995)
            return g_strdup_printf ("%s%.1f %s", sign, value, units[i].unit);
          else
            return g_strdup_printf ("%s%.2f %s", sign, value, units[i].unit);
        }
    }

  return g_strdup_printf ("%s%" G_GUINT64_FORMAT " ps", sign, mag);
}

char *
tm_format_percent (double fraction)
{
  double pct = fraction * 100.0;

  if (!isfinite (pct))
    return g_strdup ("—");
  if (pct == 0.0)
    return g_strdup ("0 %");
  if (fabs (pct) >= 99.95)
    return g_strdup_printf ("%.0f %%", pct);
  if (fabs (pct) >= 9.995)
    return g_strdup_printf ("%.1f %%", pct);
  if (fabs (pct) >= 0.005)
    return g_strdup_printf ("%.2f %%", pct);
  return g_strdup ("< 0.01 %");
}

char *
tm_format_bytes_delta (gint64 delta)
{
  g_autofree char *bytes = tm_format_bytes (delta);

  /* tm_format_bytes() already writes the minus sign. */
  return delta > 0 ? g_strconcat ("+", bytes, NULL) : g_steal_pointer (&bytes);
}

char *
tm_format_percent_change (gint64 delta,
                          gint64 base)
{
  g_autofree char *pct = NULL;

  if (base == 0)
    return NULL;
  pct = tm_format_percent (fabs ((double) delta / (double) base));
  if (delta == 0)
    return g_steal_pointer (&pct);
  return g_strconcat (delta > 0 ? "+" : "−", pct, NULL);
}

double
tm_format_nice_step (double range,
                     guint  max_ticks)
{
  double raw, power, norm;

  if (!(range > 0.0) || max_ticks == 0)
    return 1.0;

  raw = range / max_ticks;
  power = pow (10.0, floor (log10 (raw)));
  norm = raw / power;

  if (norm <= 1.0)
    return power;
  if (norm <= 2.0)
    return 2.0 * power;
  if (norm <= 5.0)
    return 5.0 * power;
  return 10.0 * power;
}

gint64
tm_format_nice_byte_step (gint64 range,
                          guint  max_ticks)
{
  gint64 unit = 1;
  double raw;

  if (range <= 0 || max_ticks == 0)
    return 1;

  raw = (double) range / max_ticks;

  /* Pick the binary unit the step lives in, then a 1-2-5 (or 1-2-4-8 under
   * one unit) multiple of it, so labels read "256 MiB", "1 GiB", "2 GiB". */
  while (unit <= G_MAXINT64 / 1024 && raw >= (double) unit * 1024.0)
    unit *= 1024;

  {
    static const int steps[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 };
    for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
      if ((double) unit * steps[i] >= raw)
        return unit * steps[i];
  }

  return unit * 1024;
}

int
tm_format_utf8_sequence (const char *p)
{
  int len;

  if ((guchar) *p < 0x80)
    return 1;
  len = g_utf8_skip[(guchar) *p];
  return len > 1 && g_utf8_validate (p, len, NULL) ? len : 0;
}

char *
tm_format_make_valid_utf8 (const char *text,
                           guint      *n_replaced)
{
  GString *str = g_string_new (NULL);

  for (const char *p = text; *p != '\0';)
    {
      int len = tm_format_utf8_sequence (p);

      if ((guchar) p[0] == 0xc0 && (guchar) p[1] == 0x80)
        {
          g_string_append (str, "\xe2\x90\x80");  /* U+2400 */
          p += 2;
        }
      else if (len == 0)
        {
          g_string_append (str, "\xef\xbf\xbd");
          (*n_replaced)++;
          p++;
        }
      else
        {
          g_string_append_len (str, p, len);
          p += len;
        }
    }
  return g_string_free (str, FALSE);
}

char *
tm_format_name_from_bytes (const char *data,
                           gsize       len)
{
  const char *nul = len > 0 ? memchr (data, '\0', len) : NULL;
  GString *str;

  if (nul == NULL)
    return g_strndup (len > 0 ? data : "", len);

  str = g_string_sized_new (len + 8);
  for (gsize i = 0; i < len; i++)
    {
      if (data[i] == '\0')
        g_string_append (str, TM_FORMAT_NUL);
      else
        g_string_append_c (str, data[i]);
    }
  return g_string_free (str, FALSE);
}

static gboolean
is_raw_control (const guchar *p)
{
  return (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') || *p == 0x7f ||
         (p[0] == 0xc0 && p[1] == 0x80);
}

gboolean
tm_format_has_controls (const char *text)
{
  g_return_val_if_fail (text != NULL, FALSE);

  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    if (is_raw_control (p))
      return TRUE;
  return FALSE;
}

void
tm_format_append_controls_escaped (GString    *out,
                                   const char *text)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL);

  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    {
      if (p[0] == 0xc0 && p[1] == 0x80)
        {
          g_string_append (out, "\\x00");
          p++;
        }
      else if (is_raw_control (p))
        g_string_append_printf (out, "\\x%02x", *p);
      else
        g_string_append_c (out, (char) *p);
    }
}

static gboolean
is_bidi_control (gunichar c)
{
  return c == 0x061c || c == 0x200e || c == 0x200f ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

char *
tm_format_for_terminal (const char *text,
                        guint      *n_replaced)
{
  GString *str;

  g_return_val_if_fail (text != NULL, NULL);

  str = g_string_sized_new (strlen (text));
  for (const char *p = text; *p != '\0';)
    {
      guchar b = (guchar) *p;
      int len;

      if (b == 0xc0 && (guchar) p[1] == 0x80)
        {
          g_string_append (str, "\\x00");
          p += 2;
          continue;
        }
      if (b < 0x20 || b == 0x7f)
        {
          g_string_append_printf (str, "\\x%02x", b);
          p++;
          continue;
        }
      len = tm_format_utf8_sequence (p);
      if (len == 0)
        {
          g_string_append (str, "\xef\xbf\xbd");
          if (n_replaced != NULL)
            (*n_replaced)++;
          p++;
          continue;
        }
      if (len > 1)
        {
          gunichar c = g_utf8_get_char (p);

          if (c >= 0x80 && c <= 0x9f)
            g_string_append_printf (str, "\\x%02x", c);
          else if (is_bidi_control (c))
            g_string_append_printf (str, "\\u%04x", c);
          else
            g_string_append_len (str, p, len);
        }
      else
        g_string_append_c (str, *p);
      p += len;
    }
  return g_string_free (str, FALSE);
}
