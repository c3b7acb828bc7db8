/* tm-summary-cards.c — the figures of one memory id, as a row of cards
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every figure has a tooltip that says what it means and, for sizes, the
 * exact number of bytes. A card leads to its moment (docs/ui.md, "Summary
 * cards"): a click, Enter or Space on it selects that time in the session
 * and brings it into view; "never freed" asks the window, through
 * "show-never-freed", to filter the table and the map.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-comparison-query.h"
#include "tm-allocations-query.h"
#include "tm-format.h"
#include "tm-summary-cards-private.h"

/* The rows of the small cards, in the order of the comparison's figures
 * (show_comparison). */
enum {
  ROW_STACK,
  ROW_HEAP,
  ROW_FREE,
  ROW_FRAGMENTATION,
  ROW_ALLOCATIONS,
  ROW_DEALLOCATIONS,
  ROW_PEAK_STEP,
  N_ROWS
};

struct _TmSummaryCards
{
  GtkWidget      parent_instance;

  GtkWidget     *peak_card;
  GtkLabel      *peak_value;
  GtkLabel      *peak_detail;
  GtkWidget     *capacity_card;
  GtkLabel      *capacity_value;
  GtkLabel      *capacity_detail;
  GtkWidget     *lifetime_card;
  GtkLabel      *lifetime_value;
  GtkLabel      *lifetime_detail;
  GtkLabel      *stack_label;
  GtkLabel      *stack_value;
  GtkLabel      *heap_label;
  GtkLabel      *heap_value;
  GtkLabel      *free_label;
  GtkLabel      *free_value;
  GtkLabel      *fragmentation_label;
  GtkLabel      *fragmentation_value;
  GtkLabel      *allocations_label;
  GtkLabel      *allocations_value;
  GtkLabel      *deallocations_label;
  GtkLabel      *deallocations_value;
  GtkLabel      *span_label;
  GtkLabel      *span_value;
  GtkLabel      *peak_step_label;
  GtkLabel      *peak_step_value;
  GtkLabel      *never_freed_value;
  GtkLabel      *peak_title;
  GtkLabel      *capacity_title;
  GtkLabel      *lifetime_title;
  /* The labels' own words, for XLA's allocators; PyTorch's are set for a
   * caching allocator (tm-segments) and these put back after. */
  char         **xla_words;
  TmSegments    *segments;
  GtkWidget     *never_freed_button;
  GtkWidget     *at_peak_card;
  GtkWidget     *activity_card;
  /* While comparing, each row's change beside its value. */
  GtkLabel      *deltas[N_ROWS];

  TmMemoryStore *store;
  /* On the session's allocations query: the never-freed count. */
  GSignalGroup  *allocations_signals;
};

G_DEFINE_FINAL_TYPE (TmSummaryCards, tm_summary_cards, TM_TYPE_VIEW)

enum {
  SHOW_NEVER_FREED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void session_memory_store_cb (TmSummaryCards *self,
                                     GParamSpec     *pspec,
                                     TmSession      *session);

/* "1 938.413 ms" with no-break spaces, so that a wrapped tooltip keeps
 * a figure and its unit together. */
static char *
no_break (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, " ", -1);

  return g_strjoinv ("\xc2\xa0", parts);
}

/* "<b>title</b>\nexplanation[\n\nexact]" as markup */
static char *
make_tooltip (const char *title,
              const char *explanation,
              const char *exact)
{
  g_autofree char *t = g_markup_escape_text (title, -1);
  g_autofree char *e = g_markup_escape_text (explanation, -1);

  if (exact != NULL)
    {
      g_autofree char *x = g_markup_escape_text (exact, -1);

      return g_strdup_printf ("<b>%s</b>\n%s\n\n<span font_features=\"tnum\">%s</span>", t, e, x);
    }

  return g_strdup_printf ("<b>%s</b>\n%s", t, e);
}

/* GTK 4.8's tooltips do not wrap long text: show the markup in a label
 * that does. */
static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  const char *markup = gtk_widget_get_tooltip_markup (widget);
  GtkWidget *label;

  if (markup == NULL)
    return FALSE;

  label = gtk_label_new (NULL);
  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  /* A tooltip window sizes a wrapping label by its minimum width. */
  gtk_label_set_width_chars (GTK_LABEL (label), 42);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 42);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_tooltip_set_custom (tooltip, label);

  return TRUE;
}

static void
set_tooltip (GtkWidget  *widget,
             GtkWidget  *widget2,
             const char *title,
             const char *explanation,
             const char *exact)
{
  g_autofree char *markup = make_tooltip (title, explanation, exact);

  gtk_widget_set_tooltip_markup (widget, markup);
  if (widget2 != NULL)
    gtk_widget_set_tooltip_markup (widget2, markup);
}

static void
connect_tooltip (GtkWidget *widget)
{
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
}

/* The label beside value, in the next column of its grid, for its change
 * while comparing. */
