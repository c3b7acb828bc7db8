/* tm-export.h — XProf's memory-profile JSON, CSV and summary out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writes what a loaded profile (tm-profile: stores and their analyses)
 * holds, with exact numbers.
 */
#pragma once

#include <gio/gio.h>

#include "tm-profile.h"

G_BEGIN_DECLS

#define TM_XPROF_MAX_SNAPSHOTS 1000

/* XProf's memory-profile JSON for the whole profile (README.md "Command
 * line"): field names and order as XProf's protobuf JSON printer writes
 * them (defaults included), 64-bit integers as strings, enums by name,
 * the sampled timeline, snapshots kept only for breakdown rows and
 * reindexed, version 1, numHosts 1, sorted memoryIds, HLO modules. */
gboolean tm_export_xprof_json     (TmProfile      *profile,
                                   GOutputStream  *out,
                                   GCancellable   *cancellable,
                                   GError        **error);

/* The same; n_replaced (may be NULL) gets the number of invalid UTF-8
 * sequences replaced by U+FFFD in names (docs/formats.md "Hostile input"). */
gboolean tm_export_xprof_json_full (TmProfile      *profile,
                                    GOutputStream  *out,
                                    guint          *n_replaced,
                                    GCancellable   *cancellable,
                                    GError        **error);

/* Breakdown rows as CSV (RFC 4180, header line, exact integers). */
gboolean tm_export_breakdown_csv  (GPtrArray      *rows,
                                   GOutputStream  *out,
                                   GCancellable   *cancellable,
                                   GError        **error);

/* Every allocation of one memory id with its lifetime, as CSV (header
 * line; times in picoseconds, empty for an open edge; docs/analysis.md,
 * "Allocations and the memory map"). Streams: memory stays flat. */
gboolean tm_export_allocations_csv (TmMemoryStore *store,
                                   GOutputStream  *out,
                                   GCancellable   *cancellable,
                                   GError        **error);
/* The name scopes of store's allocations never freed as collapsed stacks
 * (docs/scopes.md, "Never freed"), with the allocation index of profile
 * (built here when it is not yet); how many there were in n_never_freed
 * (may be NULL). */
gboolean tm_export_never_freed_collapsed (TmProfile      *profile,
                                          TmMemoryStore  *store,
                                          GOutputStream  *out,
                                          guint          *n_never_freed,
                                          GCancellable   *cancellable,
                                          GError        **error);
/* The summary of every memory id, machine-readable (exact integers), as
 * one line of JSON Lines naming the host and the profile's path, with a
 * sparkline per memory id (docs/formats.md, section 3). */
gboolean tm_export_summary_json   (TmProfile      *profile,
                                   const char     *host,
                                   GOutputStream  *out,
                                   GCancellable   *cancellable,
                                   GError        **error);

/* The line of a host that failed to load: its host, file and error. */
gboolean tm_export_summary_json_error (GFile      *file,
                                   const char     *host,
                                   const char     *message,
                                   GOutputStream  *out,
                                   GCancellable   *cancellable,
                                   GError        **error);

/* The same; n_replaced as for tm_export_xprof_json_full(). When it is not
 * 0 the summary says so in a last member "invalid_utf8_replaced". */
gboolean tm_export_summary_json_full (TmProfile      *profile,
                                      const char     *host,
                                      GOutputStream  *out,
                                      guint          *n_replaced,
                                      GCancellable   *cancellable,
                                      GError        **error);

/* Appends a double the way protobuf's JSON printer does: the shortest
 * decimal that reads back as the same double; NaN and infinities as the
 * strings "NaN", "Infinity", "-Infinity". */
void     tm_export_append_double  (GString        *str,
                                   double          value);
/* Appends a JSON string literal, escaped, always valid UTF-8: each byte
 * that starts no valid UTF-8 sequence becomes U+FFFD. Returns how many. */
guint    tm_export_append_string  (GString        *str,
                                   const char     *value);

G_END_DECLS
