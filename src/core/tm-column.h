/* tm-column.h — the columns of a memory store: arrays that grow, move and sort cheaply
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A column is an anonymous mapping of whole pages (at least one), so it
 * grows or shrinks with mremap instead of a copy, and a column loaded by a
 * second thread is appended to another by moving its pages. Whoever holds
 * one keeps its element count and size: they give its mapping's size.
 * Knows nothing else of the core.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A zero-filled column for count elements of es bytes. */
gpointer  tm_column_new                (gsize          count,
                                        gsize          es);
/* The column for new_count elements, its first elements kept; column may
 * be NULL (then a new one). */
gpointer  tm_column_resize             (gpointer       column,
                                        gsize          old_count,
                                        gsize          new_count,
                                        gsize          es);
void      tm_column_free               (gpointer       column,
                                        gsize          count,
                                        gsize          es);

/* Room, in elements, of a column of n elements and room a_count once one
 * of room b_count is appended to it (tm_column_append). */
guint     tm_column_append_capacity    (guint          n,
                                        guint          a_count,
                                        guint          b_count);
/* Appends b (nb elements, room for b_count) after a's na elements (room for
 * a_count): b's pages are moved onto a's mapping, not copied, and b is gone.
 * Returns a's new address; its room is tm_column_append_capacity (na,
 * a_count, b_count), the same for every element size. A column that holds
 * moved pages is more than one mapping, which cannot grow: a grows only
 * when its room is too small, so several columns can be appended to one
 * whose room was made for all of them first (tm_column_resize). */
gpointer  tm_column_append             (gpointer       a,
                                        guint          na,
                                        guint          a_count,
                                        gpointer       b,
                                        guint          nb,
                                        guint          b_count,
                                        gsize          es);

/* Events of one memory id come as a few runs in time order (one per thread
 * line): merges them into a permutation (perm[j] is the index of the j-th
 * in time order; free it with g_free). Ties go to the earlier run, which
 * is earlier in the file, so the sort is stable. NULL when cancelled. */
guint32  *tm_column_sort_permutation   (const gint64  *times,
                                        guint          n,
                                        GCancellable  *cancellable,
                                        GError       **error);

G_END_DECLS
