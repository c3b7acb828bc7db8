/* tm-test-time.h — how much longer a test may wait in this build
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests wait for events, not for the clock; a deadline only ends a wait
 * that would never end. Sanitizer builds run several times slower (TSan
 * 5 to 15 times on a loaded machine), so tests/meson.build sets
 * TM_TEST_TIME_SCALE in the tests' environment from b_sanitize, and every
 * deadline is multiplied by it.
 */
#pragma once

#include <glib.h>

static inline gint64
tm_test_time_scale (void)
{
  const char *text = g_getenv ("TM_TEST_TIME_SCALE");
  guint64 scale = 1;

  if (text != NULL && !g_ascii_string_to_unsigned (text, 10, 1, 1000, &scale, NULL))
    scale = 1;
  return (gint64) scale;
}

/* A deadline seconds from now, scaled. */
static inline gint64
tm_test_deadline (guint seconds)
{
  return g_get_monotonic_time () + (gint64) seconds * tm_test_time_scale () * G_USEC_PER_SEC;
}
