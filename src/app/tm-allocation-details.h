/* tm-allocation-details.h — the selected allocation, with its stack
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_ALLOCATION_DETAILS (tm_allocation_details_get_type ())

G_DECLARE_FINAL_TYPE (TmAllocationDetails, tm_allocation_details, TM, ALLOCATION_DETAILS, TmView)

/* What is known of the session's selected allocation (a row of the
 * table, an allocation of the memory map): its sizes, address and
 * lifetime; for a PyTorch snapshot its top frame and whole stack, for an
 * XLA profile its op, name scopes, region, data type, shape and step.
 * Without a selection it hides. */
GtkWidget *tm_allocation_details_new (TmSession *session);

G_END_DECLS
