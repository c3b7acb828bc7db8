/* tm-run-summary.h — what the run overview shows of one host, from its
 * profile or from a line of JSON Lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A host summary holds, per memory id, the figures of the run overview
 * (window peak, capacity, time of the peak, fragmentation at the peak,
 * allocations) and a sparkline of memory in use: at most
 * TM_RUN_SPARKLINE_POINTS values, the highest stack + heap in each of as
 * many equal slices of the memory id's time range. That is all the
 * overview keeps of a host; the profile itself is dropped.
 *
 * The same summaries are read back from the JSON Lines that
 * `tidemark --summary --json` writes (docs/formats.md, section 3), so that a run
 * gathered from many machines opens as one overview.
 */
#pragma once

#include <gio/gio.h>

#include "tm-profile.h"

G_BEGIN_DECLS

#define TM_RUN_SPARKLINE_POINTS 1000

/* One memory id of a host. */
typedef struct
{
  char    *memory_id;
  gint64   peak_bytes;          /* window peak: stack + heap */
  gint64   capacity;            /* stack + heap + free at the peak */
  gint64   peak_time_ps;
  double   peak_fragmentation;
  guint    n_allocations;
  GArray  *sparkline;           /* gint64, at most TM_RUN_SPARKLINE_POINTS; may be empty */
} TmRunDevice;

/* One host: its memory ids (byte-wise order, as the profile lists them;
 * none when the profile has no memory data), or the error that loading
 * it gave. */
typedef struct
{
  char       *host;
  char       *file;      /* the profile's path (or URI) as written, may be NULL */
  char       *error;     /* NULL unless the host failed */
  GPtrArray  *devices;   /* TmRunDevice; empty on error */
} TmHostSummary;

void           tm_run_device_free              (TmRunDevice   *device);
void           tm_host_summary_free            (TmHostSummary *summary);

/* The sparkline of store: at most n_points maxima of memory in use over
 * equal slices of its time range (fewer when it has fewer snapshots). */
GArray        *tm_run_sparkline                (TmMemoryStore *store,
                                                guint          n_points);

/* The summary of a loaded profile, named host. */
TmHostSummary *tm_host_summary_new_for_profile (TmProfile     *profile,
                                                const char    *host);
/* A host that could not be loaded. */
TmHostSummary *tm_host_summary_new_error       (const char    *host,
                                                const char    *file,
                                                const char    *message);

/* The index of the device with the highest peak (first of equals), or -1
 * when the summary has none. */
int            tm_host_summary_get_busiest     (const TmHostSummary *summary);

/* Parses JSON Lines of host summaries (docs/formats.md, section 3): one object per
 * non-blank line. Returns a GPtrArray of TmHostSummary in file order, or
 * NULL with error (TM_ERROR_JSON, naming the line) when a line is not such
 * an object or when there is no line at all. Never reads past length;
 * data need not be nul-terminated. */
GPtrArray     *tm_run_summaries_parse          (const char    *data,
                                                gsize          length,
                                                GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmHostSummary, tm_host_summary_free)

G_END_DECLS
