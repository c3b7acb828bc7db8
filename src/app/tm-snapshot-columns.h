/* tm-snapshot-columns.h — a table's column titles in PyTorch's words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The breakdown table and the Allocations tab show a PyTorch snapshot's
 * allocations in the columns of XLA's (docs/pytorch.md, "In the views"):
 * the op name holds the stack, the region type the action (or how an
 * allocation live from the start was found), the shape the stream, and
 * there is no data type. For a snapshot's memory id the columns say so:
 * Stack, Action, Stream, and the data type's is hidden; for any other
 * they read as they were made.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-session.h"

G_BEGIN_DECLS

/* Titles the columns of view for store (NULL: none) of the session's
 * profile. Columns are known by the titles they were made with. */
gboolean tm_snapshot_columns_apply             (GtkColumnView *view,
                                                TmSession     *session,
                                                TmMemoryStore *store);

/* The placeholder and tooltip of the filter entry of a table whose
 * first column is the op name, or its stack for a snapshot (snapshot:
 * what tm_snapshot_columns_apply() returned). */
void     tm_snapshot_columns_apply_search      (GtkEditable   *entry,
                                                gboolean       snapshot);

/* Why no row of that table holds search, in the same words. */
char    *tm_snapshot_columns_describe_no_match (TmSession     *session,
                                                TmMemoryStore *store,
                                                gboolean       hide_small,
                                                const char    *search);

G_END_DECLS