static GtkLabel *
add_delta_label (GtkLabel *value)
{
  GtkWidget *grid = gtk_widget_get_parent (GTK_WIDGET (value));
  GtkWidget *delta = gtk_label_new (NULL);
  int column, row, width, height;

  gtk_grid_query_child (GTK_GRID (grid), GTK_WIDGET (value), &column, &row, &width, &height);
  gtk_label_set_xalign (GTK_LABEL (delta), 1.0f);
  gtk_widget_set_has_tooltip (delta, TRUE);
  gtk_widget_add_css_class (delta, "tm-numeric");
  gtk_widget_add_css_class (delta, "tm-card-delta");
  gtk_widget_set_visible (delta, FALSE);
  gtk_grid_attach (GTK_GRID (grid), delta, column + 1, row, 1, 1);
  return GTK_LABEL (delta);
}

static void
set_bytes_row (GtkLabel   *key,
               GtkLabel   *value,
               gint64      bytes,
               const char *title,
               const char *explanation)
{
  g_autofree char *text = tm_format_bytes (bytes);
  g_autofree char *exact = tm_format_bytes_exact (bytes);

  gtk_label_set_label (value, text);
  set_tooltip (GTK_WIDGET (key), GTK_WIDGET (value), title, explanation, exact);
}

static void
set_count_row (GtkLabel   *key,
               GtkLabel   *value,
               guint64     count,
               const char *title,
               const char *explanation)
{
  g_autofree char *text = tm_format_count (count);

  gtk_label_set_label (value, text);
  set_tooltip (GTK_WIDGET (key), GTK_WIDGET (value), title, explanation, NULL);
}

static void
tm_summary_cards_clear (TmSummaryCards *self)
{
  GtkLabel *values[] = {
    self->peak_value, self->capacity_value, self->lifetime_value,
    self->stack_value, self->heap_value, self->free_value,
    self->fragmentation_value, self->allocations_value,
    self->deallocations_value, self->span_value, self->peak_step_value,
  };
  GtkLabel *details[] = {
    self->peak_detail, self->capacity_detail, self->lifetime_detail, self->never_freed_value,
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    gtk_label_set_label (values[i], "—");
  for (guint i = 0; i < G_N_ELEMENTS (details); i++)
    gtk_label_set_label (details[i], "");
}

static void show_comparison (TmSummaryCards *self,
                             TmCompare      *compare);

/* Adds what a click does to widget's tooltip. */
static void
append_hint (GtkWidget  *widget,
             const char *hint)
{
  const char *markup = gtk_widget_get_tooltip_markup (widget);
  g_autofree char *h = g_markup_escape_text (hint, -1);
  g_autofree char *text = g_strdup_printf ("%s%s<i>%s</i>", markup != NULL ? markup : "",
                                           markup != NULL ? "\n\n" : "", h);

  gtk_widget_set_tooltip_markup (widget, text);
}

/* ------------------------------------------------------------------ */
/* Cards lead to their moment                                          */

/* Makes t visible on the timeline, keeping the zoom. */
static void
bring_into_view (TmSession *session,
                 gint64     t)
{
  TmViewport *viewport = tm_session_get_viewport (session);
  gint64 span = tm_viewport_get_span (viewport);

  if (t < tm_viewport_get_start (viewport) || t > tm_viewport_get_end (viewport))
    tm_viewport_set_range (viewport, t - span / 2, t - span / 2 + span);
}

static void
go_to_peak_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TmSummaryCards *self = TM_SUMMARY_CARDS (widget);
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  if (session == NULL || self->store == NULL)
    return;
  tm_session_clear_selected_time (session);
  bring_into_view (session, tm_memory_store_get_summary (self->store)->peak_time_ps);
}

static void
go_to_lifetime_peak_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  TmSummaryCards *self = TM_SUMMARY_CARDS (widget);
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  guint index;
  gint64 t;

  if (session == NULL || self->store == NULL ||
      (index = tm_memory_store_find_lifetime_peak (self->store)) == G_MAXUINT)
    return;
  t = tm_memory_store_get_times (self->store)[index];
  /* The peak itself is the table at the peak, not "live at" its time. */
  if (t == tm_memory_store_get_summary (self->store)->peak_time_ps)
    tm_session_clear_selected_time (session);
  else
    tm_session_select_time (session, t);
  bring_into_view (session, t);
}

static void
show_whole_profile_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  TmSummaryCards *self = TM_SUMMARY_CARDS (widget);
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  if (session != NULL && self->store != NULL)
    tm_viewport_reset (tm_session_get_viewport (session));
}

static void
show_never_freed_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  TmSummaryCards *self = TM_SUMMARY_CARDS (widget);

  if (self->store != NULL)
    g_signal_emit (self, signals[SHOW_NEVER_FREED], 0);
}

static void
card_released_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  const char      *action)
{
  GtkWidget *card = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));

  if (n_press != 1 || !gtk_widget_contains (card, x, y))
    return;
  gtk_widget_grab_focus (card);
  gtk_widget_activate_action (card, action, NULL);
}

/* A card as a button: a click, Enter or Space activates action. */
static void
make_activatable (GtkWidget  *card,
                  const char *action)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_shortcut_controller_new ();
  const char *triggers[] = { "Return", "KP_Enter", "space" };

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "released", G_CALLBACK (card_released_cb), (gpointer) action);
  gtk_widget_add_controller (card, GTK_EVENT_CONTROLLER (click));
  for (guint i = 0; i < G_N_ELEMENTS (triggers); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string (triggers[i]),
                                                            gtk_named_action_new (action)));
  gtk_widget_add_controller (card, keys);
}

