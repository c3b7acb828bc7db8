/* tm-addr-map.h — a map from a 64-bit address to a snapshot index
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Open addressing with linear probing and backward-shift deletion. Holds
 * only the allocations that are live at one time, so it stays small. Knows
 * nothing else of the core: the store matches allocations with it and the
 * analysis keeps the records of the breakdown at the peak in it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TmAddrMap TmAddrMap;

TmAddrMap *tm_addr_map_new       (void);
void       tm_addr_map_free      (TmAddrMap  *map);
gboolean   tm_addr_map_lookup    (TmAddrMap  *map,
                                  guint64     addr,
                                  guint32    *value);
/* value must not be G_MAXUINT32. A value already there is replaced. */
void       tm_addr_map_insert    (TmAddrMap  *map,
                                  guint64     addr,
                                  guint32     value);
/* Inserts or replaces addr's value, in one probe; returns whether one was
 * there, and then sets *old (if not NULL) to it. */
gboolean   tm_addr_map_exchange  (TmAddrMap  *map,
                                  guint64     addr,
                                  guint32     value,
                                  guint32    *old);
gboolean   tm_addr_map_remove    (TmAddrMap  *map,
                                  guint64     addr,
                                  guint32    *value);
/* Walks the entries in slot order: start with *pos = 0; returns FALSE when
 * there are no more. The map must not change during the walk. */
gboolean   tm_addr_map_iter_next (TmAddrMap  *map,
                                  gsize      *pos,
                                  guint64    *addr,
                                  guint32    *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmAddrMap, tm_addr_map_free)

G_END_DECLS
