/* tm-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-error.h"

G_DEFINE_QUARK (tm-error-quark, tm_error)
