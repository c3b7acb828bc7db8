/* tm-input-picker-private.h — the picker with the XSpace reader's options
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For tests and fuzz targets only (tm-xspace-reader-private.h), through
 * tm-profile-private.h.
 */
#pragma once

#include "tm-input-picker.h"
#include "tm-xspace-reader-private.h"

G_BEGIN_DECLS

/* tm_input_picker_read() with options (NULL: the defaults). */
gboolean tm_input_picker_read_with_options (TmSource                  *source,
                                            const TmXSpaceReadOptions *options,
                                            TmInput                   *input,
                                            TmProgressFunc             progress,
                                            gpointer                   progress_data,
                                            GCancellable              *cancellable,
                                            GError                   **error);

G_END_DECLS
