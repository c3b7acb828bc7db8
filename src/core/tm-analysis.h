/* tm-analysis.h — product.md §3 over one memory id's columns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Internal to the core: the loader runs tm_analysis_finish() on each store
 * in the worker thread; the store's public getters call the rest.
 */
#pragma once

#include <gio/gio.h>

#include "tm-memory-store-private.h"

G_BEGIN_DECLS

/* An open-addressing map from a 64-bit address to a snapshot index. Holds
 * only allocations that are live at one time. */
typedef struct _TmAddrMap TmAddrMap;

TmAddrMap *tm_addr_map_new    (void);
void       tm_addr_map_free   (TmAddrMap  *map);
gboolean   tm_addr_map_lookup (TmAddrMap  *map,
                               guint64     addr,
                               guint32    *value);
void       tm_addr_map_insert (TmAddrMap  *map,
                               guint64     addr,
                               guint32     value);
gboolean   tm_addr_map_remove (TmAddrMap  *map,
                               guint64     addr,
                               guint32    *value);

/* Sorts by time (stable), fills in step ids (§3.3), matches allocations and
 * deallocations when the reader could not do it while reading, finds the
 * peak step (§3.5) and the breakdown at the peak (§3.6), builds the LOD. */
gboolean   tm_analysis_finish      (TmMemoryStore  *store,
                                    GCancellable   *cancellable,
                                    GError        **error);

/* Sorts rows (§3.6 order, ties by snapshot index so that a merged row
 * references its earliest allocation) and merges equal neighbours. Takes
 * ownership of rows' elements; returns a new array. */
GPtrArray *tm_analysis_sort_and_merge (GPtrArray   *rows);

GPtrArray *tm_analysis_breakdown_at   (TmMemoryStore  *store,
                                       gint64          t_ps);

GArray    *tm_analysis_sample         (TmMemoryStore  *store,
                                       guint           max_points);

G_END_DECLS
