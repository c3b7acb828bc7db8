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
/* text with that rule applied; adds the bytes replaced to *n_replaced.
 * A NUL kept in a name (TM_FORMAT_NUL) becomes U+2400 SYMBOL FOR NULL. */
char    *tm_format_make_valid_utf8 (const char *text,
                                    guint      *n_replaced);

/* Names are length-delimited in a file and may hold NUL bytes. Kept in a
 * C string, such a NUL is written as the two bytes C0 80 (the overlong
 * encoding of U+0000, which no valid UTF-8 text holds), so "op\0A" and
 * "op" stay two names; every writer turns it back into a visible escape
 * (docs/formats.md, section 5). */
#define TM_FORMAT_NUL "\xc0\x80"

/* The len bytes at data as a name: a C string, NUL bytes as TM_FORMAT_NUL. */
char    *tm_format_name_from_bytes (const char *data,
                                    gsize       len);

/* Whether text holds a byte that a text file should not carry raw: a
 * control character other than tab, line feed and carriage return, DEL
 * (0x7F), or TM_FORMAT_NUL. */
gboolean tm_format_has_controls    (const char *text);
/* Appends text with each of those written as \xHH ("\x1b" for ESC,
 * "\x00" for a NUL kept in a name); everything else as it is. For CSV
 * fields and collapsed stacks. */
void     tm_format_append_controls_escaped (GString    *out,
                                            const char *text);

/* text made safe to print on a terminal: invalid UTF-8 as U+FFFD (adds to
 * *n_replaced unless it is NULL), every control character (C0 including
 * tab and line feed, DEL, C1) as \xHH, the bidirectional controls
 * (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) as \uXXXX. */
char    *tm_format_for_terminal    (const char *text,
                                    guint      *n_replaced);

G_END_DECLS
