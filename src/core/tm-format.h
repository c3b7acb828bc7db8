/* tm-format.h — bytes, times and percentages for people, in one place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Used by the command line and the views; uses nothing else of the core.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "0 B", "512 B", "3.00 KiB", "59.6 MiB", "5.78 GiB": three significant
 * digits, binary units. Negative values keep their sign. */
char       *tm_format_bytes          (gint64      bytes);
/* "6 208 853 760 bytes" (thin groups of three, "1 byte" singular). */
char       *tm_format_bytes_exact    (gint64      bytes);
/* A picosecond time as milliseconds: "1 938.413 ms" (3 decimals). */
char       *tm_format_time_ms        (gint64      time_ps);
/* A picosecond duration chosen in a fitting unit: "850 ps", "12.5 ns",
 * "3.20 µs", "41.7 ms", "2.35 s". */
char       *tm_format_duration       (gint64      duration_ps);
/* A fraction in [0, 1] as a percentage: "0.03 %", "12.5 %", "100 %". */
char       *tm_format_percent        (double      fraction);
/* A difference of bytes with its sign: "+230 MiB", "−1.00 KiB", "0 B". */
char       *tm_format_bytes_delta    (gint64      delta);
/* A change relative to base with its sign: "+3.9 %", "−100 %"; NULL when
 * base is 0 (no relative change). */
char       *tm_format_percent_change (gint64      delta,
                                      gint64      base);
/* An integer with groups of three: "1 859". */
char       *tm_format_count          (guint64     count);
/* Picked so that a "nice" step (1, 2, 5 × 10^k) gives about max_ticks
 * ticks over range; used by axes. */
double      tm_format_nice_step      (double      range,
                                      guint       max_ticks);
/* Binary-unit step for a byte axis: 1, 2, 4, 8 ... × 1024^k, or decimal-nice
 * values within a unit ("256 MiB", "1 GiB", "2 GiB" ...). */
gint64      tm_format_nice_byte_step (gint64      range,
                                      guint       max_ticks);

/* Names read from a file may hold any bytes. Wherever Tidemark writes a
 * name, a byte that starts no valid UTF-8 sequence becomes U+FFFD
 * (docs/formats.md, section 1.10). The length of the valid sequence at p
 * (1 to 4), or 0 when the byte at p starts none. */
int      tm_format_utf8_sequence   (const char *p);
/* text with that rule applied; adds the bytes replaced to *n_replaced. */
char    *tm_format_make_valid_utf8 (const char *text,
                                    guint      *n_replaced);

G_END_DECLS