/* Which cards lead somewhere for the shown memory id, and the line of
 * their tooltips that says where. */
static void
update_activatable (TmSummaryCards *self)
{
  gboolean shown = self->store != NULL;
  gboolean lifetime = shown && tm_memory_store_find_lifetime_peak (self->store) != G_MAXUINT;
  GtkWidget *cards[] = { self->peak_card, self->capacity_card, self->lifetime_card, self->at_peak_card, self->activity_card };

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "cards.go-to-peak", shown);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "cards.go-to-lifetime-peak", lifetime);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "cards.show-whole-profile", shown);
  for (guint i = 0; i < G_N_ELEMENTS (cards); i++)
    {
      gboolean enabled = shown && (cards[i] != self->lifetime_card || lifetime);

      gtk_widget_set_focusable (cards[i], enabled);
      if (enabled)
        gtk_widget_add_css_class (cards[i], "tm-card-activatable");
      else
        gtk_widget_remove_css_class (cards[i], "tm-card-activatable");
    }
  if (!shown)
    return;

  append_hint (self->peak_card, _("Click to show the peak: its time on the timeline and what was live then."));
  append_hint (self->capacity_card, _("Click to show the peak, where the capacity was measured."));
  append_hint (self->lifetime_card,
               lifetime
               ? _("Click to show the moment the profile reached this peak, and what was live then.")
               : _("No moment of this profile holds this much heap: the allocator reached it before the profile began, or between the points that were sampled."));
  set_tooltip (self->at_peak_card, NULL, _("At the Peak"),
               _("Stack, heap, free memory and fragmentation when memory use peaked."), NULL);
  append_hint (self->at_peak_card, _("Click to show the peak."));
  set_tooltip (self->activity_card, NULL, _("Activity"),
               _("How many allocations and deallocations the profile holds, over how long, and the step of the peak."), NULL);
  append_hint (self->activity_card, _("Click to show the whole profile on the timeline."));
}

/* What was never freed comes from the allocation index, which the session
 * may still be waiting for: until then the line says so, in its place. */
static void
update_never_freed (TmSummaryCards *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmAllocations *allocations = self->store != NULL ? tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)) : NULL;
  const char *title = _("Never Freed");
  const char *explanation = self->segments != NULL
                            ? _("Allocations still live at the end of the trace, and their bytes, those live from "
                                "the start included: the allocated memory at the end.")
                            : _("Allocations still live at the end of the profile, and their bytes. Memory allocated "
                                "before the profile started and never freed is not among them: the heap at the end "
                                "is these bytes plus that memory.");

  gtk_widget_remove_css_class (GTK_WIDGET (self->never_freed_value), "dim-label");
  gtk_widget_set_visible (self->never_freed_button, TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "cards.show-never-freed", allocations != NULL);
  if (allocations != NULL)
    {
      guint n = tm_allocations_get_n_never_freed (allocations);
      gint64 bytes = tm_allocations_get_never_freed_bytes (allocations);
      g_autofree char *count = tm_format_count (n);
      g_autofree char *human = tm_format_bytes (bytes);
      g_autofree char *exact_bytes = tm_format_bytes_exact (bytes);
      /* TRANSLATORS: the bytes, then the count of allocations never freed */
      g_autofree char *value = g_strdup_printf (_("%s never freed (%s)"), human, count);

      gtk_label_set_label (self->never_freed_value, value);
      set_tooltip (self->never_freed_button, NULL, title, explanation, exact_bytes);
      append_hint (self->never_freed_button,
                   _("Click to show only these allocations in the table and to highlight them in the memory map."));
    }
  else if (self->store != NULL && tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)))
    {
      gtk_label_set_label (self->never_freed_value, _("Never freed: counting…"));
      gtk_widget_add_css_class (GTK_WIDGET (self->never_freed_value), "dim-label");
      set_tooltip (self->never_freed_button, NULL, title, explanation, NULL);
    }
  else
    {
      gtk_label_set_label (self->never_freed_value, "");
      gtk_widget_set_tooltip_markup (self->never_freed_button, NULL);
      gtk_widget_set_visible (self->never_freed_button, FALSE);
    }
}

static void show_segments (TmSummaryCards  *self,
                           const TmSummary *summary);

