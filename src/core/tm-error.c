/* tm-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-error.h"

/* Made once under g_once rather than with G_DEFINE_QUARK, whose unguarded
 * first write races when two loader threads report their first error at
 * once (ThreadSanitizer in test-concurrency). */
GQuark
tm_error_quark (void)
{
  static gsize quark = 0;

  if (g_once_init_enter (&quark))
    g_once_init_leave (&quark, g_quark_from_static_string ("tm-error-quark"));
  return (GQuark) quark;
}
