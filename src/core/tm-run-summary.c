/* tm-run-summary.c — what the run overview shows of one host
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-lod.h"
#include "tm-run-summary.h"

GArray *
tm_run_sparkline (TmMemoryStore *store,
                  guint          n_points)
{
  const TmSummary *s;
  guint n_snapshots;
  GArray *points;
  g_autofree TmLodBucket *buckets = NULL;
  gint64 last = 0;
  gint64 start, end;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);

  s = tm_memory_store_get_summary (store);
  n_snapshots = tm_memory_store_get_n_snapshots (store);
  n_points = MIN (n_points, n_snapshots);
  points = g_array_sized_new (FALSE, FALSE, sizeof (gint64), n_points);
  if (n_points == 0)
    return points;

  /* A single instant still needs a span: one picosecond after it, or
   * before it at the very end of the range (docs/formats.md, section 1.10). */
  start = s->first_time_ps;
  end = s->last_time_ps;
  if (end <= start)
    {
      end = start;
      if (start < G_MAXINT64)
        end = start + 1;
      else
        start = end - 1;
    }
  buckets = g_new0 (TmLodBucket, n_points);
  tm_lod_query_columns (tm_memory_store_get_lod (store), start, end, n_points, buckets);
  for (guint i = 0; i < n_points; i++)
    {
      /* A slice without a snapshot of its own keeps the level before it. */
      if (buckets[i].has_data)
        last = buckets[i].used_max;
      g_array_append_val (points, last);
    }
  return points;
}

TmHostSummary *
tm_host_summary_new_for_profile (TmProfile  *profile,
                                 const char *host)
{
  TmHostSummary *summary;
  g_autofree char *path = NULL;
  guint n;

  g_return_val_if_fail (TM_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (host != NULL, NULL);

  path = g_file_get_path (tm_profile_get_file (profile));
  if (path == NULL)
    path = g_file_get_uri (tm_profile_get_file (profile));
  summary = tm_host_summary_new (host, path);

  n = tm_profile_get_n_memory_ids (profile);
  for (guint i = 0; i < n; i++)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (profile, i);
      const TmSummary *s = tm_memory_store_get_summary (store);
      TmRunDevice *device = g_new0 (TmRunDevice, 1);

      device->memory_id = g_strdup (tm_memory_store_get_id (store));
      device->peak_bytes = s->peak_bytes_in_use;
      device->capacity = s->memory_capacity;
      device->peak_time_ps = s->peak_time_ps;
      device->peak_fragmentation = s->peak_fragmentation;
      device->n_allocations = s->n_allocations;
      device->sparkline = tm_run_sparkline (store, TM_RUN_SPARKLINE_POINTS);
      g_ptr_array_add (summary->devices, device);
    }

  return summary;
}