static void
tm_summary_cards_update (TmSummaryCards *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmCompare *comparison;
  const TmSummary *summary;
  gboolean complete;
  g_autofree char *text = NULL;
  g_autofree char *exact = NULL;
  g_autofree char *time = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *explanation = NULL;

  for (guint i = 0; i < N_ROWS; i++)
    gtk_widget_set_visible (GTK_WIDGET (self->deltas[i]), FALSE);

  if (self->store == NULL)
    {
      tm_summary_cards_clear (self);
      update_activatable (self);
      return;
    }

  summary = tm_memory_store_get_summary (self->store);
  complete = tm_memory_store_is_complete (self->store);

  /* A caching allocator's memory id: PyTorch's words. */
  self->segments = tm_profile_lookup_segments (tm_session_get_profile (session), self->store);
  show_segments (self, summary);
  if (self->segments != NULL)
    {
      update_never_freed (self);
      comparison = tm_comparison_query_get_comparison (tm_comparison_query_get_for_session (session));
      if (comparison != NULL)
        show_comparison (self, comparison);
      return;
    }

  /* Window peak */
  text = tm_format_bytes (summary->peak_bytes_in_use);
  exact = tm_format_bytes_exact (summary->peak_bytes_in_use);
  time = tm_format_time_ms (summary->peak_time_ps);
  gtk_label_set_label (self->peak_value, text);
  /* Translators: below the peak memory use: "at 1 938.413 ms" */
  detail = g_strdup_printf (_("at %s"), time);
  gtk_label_set_label (self->peak_detail, detail);
  {
    g_autofree char *unbroken = no_break (time);

    explanation = g_strdup_printf (_("The most memory in use (stack + heap) at any moment of the profile, reached at %s. The table lists what was live then."),
                                   unbroken);
  }
  set_tooltip (self->peak_card, NULL, _("Peak Memory Use"), explanation, exact);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&exact, g_free);
  g_clear_pointer (&detail, g_free);

  /* Capacity */
  text = tm_format_bytes (summary->memory_capacity);
  exact = tm_format_bytes_exact (summary->memory_capacity);
  gtk_label_set_label (self->capacity_value, text);
  if (summary->memory_capacity > 0)
    {
      g_autofree char *percent = tm_format_percent ((double) summary->peak_bytes_in_use /
                                                    (double) summary->memory_capacity);

      /* Translators: below the memory capacity: "40.1 % in use at the peak" */
      detail = g_strdup_printf (_("%s in use at the peak"), percent);
    }
  gtk_label_set_label (self->capacity_detail, detail ? detail : "");
  set_tooltip (self->capacity_card, NULL, _("Memory Capacity"),
               _("All the memory this allocator manages: stack, heap and free memory added up at the peak."),
               exact);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&exact, g_free);
  g_clear_pointer (&detail, g_free);

  /* Lifetime peak heap */
  text = tm_format_bytes (summary->peak_bytes_usage_lifetime);
  exact = tm_format_bytes_exact (summary->peak_bytes_usage_lifetime);
  gtk_label_set_label (self->lifetime_value, text);
  if (summary->peak_bytes_usage_lifetime > summary->peak_heap_bytes)
    {
      g_autofree char *above = tm_format_bytes (summary->peak_bytes_usage_lifetime - summary->peak_heap_bytes);

      /* Translators: below the lifetime peak heap: "1.20 GiB above the heap at the peak" */
      detail = g_strdup_printf (_("%s above the heap at the peak"), above);
    }
  else
    {
      detail = g_strdup (_("reached at the peak"));
    }
  gtk_label_set_label (self->lifetime_detail, detail);
  set_tooltip (self->lifetime_card, NULL, _("Lifetime Peak Heap"),
               _("The most heap memory the allocator has ever had in use, as it reports it. This includes time before the profile started, so it can be higher than anything seen in the profile."),
               exact);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&exact, g_free);
  g_clear_pointer (&detail, g_free);

  /* At the peak */
  set_bytes_row (self->stack_label, self->stack_value, summary->peak_stack_bytes,
                 _("Stack at the Peak"),
                 _("Memory reserved for the stack when memory use peaked."));
  set_bytes_row (self->heap_label, self->heap_value, summary->peak_heap_bytes,
                 _("Heap at the Peak"),
                 _("Memory allocated on the heap when memory use peaked."));
  if (tm_memory_store_has_free_data (self->store))
    set_bytes_row (self->free_label, self->free_value, summary->peak_free_bytes,
                   _("Free at the Peak"),
                   _("Memory the allocator still had available when memory use peaked."));
  else
    set_bytes_row (self->free_label, self->free_value, summary->peak_free_bytes,
                   _("Free at the Peak"),
                   _("This allocator does not report its free memory, so the profile records none."));

  text = tm_format_percent (summary->peak_fragmentation);
  gtk_label_set_label (self->fragmentation_value, text);
  set_tooltip (GTK_WIDGET (self->fragmentation_label), GTK_WIDGET (self->fragmentation_value),
               _("Fragmentation at the Peak"),
               _("How scattered the free memory was when memory use peaked: 0 % means it was one contiguous block. The higher it is, the more likely a large allocation fails although enough memory is free in total."),
               NULL);
  g_clear_pointer (&text, g_free);

  /* Activity */
  set_count_row (self->allocations_label, self->allocations_value, summary->n_allocations,
                 _("Allocations"),
                 complete
                 ? _("Allocation events the profiler recorded for this memory id.")
                 : _("Allocation events among the points XProf sampled; the full profile may have more."));
  set_count_row (self->deallocations_label, self->deallocations_value, summary->n_deallocations,
                 _("Deallocations"),
                 complete
                 ? _("Deallocation events the profiler recorded for this memory id.")
                 : _("Deallocation events among the points XProf sampled; the full profile may have more."));

  text = tm_format_duration (summary->last_time_ps - summary->first_time_ps);
  gtk_label_set_label (self->span_value, text);
  {
    g_autofree char *first_time = tm_format_time_ms (summary->first_time_ps);
    g_autofree char *last_time = tm_format_time_ms (summary->last_time_ps);
    g_autofree char *first = no_break (first_time);
    g_autofree char *last = no_break (last_time);

    g_free (explanation);
    explanation = g_strdup_printf (_("Time from the first memory event (%s) to the last (%s)."), first, last);
    set_tooltip (GTK_WIDGET (self->span_label), GTK_WIDGET (self->span_value),
                 _("Span"), explanation, NULL);
  }
  g_clear_pointer (&text, g_free);

  text = g_strdup_printf ("%" G_GINT64_FORMAT, tm_analysis_get_peak_step_id (tm_session_get_analysis (session)));
  gtk_label_set_label (self->peak_step_value, text);
  set_tooltip (GTK_WIDGET (self->peak_step_label), GTK_WIDGET (self->peak_step_value),
               _("Peak Step"),
               _("The step (group id) in which memory use peaked. The table at the peak holds the allocations made in this step."),
               NULL);

  update_never_freed (self);
  update_activatable (self);

  comparison = tm_comparison_query_get_comparison (tm_comparison_query_get_for_session (session));
  if (comparison != NULL)
    show_comparison (self, comparison);
}

