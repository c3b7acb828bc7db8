/* tm-summary-cards.h — the figures of one memory id, as a row of cards
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-analysis.h"
#include "tm-memory-store.h"

G_BEGIN_DECLS

#define TM_TYPE_SUMMARY_CARDS (tm_summary_cards_get_type ())

G_DECLARE_FINAL_TYPE (TmSummaryCards, tm_summary_cards, TM, SUMMARY_CARDS, GtkWidget)

GtkWidget     *tm_summary_cards_new       (void);
/* Shows the summary of store (NULL: dashes); analysis is the store's
 * (tm_profile_lookup_analysis()), NULL with store. */
void           tm_summary_cards_set_store (TmSummaryCards *self,
                                           TmMemoryStore  *store,
                                           TmAnalysis     *analysis);
TmMemoryStore *tm_summary_cards_get_store (TmSummaryCards *self);

G_END_DECLS
