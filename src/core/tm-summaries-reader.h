/* tm-summaries-reader.h — host summaries, and the JSON Lines reader of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A host summary holds, per memory id, the figures of the run overview
 * (window peak, capacity, time of the peak, fragmentation at the peak,
 * allocations) and a sparkline of memory in use (tm-run-summary makes
 * them from a profile). The reader reads them back from the JSON Lines
 * that `tidemark --summary --json` writes (docs/formats.md, section 3.1),
 * so that a run gathered from many machines opens as one run. It is one
 * of the readers behind tm-input-picker; it uses json-glib and tm-error
 * only.
 */
#pragma once

#include <glib.h>

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
  guint       line;      /* the line it was read from (from 1); 0 when made from a profile */
} TmHostSummary;

void           tm_run_device_free              (TmRunDevice   *device);
void           tm_host_summary_free            (TmHostSummary *summary);

/* A host without memory ids yet; file may be NULL. */
TmHostSummary *tm_host_summary_new             (const char    *host,
                                                const char    *file);
/* A host that could not be loaded. */
TmHostSummary *tm_host_summary_new_error       (const char    *host,
                                                const char    *file,
                                                const char    *message);

/* The index of the device with the highest peak (first of equals), or -1
 * when the summary has none. */
int            tm_host_summary_get_busiest     (const TmHostSummary *summary);

/* Reads JSON Lines of host summaries (docs/formats.md, section 3.1): one
 * object per non-blank line. Returns a GPtrArray of TmHostSummary in file
 * order. A line that is not such an object is "line N of the summaries
 * …": with problems NULL it fails the whole read (NULL with error,
 * TM_ERROR_JSON), else its message is appended to problems (char *) and
 * the read goes on. A file without a non-blank line fails. Never reads
 * past length; data need not be nul-terminated. */
GPtrArray     *tm_summaries_read               (const char    *data,
                                                gsize          length,
                                                GPtrArray     *problems,
                                                GError       **error);
/* The same, failing on the first bad line. */
GPtrArray     *tm_run_summaries_parse          (const char    *data,
                                                gsize          length,
                                                GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmHostSummary, tm_host_summary_free)

G_END_DECLS