/* ------------------------------------------------------------------ */
/* Comparing (docs/compare.md)                                         */

/* "+1.20 MiB (+0.02 %)", "+3 (+0.4 %)", "+0.07 points" */
static char *
format_delta (const TmCompareFigure *f,
              gboolean               with_change)
{
  g_autofree char *delta = NULL;
  g_autofree char *change = NULL;

  switch (f->kind)
    {
    case TM_COMPARE_FIGURE_FRACTION:
      {
        g_autofree char *pct = tm_format_percent (f->delta_fraction < 0 ? -f->delta_fraction : f->delta_fraction);

        return g_strdup_printf (_("%s%s points"), f->delta_fraction > 0 ? "+" : f->delta_fraction < 0 ? "−" : "", pct);
      }
    case TM_COMPARE_FIGURE_COUNT:
    case TM_COMPARE_FIGURE_STEP:
      {
        g_autofree char *count = tm_format_count (f->delta < 0 ? (guint64) 0 - (guint64) f->delta : (guint64) f->delta);

        delta = f->delta == 0 ? g_strdup ("0") : g_strconcat (f->delta > 0 ? "+" : "−", count, NULL);
      }
      break;
    case TM_COMPARE_FIGURE_BYTES:
    case TM_COMPARE_FIGURE_TIME:
    default:
      delta = tm_format_bytes_delta (f->delta);
      break;
    }
  if (f->kind != TM_COMPARE_FIGURE_STEP && with_change)
    change = tm_format_percent_change (f->delta, f->baseline);
  return change != NULL ? g_strdup_printf ("%s (%s)", delta, change) : g_steal_pointer (&delta);
}

static char *
format_baseline (const TmCompareFigure *f)
{
  switch (f->kind)
    {
    case TM_COMPARE_FIGURE_BYTES:
      return tm_format_bytes (f->baseline);
    case TM_COMPARE_FIGURE_FRACTION:
      return tm_format_percent (f->baseline_fraction);
    case TM_COMPARE_FIGURE_TIME:
      return tm_format_time_ms (f->baseline);
    case TM_COMPARE_FIGURE_STEP:
      return g_strdup_printf ("%" G_GINT64_FORMAT, f->baseline);
    case TM_COMPARE_FIGURE_COUNT:
    default:
      return tm_format_count ((guint64) f->baseline);
    }
}

/* A big card's detail gets a line "baseline 5.78 GiB · +1.20 MiB (+0.02 %)". */
static void
add_detail_line (GtkLabel              *detail,
                 const TmCompareFigure *f)
{
  g_autofree char *before_text = format_baseline (f);
  g_autofree char *delta_text = format_delta (f, TRUE);
  /* A figure and its change never part at the end of a line: "(+1.71 %)"
   * stays with "+1.20 MiB". */
  g_autofree char *before = no_break (before_text);
  g_autofree char *delta = no_break (delta_text);
  /* Translators: a card's line while comparing: the baseline's value, then
   * the difference, e.g. "baseline 5.78 GiB · +1.20 MiB (+0.02 %)" */
  g_autofree char *line = g_strdup_printf (_("baseline %s · %s"), before, delta);
  const char *old = gtk_label_get_label (detail);
  g_autofree char *text = old != NULL && *old != '\0' ? g_strdup_printf ("%s\n%s", old, line) : g_strdup (line);

  gtk_label_set_label (detail, text);
}

/* A small row that changed shows its change beside its value, in a
 * column of its own ("+1.20 MiB"), so that the value and its name keep
 * their room; its tooltip gets the baseline and the change in bytes and
 * per cent. */
static void
add_row_delta (GtkLabel              *value,
               GtkLabel              *delta_label,
               const TmCompareFigure *f)
{
  g_autofree char *before = format_baseline (f);
  g_autofree char *delta = format_delta (f, TRUE);
  const char *tooltip = gtk_widget_get_tooltip_markup (GTK_WIDGET (value));
  g_autofree char *b = g_markup_escape_text (before, -1);
  g_autofree char *d = g_markup_escape_text (delta, -1);
  /* Translators: added to a figure's tooltip while comparing */
  g_autofree char *line = g_strdup_printf (_("Baseline: %s. Difference: %s."), b, d);
  g_autofree char *markup = g_strdup_printf ("%s\n\n%s", tooltip != NULL ? tooltip : "", line);

  if (f->delta != 0 || f->delta_fraction != 0)
    {
      /* The short form: the difference without the per cent. */
      g_autofree char *shrunk = format_delta (f, FALSE);

      gtk_label_set_label (delta_label, shrunk);
      gtk_widget_set_visible (GTK_WIDGET (delta_label), TRUE);
      gtk_widget_set_tooltip_markup (GTK_WIDGET (delta_label), markup);
    }
  gtk_widget_set_tooltip_markup (GTK_WIDGET (value), markup);
}

