/* test-format.c — bytes, times and percentages for people
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-format.h"
#include "tm-types.h"

#define NNBSP "\u202f"

static void
check (char       *got,
       const char *expected)
{
  g_assert_cmpstr (got, ==, expected);
  g_free (got);
}

static void
test_bytes (void)
{
  check (tm_format_bytes (0), "0 B");
  check (tm_format_bytes (1023), "1023 B");
  check (tm_format_bytes (1024), "1.00 KiB");
  check (tm_format_bytes (3072), "3.00 KiB");
  check (tm_format_bytes (62500000), "59.6 MiB");
  check (tm_format_bytes (G_GINT64_CONSTANT (6210111488)), "5.78 GiB");
  check (tm_format_bytes (G_GINT64_CONSTANT (15477102400)), "14.4 GiB");
  check (tm_format_bytes (1048064), "1.00 MiB");   /* 1023.5 KiB rounds up a unit */
  check (tm_format_bytes (-2048), "−2.00 KiB");
  check (tm_format_bytes (G_MININT64), "−8.00 EiB");
  check (tm_format_bytes (G_MAXINT64), "8.00 EiB");
}

static void
test_bytes_exact (void)
{
  check (tm_format_bytes_exact (1), "1 byte");
  check (tm_format_bytes_exact (999), "999 bytes");
  check (tm_format_bytes_exact (G_GINT64_CONSTANT (6208853760)), "6" NNBSP "208" NNBSP "853" NNBSP "760 bytes");
  check (tm_format_bytes_exact (-1000), "−1" NNBSP "000 bytes");
}

static void
test_times (void)
{
  check (tm_format_time_ms (G_GINT64_CONSTANT (1938413467000)), "1" NNBSP "938.413 ms");
  check (tm_format_time_ms (0), "0.000 ms");
  check (tm_format_time_ms (40000), "0.000 ms");
  check (tm_format_time_ms (500000), "0.001 ms");
  check (tm_format_time_ms (-1500000000), "−1.500 ms");
  check (tm_format_duration (850), "850 ps");
  check (tm_format_duration (12500), "12.5 ns");
  check (tm_format_duration (G_GINT64_CONSTANT (2350000000000)), "2.35 s");
}

static void
test_percent_and_counts (void)
{
  check (tm_format_percent (0), "0 %");
  check (tm_format_percent (0.000282813), "0.03 %");
  check (tm_format_percent (0.125), "12.5 %");
  check (tm_format_percent (1.0), "100 %");
  check (tm_format_percent (1e-9), "< 0.01 %");
  check (tm_format_count (1859), "1" NNBSP "859");
  check (tm_format_count (12), "12");
}

static void
test_steps (void)
{
  g_assert_cmpfloat (tm_format_nice_step (1000, 5), ==, 200);
  g_assert_cmpfloat (tm_format_nice_step (7, 10), ==, 1);
  g_assert_cmpfloat (tm_format_nice_step (0.03, 3), ==, 0.01);
  g_assert_cmpint (tm_format_nice_byte_step (G_GINT64_CONSTANT (16) << 30, 8), ==, G_GINT64_CONSTANT (2) << 30);
  g_assert_cmpint (tm_format_nice_byte_step (1000, 4), ==, 256);
  g_assert_cmpint (tm_format_nice_byte_step (5 << 20, 5), ==, 1 << 20);
}

static void
test_data_types (void)
{
  check (tm_data_type_name (0), "INVALID");
  check (tm_data_type_name (1), "float");
  check (tm_data_type_name (19), "half");
  check (tm_data_type_name (30), "uint4");
  check (tm_data_type_name (101), "float_ref");
  check (tm_data_type_name (100), "INVALID_ref");
  check (tm_data_type_name (31), "unknown dtype enum (31)");
  check (tm_data_type_name (-1), "unknown dtype enum (-1)");
  check (tm_data_type_name (131), "unknown dtype enum (131)");
}

/* Each byte that starts no valid UTF-8 sequence becomes U+FFFD; valid
 * sequences, also of several bytes, stay as they are. */
static void
test_make_valid_utf8 (void)
{
  guint n = 0;
  g_autofree char *same = tm_format_make_valid_utf8 ("layer_3/\xe0\xb8\x81/Cast", &n);
  g_autofree char *fixed = NULL;

  g_assert_cmpstr (same, ==, "layer_3/\xe0\xb8\x81/Cast");
  g_assert_cmpuint (n, ==, 0);
  fixed = tm_format_make_valid_utf8 ("a\xff" "b\xe0\xb8", &n);
  g_assert_cmpstr (fixed, ==, "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd");
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (tm_format_utf8_sequence ("\xe0\xb8\x81"), ==, 3);
  g_assert_cmpint (tm_format_utf8_sequence ("\xe0\xb8"), ==, 0);
  g_assert_cmpint (tm_format_utf8_sequence ("A"), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/format/bytes", test_bytes);
  g_test_add_func ("/format/bytes-exact", test_bytes_exact);
  g_test_add_func ("/format/times", test_times);
  g_test_add_func ("/format/percent-and-counts", test_percent_and_counts);
  g_test_add_func ("/format/steps", test_steps);
  g_test_add_func ("/format/data-types", test_data_types);

  g_test_add_func ("/format/make-valid-utf8", test_make_valid_utf8);

  return g_test_run ();
}
