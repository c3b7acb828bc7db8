/* tm-summary-cards-private.h — the summary cards' files share this
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-summary-cards.c (the figures, their words and the cards' moments)
 * calls tm-summary-cards-layout.c (the cards on one or more lines), never
 * back.
 */
#pragma once

#include "tm-summary-cards.h"

G_BEGIN_DECLS

void _tm_summary_cards_measure       (GtkWidget      *widget,
                                      GtkOrientation  orientation,
                                      int             for_size,
                                      int            *minimum,
                                      int            *natural,
                                      int            *minimum_baseline,
                                      int            *natural_baseline);
void _tm_summary_cards_size_allocate (GtkWidget      *widget,
                                      int             width,
                                      int             height,
                                      int             baseline);

G_END_DECLS