static void
show_comparison (TmSummaryCards *self,
                 TmCompare      *compare)
{
  const struct { GtkLabel *label; const char *key; } rows[N_ROWS] = {
    [ROW_STACK] = { self->stack_value, "peak_stack_reserved_bytes" },
    [ROW_HEAP] = { self->heap_value, "peak_heap_allocated_bytes" },
    [ROW_FREE] = { self->free_value, "peak_free_memory_bytes" },
    [ROW_FRAGMENTATION] = { self->fragmentation_value, "peak_fragmentation" },
    [ROW_ALLOCATIONS] = { self->allocations_value, "num_allocations" },
    [ROW_DEALLOCATIONS] = { self->deallocations_value, "num_deallocations" },
    [ROW_PEAK_STEP] = { self->peak_step_value, "peak_step_id" },
  };

  add_detail_line (self->peak_detail, tm_compare_lookup_figure (compare, "peak_bytes_in_use"));
  add_detail_line (self->capacity_detail, tm_compare_lookup_figure (compare, "memory_capacity"));
  /* PyTorch's words: only the allocated and reserved figures compare. */
  if (self->segments == NULL)
    add_detail_line (self->lifetime_detail, tm_compare_lookup_figure (compare, "peak_bytes_usage_lifetime"));
  for (guint i = 0; i < N_ROWS; i++)
    if (self->segments == NULL || i == ROW_HEAP || i == ROW_FREE)
      add_row_delta (rows[i].label, self->deltas[i], tm_compare_lookup_figure (compare, rows[i].key));
}

static void
session_baseline_cb (TmSummaryCards *self)
{
  tm_summary_cards_update (self);
}

static GtkSizeRequestMode
tm_summary_cards_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
tm_summary_cards_dispose (GObject *object)
{
  TmSummaryCards *self = (TmSummaryCards *)object;
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_SUMMARY_CARDS);

  /* Children without a bound template id are ours to unparent. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->store);
  g_clear_object (&self->allocations_signals);
  g_clear_pointer (&self->xla_words, g_strfreev);

  G_OBJECT_CLASS (tm_summary_cards_parent_class)->dispose (object);
}

static void
tm_summary_cards_session_changed (TmView    *view,
                                  TmSession *old_session)
{
  TmSummaryCards *self = TM_SUMMARY_CARDS (view);
  TmSession *session = tm_view_get_session (view);

  g_signal_group_set_target (self->allocations_signals,
                             session != NULL ? tm_allocations_query_get_for_session (session) : NULL);
  session_memory_store_cb (self, NULL, session);
}

static void
tm_summary_cards_class_init (TmSummaryCardsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TmViewClass *view_class = TM_VIEW_CLASS (klass);

  object_class->dispose = tm_summary_cards_dispose;

  widget_class->measure = _tm_summary_cards_measure;
  widget_class->size_allocate = _tm_summary_cards_size_allocate;
  widget_class->get_request_mode = tm_summary_cards_get_request_mode;
  /* The session: whose memory store the cards show (NULL: dashes). */
  view_class->session_changed = tm_summary_cards_session_changed;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/tm-summary-cards.ui");
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, peak_card);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, peak_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, peak_detail);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, capacity_card);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, capacity_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, capacity_detail);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, lifetime_card);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, lifetime_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, lifetime_detail);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, stack_label);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, stack_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, heap_label);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, heap_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, free_label);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, free_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, fragmentation_label);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, fragmentation_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, allocations_label);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, allocations_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, deallocations_label);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, deallocations_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, span_label);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, span_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, peak_step_label);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, peak_step_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, never_freed_value);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, peak_title);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, capacity_title);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, lifetime_title);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, never_freed_button);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, at_peak_card);
  gtk_widget_class_bind_template_child (widget_class, TmSummaryCards, activity_card);

  gtk_widget_class_install_action (widget_class, "cards.go-to-peak", NULL, go_to_peak_action);
  gtk_widget_class_install_action (widget_class, "cards.go-to-lifetime-peak", NULL, go_to_lifetime_peak_action);
  gtk_widget_class_install_action (widget_class, "cards.show-whole-profile", NULL, show_whole_profile_action);
  gtk_widget_class_install_action (widget_class, "cards.show-never-freed", NULL, show_never_freed_action);

  /**
   * TmSummaryCards::show-never-freed:
   *
   * The never-freed line was activated: the window shows only what was
   * never freed in the table and highlights it in the memory map.
   */
  signals[SHOW_NEVER_FREED] =
    g_signal_new ("show-never-freed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "tmsummarycards");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tm_summary_cards_init (TmSummaryCards *self)
{
  GSignalGroup *session_signals;

  gtk_widget_init_template (GTK_WIDGET (self));

  session_signals = tm_view_get_session_signals (TM_VIEW (self));
  g_signal_group_connect_swapped (session_signals, "notify::memory-store",
                                  G_CALLBACK (session_memory_store_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::baseline",
                                  G_CALLBACK (session_baseline_cb), self);
  self->allocations_signals = g_signal_group_new (TM_TYPE_ALLOCATIONS_QUERY);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::allocations",
                                  G_CALLBACK (update_never_freed), self);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::pending",
                                  G_CALLBACK (update_never_freed), self);

  {
    GtkWidget *with_tooltips[] = {
      self->peak_card, self->capacity_card, self->lifetime_card,
      GTK_WIDGET (self->stack_label), GTK_WIDGET (self->stack_value),
      GTK_WIDGET (self->heap_label), GTK_WIDGET (self->heap_value),
      GTK_WIDGET (self->free_label), GTK_WIDGET (self->free_value),
      GTK_WIDGET (self->fragmentation_label), GTK_WIDGET (self->fragmentation_value),
      GTK_WIDGET (self->allocations_label), GTK_WIDGET (self->allocations_value),
      GTK_WIDGET (self->deallocations_label), GTK_WIDGET (self->deallocations_value),
      GTK_WIDGET (self->span_label), GTK_WIDGET (self->span_value),
      GTK_WIDGET (self->peak_step_label), GTK_WIDGET (self->peak_step_value),
      self->never_freed_button, self->at_peak_card, self->activity_card,
    };
    GtkLabel *values[N_ROWS] = {
      [ROW_STACK] = self->stack_value, [ROW_HEAP] = self->heap_value, [ROW_FREE] = self->free_value,
      [ROW_FRAGMENTATION] = self->fragmentation_value, [ROW_ALLOCATIONS] = self->allocations_value,
      [ROW_DEALLOCATIONS] = self->deallocations_value, [ROW_PEAK_STEP] = self->peak_step_value,
    };

    for (guint i = 0; i < G_N_ELEMENTS (with_tooltips); i++)
      connect_tooltip (with_tooltips[i]);
    for (guint i = 0; i < N_ROWS; i++)
      {
        self->deltas[i] = add_delta_label (values[i]);
        connect_tooltip (GTK_WIDGET (self->deltas[i]));
      }
  }

  make_activatable (self->peak_card, "cards.go-to-peak");
  make_activatable (self->capacity_card, "cards.go-to-peak");
  make_activatable (self->lifetime_card, "cards.go-to-lifetime-peak");
  make_activatable (self->at_peak_card, "cards.go-to-peak");
  make_activatable (self->activity_card, "cards.show-whole-profile");
  update_activatable (self);

  tm_summary_cards_clear (self);
}

