/* tm-output-private.h — the test entry point of tm-output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For tests only: no product code calls it.
 */
#pragma once

#include "tm-output.h"

G_BEGIN_DECLS

/* From now on, a write that would take the output past after_bytes fails
 * with errno_value (ENOSPC for a full disk) once the bytes up to the limit
 * are written, as write(2) does on a device that fills up. A file output
 * fails only in its stream, so finishing must still clean up. */
void tm_output_inject_failure (TmOutput *self,
                               goffset   after_bytes,
                               int       errno_value);

G_END_DECLS
