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
void tm_snapshot_columns_apply (GtkColumnView *view,
                                TmSession     *session,
                                TmMemoryStore *store);

G_END_DECLS