GtkWidget *
tm_summary_cards_new (TmSession *session)
{
  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);

  return g_object_new (TM_TYPE_SUMMARY_CARDS,
                       "session", session,
                       NULL);
}

static void
session_memory_store_cb (TmSummaryCards *self,
                         GParamSpec     *pspec,
                         TmSession      *session)
{
  TmMemoryStore *store = session != NULL ? tm_session_get_memory_store (session) : NULL;

  if (!g_set_object (&self->store, store))
    return;

  tm_summary_cards_update (self);
}

/* ------------------------------------------------------------------ */
/* PyTorch's words (docs/pytorch.md, "In the views")                    */

/* The words that differ for a caching allocator: PyTorch's, or back to
 * the template's. */
static void
set_words (TmSummaryCards *self,
           gboolean        torch)
{
  GtkLabel *labels[] = {
    self->peak_title, self->capacity_title, self->lifetime_title,
    self->heap_label, self->free_label, self->deallocations_label, self->peak_step_label,
  };
  static const char * const words[] = {
    N_("Peak Allocated"), N_("Reserved at the Peak"), N_("At Snapshot Time"),
    N_("Allocated"), N_("Not allocated"), N_("Frees"), N_("Live from start"),
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (labels) == G_N_ELEMENTS (words));

  if (self->xla_words == NULL)
    {
      self->xla_words = g_new0 (char *, G_N_ELEMENTS (labels) + 1);
      for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
        self->xla_words[i] = g_strdup (gtk_label_get_label (labels[i]));
    }
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    gtk_label_set_label (labels[i], torch ? _(words[i]) : self->xla_words[i]);
  /* No stack; fragmentation only at snapshot time, on its own card. */
  gtk_widget_set_visible (GTK_WIDGET (self->stack_label), !torch);
  gtk_widget_set_visible (GTK_WIDGET (self->stack_value), !torch);
  gtk_widget_set_visible (GTK_WIDGET (self->fragmentation_label), !torch);
  gtk_widget_set_visible (GTK_WIDGET (self->fragmentation_value), !torch);
}

