/* tm-run-summary.h — what the run overview shows of one host, from its
 * profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A host summary (tm-summaries-reader) holds, per memory id, the figures
 * of the run overview and a sparkline of memory in use: at most
 * TM_RUN_SPARKLINE_POINTS values, the highest stack + heap in each of as
 * many equal slices of the memory id's time range. That is all the
 * overview keeps of a host; the profile itself is dropped.
 */
#pragma once

#include <gio/gio.h>

#include "tm-profile.h"
#include "tm-summaries-reader.h"

G_BEGIN_DECLS

/* The sparkline of store: at most n_points maxima of memory in use over
 * equal slices of its time range (fewer when it has fewer snapshots). */
GArray        *tm_run_sparkline                (TmMemoryStore *store,
                                                guint          n_points);

/* The summary of a loaded profile, named host. */
TmHostSummary *tm_host_summary_new_for_profile (TmProfile     *profile,
                                                const char    *host);

G_END_DECLS
