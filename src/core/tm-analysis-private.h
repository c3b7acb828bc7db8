/* tm-analysis-private.h — for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tm-analysis.h"

G_BEGIN_DECLS

/* From how many snapshots up to the peak the breakdown's walk is split in
 * two halves on two threads (tests make it small to split small stores;
 * G_MAXUINT never splits). Not thread-safe: set it before analysing. */
void _tm_analysis_set_two_parts_min (guint n_snapshots);

G_END_DECLS