static void
show_segments (TmSummaryCards  *self,
               const TmSummary *summary)
{
  const TmSegmentsState *state;
  g_autofree char *text = NULL;
  g_autofree char *exact = NULL;
  g_autofree char *time = NULL;
  g_autofree char *unbroken = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *explanation = NULL;
  g_autofree char *percent = NULL;
  g_autofree char *reserved = NULL;

  set_words (self, self->segments != NULL);
  if (self->segments == NULL)
    return;
  state = tm_segments_get_state (self->segments);

  /* The allocated peak */
  text = tm_format_bytes (summary->peak_bytes_in_use);
  exact = tm_format_bytes_exact (summary->peak_bytes_in_use);
  time = tm_format_time_ms (summary->peak_time_ps);
  unbroken = no_break (time);
  gtk_label_set_label (self->peak_value, text);
  /* Translators: below the peak memory use: "at 1 938.413 ms" */
  detail = g_strdup_printf (_("at %s"), time);
  gtk_label_set_label (self->peak_detail, detail);
  explanation = g_strdup_printf (_("The most memory allocated at once, in requested bytes as PyTorch's memory "
                                   "viewer counts them (allocations live from the start included), reached at %s. "
                                   "The table lists what was live then."), unbroken);
  set_tooltip (self->peak_card, NULL, _("Peak Allocated"), explanation, exact);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&exact, g_free);
  g_clear_pointer (&detail, g_free);
  g_clear_pointer (&explanation, g_free);

  /* Reserved at the peak: allocated + not allocated */
  text = tm_format_bytes (summary->memory_capacity);
  exact = tm_format_bytes_exact (summary->memory_capacity);
  gtk_label_set_label (self->capacity_value, text);
  if (summary->memory_capacity > 0)
    {
      percent = tm_format_percent ((double) summary->peak_bytes_in_use / (double) summary->memory_capacity);
      /* Translators: below the memory reserved at the peak: "98.2 % allocated at the peak" */
      detail = g_strdup_printf (_("%s allocated at the peak"), percent);
    }
  gtk_label_set_label (self->capacity_detail, detail != NULL ? detail : "");
  reserved = tm_format_bytes (state->peak_reserved_bytes);
  explanation = g_strdup_printf (_("The memory PyTorch's caching allocator held from the device (its segments) "
                                   "when allocation peaked: what was allocated, and what it kept for later "
                                   "allocations. The most it held during the trace was %s."), reserved);
  set_tooltip (self->capacity_card, NULL, _("Reserved at the Peak"), explanation, exact);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&exact, g_free);
  g_clear_pointer (&detail, g_free);
  g_clear_pointer (&explanation, g_free);
  g_clear_pointer (&percent, g_free);
  g_clear_pointer (&reserved, g_free);

  /* At snapshot time, with Tidemark's fragmentation */
  text = tm_format_bytes (state->allocated_bytes);
  exact = tm_format_bytes_exact (state->allocated_bytes);
  reserved = tm_format_bytes (state->reserved_bytes);
  percent = tm_format_percent (state->fragmentation);
  gtk_label_set_label (self->lifetime_value, text);
  /* Translators: below the memory allocated at snapshot time: "13.2 GiB reserved · 96.4 % fragmented" */
  detail = g_strdup_printf (_("%s reserved · %s fragmented"), reserved, percent);
  gtk_label_set_label (self->lifetime_detail, detail);
  explanation = g_strdup_printf (ngettext ("Memory allocated when the snapshot was taken, as PyTorch sums it, "
                                           "of %s reserved in %u segment. “Fragmented” is Tidemark’s own figure, "
                                           "not PyTorch’s, and holds only at snapshot time: one minus the largest "
                                           "free block over all the free memory of the segments.",
                                           "Memory allocated when the snapshot was taken, as PyTorch sums it, "
                                           "of %s reserved in %u segments. “Fragmented” is Tidemark’s own figure, "
                                           "not PyTorch’s, and holds only at snapshot time: one minus the largest "
                                           "free block over all the free memory of the segments.",
                                           state->n_segments),
                                 reserved, state->n_segments);
  set_tooltip (self->lifetime_card, NULL, _("At Snapshot Time"), explanation, exact);
  g_clear_pointer (&text, g_free);

  /* At the peak */
  set_bytes_row (self->heap_label, self->heap_value, summary->peak_heap_bytes,
                 _("Allocated at the Peak"),
                 _("Requested bytes of the allocations live when allocation peaked."));
  set_bytes_row (self->free_label, self->free_value, summary->peak_free_bytes,
                 _("Not Allocated at the Peak"),
                 _("Memory the caching allocator held but had not allocated when allocation peaked: kept "
                   "for later allocations, or in pieces too small for them."));

  /* The trace */
  set_count_row (self->allocations_label, self->allocations_value, state->n_alloc_entries,
                 _("Allocations"), _("The trace’s alloc entries."));
  set_count_row (self->deallocations_label, self->deallocations_value, state->n_free_entries,
                 _("Frees"), _("The trace’s free_completed entries: blocks the allocator got back."));
  text = tm_format_duration (summary->last_time_ps - summary->first_time_ps);
  gtk_label_set_label (self->span_value, text);
  set_tooltip (GTK_WIDGET (self->span_label), GTK_WIDGET (self->span_value), _("Span"),
               _("Time from the first trace entry to the last."), NULL);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&explanation, g_free);
  g_free (reserved);
  reserved = tm_format_bytes (state->initially_allocated_bytes);
  explanation = g_strdup_printf (_("Allocations made before the first trace entry, %s in all: active blocks "
                                   "of the snapshot that no alloc entry made, and frees of allocations the "
                                   "trace does not hold."), reserved);
  set_count_row (self->peak_step_label, self->peak_step_value, state->n_initially_allocated,
                 _("Live From the Start"), explanation);
}
