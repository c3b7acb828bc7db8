/* tm-profile-private.h — loading with the XSpace reader's explicit options
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For tests and fuzz targets only (tm-xspace-reader-private.h): product
 * code loads with tm_profile_load() and the reader's defaults.
 */
#pragma once

#include "tm-profile.h"
#include "tm-xspace-reader-private.h"

G_BEGIN_DECLS

TmProfile *tm_profile_load_with_options (GFile                     *file,
                                         const TmXSpaceReadOptions *options,
                                         GCancellable              *cancellable,
                                         GError                   **error);

/* While hold is TRUE, the window's loader finishes the busiest memory id
 * and hands the profile over, and its thread that finishes the others
 * waits (tests of what the window shows meanwhile). */
void       tm_profile_hold_pending_for_tests (gboolean hold);

G_END_DECLS
