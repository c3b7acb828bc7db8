/* tm-summary-cards.h — the figures of one memory id, as a row of cards
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-view.h"

G_BEGIN_DECLS

#define TM_TYPE_SUMMARY_CARDS (tm_summary_cards_get_type ())

G_DECLARE_FINAL_TYPE (TmSummaryCards, tm_summary_cards, TM, SUMMARY_CARDS, TmView)

/* The cards show the summary of the session's memory store (dashes
 * without one) and follow it as it changes. */
GtkWidget     *tm_summary_cards_new         (TmSession      *session);

G_END_DECLS
