/* tm-summary-cards-layout.c — the summary cards side by side or on lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The cards' row measures and places its children itself (docs/ui.md,
 * "Summary cards"): this file knows nothing of what the cards show.
 */
#include "config.h"

#include "tm-summary-cards-private.h"

/* The cards side by side, equally wide when each fits that width, else
 * each at least its minimum width (so that no label is cut) with the rest
 * shared; in a window too narrow for that they wrap onto as few, evenly
 * filled lines as they need. */

#define CARD_SPACING 12
#define MAX_CARDS 8

/* The visible cards and their minimum widths; their number. */
static int
card_mins (GtkWidget  *widget,
           GtkWidget **cards,
           int        *mins)
{
  int n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL && n < MAX_CARDS; c = gtk_widget_get_next_sibling (c))
    {
      if (!gtk_widget_get_visible (c))
        continue;
      cards[n] = c;
      gtk_widget_measure (c, GTK_ORIENTATION_HORIZONTAL, -1, &mins[n], NULL, NULL, NULL);
      n++;
    }
  return n;
}

/* How many cards go on one line of a row of width: the fewest lines on
 * which, evenly filled, every line's cards have their minimum widths. */
static int
cards_per_line (int        width,
                const int *mins,
                int        n)
{
  for (int lines = 1; lines < n; lines++)
    {
      int per_line = (n + lines - 1) / lines;
      gboolean fits = TRUE;

      for (int first = 0; first < n && fits; first += per_line)
        {
          int sum = 0, count = MIN (per_line, n - first);

          for (int i = first; i < first + count; i++)
            sum += mins[i];
          fits = sum + (count - 1) * CARD_SPACING <= width;
        }
      if (fits)
        return per_line;
    }
  return 1;
}

/* The widths of the count cards from first on a line of width: equal when
 * each fits that, else each its minimum and an equal part of the rest. */
static void
line_widths (int        width,
             const int *mins,
             int        first,
             int        count,
             int        per_line,
             int       *widths)
{
  int equal = MAX (0, (width - (per_line - 1) * CARD_SPACING) / per_line);
  int sum = 0, rest;
  gboolean all_fit = TRUE;

  for (int i = first; i < first + count; i++)
    {
      all_fit &= mins[i] <= equal;
      sum += mins[i];
    }
  if (all_fit)
    {
      for (int i = first; i < first + count; i++)
        widths[i] = equal;
      return;
    }
  rest = MAX (0, width - (count - 1) * CARD_SPACING - sum);
  for (int i = first; i < first + count; i++)
    widths[i] = mins[i] + rest / count;
}

void
_tm_summary_cards_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  GtkWidget *cards[MAX_CARDS];
  int mins[MAX_CARDS], widths[MAX_CARDS];
  int n = card_mins (widget, cards, mins);

  *minimum = *natural = 0;
  if (n == 0)
    return;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      for (int i = 0; i < n; i++)
        {
          int nat;

          gtk_widget_measure (cards[i], orientation, -1, NULL, &nat, NULL, NULL);
          *minimum = MAX (*minimum, mins[i]);
          *natural = MAX (*natural, nat);
        }
      *natural = n * *natural + (n - 1) * CARD_SPACING;
    }
  else
    {
      int per_line, width = for_size;

      if (width < 0)
        {
          width = (n - 1) * CARD_SPACING;
          for (int i = 0; i < n; i++)
            width += mins[i];
        }
      per_line = cards_per_line (width, mins, n);
      for (int first = 0; first < n; first += per_line)
        {
          int count = MIN (per_line, n - first);
          int line_min = 0, line_nat = 0;

          line_widths (width, mins, first, count, per_line, widths);
          for (int i = first; i < first + count; i++)
            {
              int min, nat;

              gtk_widget_measure (cards[i], orientation, widths[i], &min, &nat, NULL, NULL);
              line_min = MAX (line_min, min);
              line_nat = MAX (line_nat, nat);
            }
          *minimum += line_min + (first > 0 ? CARD_SPACING : 0);
          *natural += line_nat + (first > 0 ? CARD_SPACING : 0);
        }
    }
}

void
_tm_summary_cards_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  GtkWidget *cards[MAX_CARDS];
  int mins[MAX_CARDS], widths[MAX_CARDS];
  int n = card_mins (widget, cards, mins);
  int per_line, lines, line_height;

  if (n == 0)
    return;

  per_line = cards_per_line (width, mins, n);
  lines = (n + per_line - 1) / per_line;
  line_height = MAX (0, (height - (lines - 1) * CARD_SPACING) / lines);

  for (int first = 0, line = 0; first < n; first += per_line, line++)
    {
      int count = MIN (per_line, n - first);
      int x = 0;

      line_widths (width, mins, first, count, per_line, widths);
      for (int i = first; i < first + count; i++)
        {
          gtk_widget_size_allocate (cards[i],
                                    &(GtkAllocation) { x, line * (line_height + CARD_SPACING), widths[i], line_height },
                                    -1);
          x += widths[i] + CARD_SPACING;
        }
    }
}
