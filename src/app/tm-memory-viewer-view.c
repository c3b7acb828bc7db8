/* tm-memory-viewer-view.c — the Memory Viewer page: the compiler's plan of one module
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The modules are read when the page is first shown (mapped), never when
 * a profile opens; the session's "static-selection" says which module and
 * memory space are shown, and is set to the default (the module with the
 * most heap simulator events, memory space 0) once the modules are known.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-memory-viewer-view-private.h"
#include "tm-static-selection.h"

#define RESOURCE_PREFIX "/io/github/tidemark/Tidemark"

G_DEFINE_FINAL_TYPE (TmMemoryViewerView, tm_memory_viewer_view, TM_TYPE_VIEW)

static TmMemoryViewerQuery *
get_query (TmMemoryViewerView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  return session != NULL ? tm_memory_viewer_query_get_for_session (session) : NULL;
}

static const TmStaticSelection *
get_selection (TmMemoryViewerView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  return session != NULL ? tm_session_get_static_selection (session) : NULL;
}

/* ------------------------------------------------------------------ */
/* Cards                                                                */

static void
add_card (TmMemoryViewerView *self,
          const char         *title,
          const char         *value,
          const char         *detail,
          const char         *tooltip)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label;

  gtk_widget_add_css_class (card, "tm-card");
  label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 18);
  gtk_widget_add_css_class (label, "tm-card-title");
  gtk_box_append (GTK_BOX (card), label);
  label = gtk_label_new (value);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "tm-card-value");
  gtk_box_append (GTK_BOX (card), label);
  if (detail != NULL)
    {
      label = gtk_label_new (detail);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      /* Narrow, so that three cards fit across 800 pixels. */
      gtk_label_set_max_width_chars (GTK_LABEL (label), 18);
      gtk_widget_add_css_class (label, "tm-card-detail");
      gtk_box_append (GTK_BOX (card), label);
    }
  gtk_widget_set_tooltip_text (card, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (card), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  gtk_flow_box_append (self->cards_box, card);
}

static void
add_bytes_card (TmMemoryViewerView *self,
                const char         *title,
                gint64              bytes,
                const char         *detail,
                const char         *meaning)
{
  g_autofree char *value = tm_format_bytes (bytes);
  g_autofree char *exact = tm_format_bytes_exact (bytes);
  g_autofree char *tooltip = g_strdup_printf ("%s\n%s", meaning, exact);

  add_card (self, title, value, detail, tooltip);
}

static void
fill_cards (TmMemoryViewerView       *self,
            const TmBufferAssignment *r)
{
  GtkWidget *child;
  gint64 peak = tm_buffer_assignment_get_peak (r);
  gint64 unpadded = (gint64) ((guint64) r->peak_unpadded_heap + (guint64) r->indefinite_bytes);
  g_autofree char *where = NULL;
  g_autofree char *padding_detail = NULL;
  g_autofree char *indefinite_detail = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->cards_box))) != NULL)
    gtk_flow_box_remove (self->cards_box, child);

  if (r->n_trace_events > 0)
    {
      const char *inst = (guint) r->peak_position < r->instruction_names->len
                         ? g_ptr_array_index (r->instruction_names, (guint) r->peak_position) : "";
      g_autofree char *point = tm_format_count ((guint64) r->peak_position + 1);
      g_autofree char *points = tm_format_count (r->heap_sizes->len);

      /* TRANSLATORS: where the static peak is: the program point, the points in all, the instruction whose event raised it */
      where = g_strdup_printf (_("at point %s of %s, raised by %s"), point, points,
                               inst[0] != '\0' ? inst : _("an unnamed instruction"));
    }
  else
    where = g_strdup (_("no heap simulator trace: only the buffers that live through the module"));
  add_bytes_card (self, _("Peak"), peak, where,
                  _("The most memory the compiler’s plan holds at once, with padding, the buffers that live through "
                    "the whole module included (XProf’s peak heap)."));
  add_bytes_card (self, _("Without Padding"), unpadded, NULL,
                  _("The same peak with every buffer at the size of its shape, without layout padding."));
  add_bytes_card (self, _("Parameters"), r->entry_parameters, NULL,
                  _("The module’s entry parameters in this memory space: live before it starts and through it."));
  add_bytes_card (self, _("Outputs"), r->maybe_live_out, NULL,
                  _("Buffers that may live out of the module (its results)."));
  add_bytes_card (self, _("Temporaries at the Peak"), r->peak_heap, NULL,
                  _("The heap simulator’s buffers live at the peak, without those that live through the module."));
  indefinite_detail = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u allocation", "%u allocations",
                                                    r->indefinite->len), r->indefinite->len);
  add_bytes_card (self, _("Indefinite Lifetime"), r->indefinite_bytes, indefinite_detail,
                  _("Allocations that live through the whole module: parameters, constants, thread-local and "
                    "maybe-live-out ones. They are added to every point of the heap."));
  if (peak > 0)
    padding_detail = tm_format_percent ((double) (peak - unpadded) / (double) peak);
  add_bytes_card (self, _("Padding Overhead"), peak - unpadded, padding_detail,
                  _("How much of the peak is layout padding: the peak with padding less the one without."));
  if (r->memory_space == 1)
    add_bytes_card (self, _("Scoped VMEM"), r->max_scoped_vmem, r->max_scoped_vmem_instruction,
                    _("The largest scoped VMEM an instruction’s backend configuration asks for (TPU)."));
}

/* ------------------------------------------------------------------ */
/* Against the run                                                      */

static void
update_compare (TmMemoryViewerView       *self,
                const TmBufferAssignment *r)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmMemoryStore *store = session != NULL ? tm_session_get_memory_store (session) : NULL;
  const TmStaticSelection *sel = get_selection (self);
  g_autoptr(GArray) comparisons = NULL;
  g_autofree char *text = NULL;
  GArray *modules;
  guint busiest;

  /* Only device memory is what an allocator of the profile holds. */
  gtk_widget_set_visible (self->compare_box, store != NULL && r != NULL && r->memory_space == 0 && sel != NULL);
  if (!gtk_widget_get_visible (self->compare_box))
    return;

  modules = tm_profile_get_hlo_modules (tm_session_get_profile (session));
  comparisons = tm_static_plan_compare_all (store, r, sel->module, modules);
  busiest = tm_static_plan_busiest (comparisons);
  if (busiest == G_MAXUINT)
    {
      if (modules->len == 0)
        text = g_strdup_printf (_("The profile does not say when %s ran: only TPU profiles have the XLA Modules "
                                  "line that times a module’s executions. Its plan cannot be set against what "
                                  "the allocator held."), sel->module);
      else
        text = g_strdup_printf (_("%s has no execution on the XLA Modules line within the memory events of %s."),
                                sel->module, tm_memory_store_get_id (store));
    }
  else
    {
      g_autofree char *words = tm_static_plan_explain (&g_array_index (comparisons, TmPlanComparison, busiest),
                                                       sel->module, tm_memory_store_get_id (store));

      if (comparisons->len > 1)
        /* TRANSLATORS: the comparison, then how many executions the module had */
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%s (The execution that held the most, of %u.)",
                                             "%s (The execution that held the most, of %u.)",
                                             comparisons->len),
                                words, comparisons->len);
      else
        text = g_steal_pointer (&words);
    }
  gtk_label_set_text (self->compare_label, text);
}

/* ------------------------------------------------------------------ */
/* The op looked for                                                    */

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
update_op (TmMemoryViewerView *self)
{
  TmMemoryViewerQuery *query = get_query (self);
  const TmStaticSelection *sel = get_selection (self);
  GPtrArray *matches = query != NULL ? tm_memory_viewer_query_get_op_matches (query) : NULL;
  g_autofree char *escaped = NULL;
  GString *text;

  g_clear_pointer (&self->lit, g_array_unref);
  gtk_widget_set_visible (self->op_banner, sel != NULL && sel->op != NULL);
  if (sel == NULL || sel->op == NULL)
    {
      g_clear_pointer (&self->op_switched, g_free);
      _tm_memory_viewer_view_update_lit (self);
      return;
    }

  escaped = g_markup_escape_text (sel->op, -1);
  text = g_string_new (NULL);
  if (matches == NULL)
    /* TRANSLATORS: an op of the memory profile whose buffers are looked for in the modules */
    g_string_append_printf (text, _("Looking for the buffers of <b>%s</b> in every module…"), escaped);
  else if (matches->len == 0)
    g_string_append_printf (text, _("No module defines buffers of <b>%s</b>: no instruction has it as its op "
                                    "name or as its own name."), escaped);
  else
    {
      /* TRANSLATORS: the op, then the modules that define its buffers follow */
      g_string_append_printf (text, _("Buffers of <b>%s</b>:"), escaped);
      self->lit = g_array_new (FALSE, FALSE, sizeof (gint64));
      for (guint i = 0; i < matches->len; i++)
        {
          const TmOpMatch *m = g_ptr_array_index (matches, i);
          g_autofree char *module = g_markup_escape_text (m->module, -1);
          gint64 bytes = 0;

          for (guint k = 0; k < m->buffers->len; k++)
            {
              const TmOpBuffer *b = &g_array_index (m->buffers, TmOpBuffer, k);

              bytes += b->size;
              if (g_strcmp0 (m->module, sel->module) == 0 && b->memory_space == sel->memory_space)
                g_array_append_val (self->lit, b->logical_buffer_id);
            }
          {
            g_autofree char *size = tm_format_bytes (bytes);

            g_string_append (text, i > 0 ? " · " : " ");
            /* TRANSLATORS: a module (a link) and how many buffers of the op it has, and their bytes */
            g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "<a href=\"%u\">%s</a>: %u buffer, %s",
                                                       "<a href=\"%u\">%s</a>: %u buffers, %s", m->buffers->len),
                                    i, module, m->buffers->len, size);
          }
        }
      g_array_sort (self->lit, compare_ids);

      /* The first time, show a module that has some, if this one has none. */
      if (g_strcmp0 (self->op_switched, sel->op) != 0)
        {
          const TmOpMatch *first = g_ptr_array_index (matches, 0);
          gboolean here = FALSE;

          g_free (self->op_switched);
          self->op_switched = g_strdup (sel->op);
          for (guint i = 0; i < matches->len && !here; i++)
            here = g_strcmp0 (((const TmOpMatch *) g_ptr_array_index (matches, i))->module, sel->module) == 0;
          if (!here)
            {
              g_string_free (text, TRUE);
              tm_static_selection_show_module (tm_view_get_session (TM_VIEW (self)), first->module,
                                               g_array_index (first->buffers, TmOpBuffer, 0).memory_space);
              return;
            }
        }
    }
  gtk_label_set_markup (self->op_label, text->str);
  g_string_free (text, TRUE);
  _tm_memory_viewer_view_update_lit (self);
}

static gboolean
op_link_cb (TmMemoryViewerView *self,
            const char         *uri,
            GtkLabel           *label)
{
  TmMemoryViewerQuery *query = get_query (self);
  GPtrArray *matches = query != NULL ? tm_memory_viewer_query_get_op_matches (query) : NULL;
  guint64 i;

  if (matches != NULL && g_ascii_string_to_unsigned (uri, 10, 0, matches->len - 1, &i, NULL))
    {
      const TmOpMatch *m = g_ptr_array_index (matches, i);

      tm_static_selection_show_module (tm_view_get_session (TM_VIEW (self)), m->module,
                                       g_array_index (m->buffers, TmOpBuffer, 0).memory_space);
    }
  return TRUE;
}

static void
op_clear_cb (TmMemoryViewerView *self)
{
  const TmStaticSelection *sel = get_selection (self);
  g_autoptr(TmStaticSelection) next = NULL;

  if (sel == NULL)
    return;
  next = tm_static_selection_new (sel->module, sel->memory_space, NULL);
  tm_session_set_static_selection (tm_view_get_session (TM_VIEW (self)), next);
}

/* ------------------------------------------------------------------ */
/* Dropdowns                                                            */

static char *
space_label (gint64 space)
{
  switch (space)
    {
    case 0:
      /* TRANSLATORS: a memory space (XLA's colour) and its name */
      return g_strdup (_("0 · device memory"));
    case 1:
      return g_strdup (_("1 · VMEM"));
    default:
      return g_strdup_printf ("%" G_GINT64_FORMAT, space);
    }
}

static gboolean
same_items (GListModel *a,
            GListModel *b)
{
  guint n = g_list_model_get_n_items (a);

  if (n != g_list_model_get_n_items (b))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkStringObject) x = g_list_model_get_item (a, i);
      g_autoptr(GtkStringObject) y = g_list_model_get_item (b, i);

      if (g_strcmp0 (gtk_string_object_get_string (x), gtk_string_object_get_string (y)) != 0)
        return FALSE;
    }
  return TRUE;
}

/* The dropdown's items, replaced only when they change: a dropdown whose
 * choice made the page fill it again is still inside its own change. */
static void
set_items (GtkDropDown   *dropdown,
           GtkStringList *items,
           guint          selected)
{
  GListModel *model = gtk_drop_down_get_model (dropdown);

  if (model == NULL || !same_items (model, G_LIST_MODEL (items)))
    gtk_drop_down_set_model (dropdown, G_LIST_MODEL (items));
  if (gtk_drop_down_get_selected (dropdown) != selected)
    gtk_drop_down_set_selected (dropdown, selected);
}

static void
fill_dropdowns (TmMemoryViewerView *self)
{
  TmMemoryViewerQuery *query = get_query (self);
  GArray *plans = query != NULL ? tm_memory_viewer_query_get_plans (query) : NULL;
  GArray *order = query != NULL ? tm_memory_viewer_query_get_order (query) : NULL;
  const TmStaticSelection *sel = get_selection (self);
  g_autoptr(GtkStringList) modules = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) spaces = gtk_string_list_new (NULL);
  guint selected = GTK_INVALID_LIST_POSITION, space_selected = GTK_INVALID_LIST_POSITION;
  const TmModulePlan *shown = NULL;

  self->filling = TRUE;
  g_ptr_array_set_size (self->listed, 0);
  g_array_set_size (self->spaces, 0);
  for (guint k = 0; order != NULL && k < order->len; k++)
    {
      const TmModulePlan *p = &g_array_index (plans, TmModulePlan, g_array_index (order, guint, k));
      g_autofree char *peak = tm_format_bytes (p->peak);
      g_autofree char *item = NULL;

      /* TRANSLATORS: a module in the dropdown: its name and static peak, or that it failed */
      item = p->error == NULL ? g_strdup_printf (_("%s · %s"), p->name, peak)
                              : g_strdup_printf (_("%s · cannot be read"), p->name);
      gtk_string_list_append (modules, item);
      g_ptr_array_add (self->listed, g_strdup (p->name));
      if (sel != NULL && g_strcmp0 (sel->module, p->name) == 0)
        {
          selected = k;
          shown = p;
        }
    }
  for (guint k = 0; shown != NULL && shown->memory_spaces != NULL && k < shown->memory_spaces->len; k++)
    {
      gint64 space = g_array_index (shown->memory_spaces, gint64, k);
      g_autofree char *label = space_label (space);

      gtk_string_list_append (spaces, label);
      g_array_append_val (self->spaces, space);
      if (sel != NULL && sel->memory_space == space)
        space_selected = k;
    }
  /* A memory space the module does not use still shows as chosen. */
  if (sel != NULL && shown != NULL && space_selected == GTK_INVALID_LIST_POSITION)
    {
      g_autofree char *label = space_label (sel->memory_space);

      gtk_string_list_append (spaces, label);
      g_array_append_val (self->spaces, sel->memory_space);
      space_selected = self->spaces->len - 1;
    }
  set_items (self->module_dropdown, modules, selected);
  set_items (self->space_dropdown, spaces, space_selected);
  gtk_widget_set_sensitive (GTK_WIDGET (self->space_dropdown), self->spaces->len > 1);
  self->filling = FALSE;
}

static void
module_selected_cb (TmMemoryViewerView *self)
{
  guint i = gtk_drop_down_get_selected (self->module_dropdown);

  if (self->filling || i >= self->listed->len)
    return;
  /* Another module opens in memory space 0, as XProf's page does. */
  tm_static_selection_show_module (tm_view_get_session (TM_VIEW (self)), g_ptr_array_index (self->listed, i), 0);
}

static void
space_selected_cb (TmMemoryViewerView *self)
{
  const TmStaticSelection *sel = get_selection (self);
  guint i = gtk_drop_down_get_selected (self->space_dropdown);

  if (self->filling || sel == NULL || i >= self->spaces->len)
    return;
  tm_static_selection_show_module (tm_view_get_session (TM_VIEW (self)), sel->module,
                                   g_array_index (self->spaces, gint64, i));
}

/* ------------------------------------------------------------------ */
/* Back to the run                                                      */

/* The time from the first execution of the shown module (on the XLA
 * Modules line) to the end of its last; FALSE without one or without
 * memory data to show them over. */
static gboolean
find_executions (TmMemoryViewerView *self,
                 gint64             *start_ps,
                 gint64             *end_ps)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  const TmStaticSelection *sel = get_selection (self);
  TmProfile *profile = session != NULL ? tm_session_get_profile (session) : NULL;
  TmMemoryStore *store = session != NULL ? tm_session_get_memory_store (session) : NULL;
  g_autoptr(GArray) executions = NULL;
  GArray *modules;
  gint64 start = G_MAXINT64, end = G_MININT64;

  if (sel == NULL || sel->module == NULL || profile == NULL || store == NULL ||
      tm_memory_store_get_n_snapshots (store) == 0)
    return FALSE;
  modules = tm_profile_get_hlo_modules (profile);
  executions = tm_static_plan_executions (modules, sel->module);
  for (guint k = 0; k < executions->len; k++)
    {
      const TmHloModule *m = &g_array_index (modules, TmHloModule, g_array_index (executions, guint, k));

      start = MIN (start, m->start_ps);
      end = MAX (end, MAX (m->end_ps, m->start_ps));
    }
  if (start_ps != NULL)
    *start_ps = start;
  if (end_ps != NULL)
    *end_ps = end;
  return executions->len > 0;
}

/* The Memory Profile, zoomed to the shown module's executions, where the
 * timeline draws its planned level over them. */
static void
show_executions_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  TmMemoryViewerView *self = TM_MEMORY_VIEWER_VIEW (widget);
  gint64 start, end;

  if (!find_executions (self, &start, &end))
    return;
  tm_viewport_zoom_to (tm_session_get_viewport (tm_view_get_session (TM_VIEW (self))), start, end);
  gtk_widget_activate_action (widget, "win.show-page", "s", "memory-profile");
}

/* ------------------------------------------------------------------ */
/* State                                                                */

static void
update (TmMemoryViewerView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmMemoryViewerQuery *query = get_query (self);
  TmMemoryViewerState state = query != NULL ? tm_memory_viewer_query_get_state (query) : TM_MEMORY_VIEWER_IDLE;
  GArray *plans = query != NULL ? tm_memory_viewer_query_get_plans (query) : NULL;
  GArray *order = query != NULL ? tm_memory_viewer_query_get_order (query) : NULL;
  const TmStaticSelection *sel = get_selection (self);
  const TmBufferAssignment *result;

  if (query != NULL && state == TM_MEMORY_VIEWER_IDLE && gtk_widget_get_mapped (GTK_WIDGET (self)) &&
      tm_session_get_profile (session) != NULL)
    {
      /* Asked now, when the page is shown: never at open. */
      tm_memory_viewer_query_load (query);
      return;
    }

  if (state != TM_MEMORY_VIEWER_READY)
    {
      guint done = 0, total = 0;

      if (query != NULL)
        tm_memory_viewer_query_get_progress (query, &done, &total);
      gtk_stack_set_visible_child_name (self->state_stack, "loading");
      gtk_progress_bar_set_fraction (self->loading_progress, total > 0 ? (double) done / total : 0.0);
      if (total > 0)
        {
          g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u module",
                                                                "%u of %u modules", total), done, total);

          gtk_label_set_text (self->loading_detail, text);
        }
      else
        gtk_label_set_text (self->loading_detail, "");
      _tm_memory_viewer_view_show_result (self, NULL);
      return;
    }

  if (plans->len == 0)
    {
      gtk_stack_set_visible_child_name (self->state_stack, "missing");
      _tm_memory_viewer_view_show_result (self, NULL);
      return;
    }

  /* An execution's name clicked on the timeline before the plans were
   * read: the module it ran. */
  if (sel != NULL && sel->module != NULL && tm_memory_viewer_query_lookup_plan (query, sel->module) == NULL &&
      tm_static_plan_module_of (plans, sel->module) != NULL)
    {
      tm_static_selection_show_module (session, tm_static_plan_module_of (plans, sel->module), sel->memory_space);
      return;
    }
  /* The default once the modules are known; a module the profile does not
   * have (from another profile) too. */
  if (sel == NULL || sel->module == NULL || tm_memory_viewer_query_lookup_plan (query, sel->module) == NULL)
    {
      const TmModulePlan *first = &g_array_index (plans, TmModulePlan, g_array_index (order, guint, 0));

      tm_static_selection_show_module (session, first->name, 0);
      return;
    }

  gtk_stack_set_visible_child_name (self->state_stack, "modules");
  fill_dropdowns (self);
  gtk_widget_set_visible (self->run_button, find_executions (self, NULL, NULL));

  result = tm_memory_viewer_query_get_result (query);
  gtk_spinner_set_spinning (self->pending_spinner, tm_memory_viewer_query_get_pending (query));
  if (tm_memory_viewer_query_get_pending (query))
    gtk_stack_set_visible_child_name (self->module_stack, "pending");
  else if (result == NULL)
    {
      const char *error = tm_memory_viewer_query_get_error (query);

      gtk_label_set_text (self->error_label, error != NULL ? error : "");
      gtk_stack_set_visible_child_name (self->module_stack, "error");
    }
  else
    gtk_stack_set_visible_child_name (self->module_stack, "result");

  if (result != self->result)
    {
      if (result != NULL)
        fill_cards (self, result);
      _tm_memory_viewer_view_show_result (self, result);
    }
  update_compare (self, result);
  update_op (self);
}

static void
session_changed (TmView    *view,
                 TmSession *old_session)
{
  TmMemoryViewerView *self = TM_MEMORY_VIEWER_VIEW (view);
  TmSession *session = tm_view_get_session (view);

  g_signal_group_set_target (self->query_signals, session != NULL ? get_query (self) : NULL);
  update (self);
}

static void
tm_memory_viewer_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (tm_memory_viewer_view_parent_class)->map (widget);
  update (TM_MEMORY_VIEWER_VIEW (widget));
}

static void
tm_memory_viewer_view_dispose (GObject *object)
{
  TmMemoryViewerView *self = TM_MEMORY_VIEWER_VIEW (object);

  g_clear_object (&self->query_signals);
  g_clear_object (&self->charts);
  g_clear_object (&self->selection);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->op_filter);
  g_clear_object (&self->rows);
  g_clear_pointer (&self->listed, g_ptr_array_unref);
  g_clear_pointer (&self->spaces, g_array_unref);
  g_clear_pointer (&self->lit, g_array_unref);
  g_clear_pointer (&self->op_switched, g_free);

  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_MEMORY_VIEWER_VIEW);

  G_OBJECT_CLASS (tm_memory_viewer_view_parent_class)->dispose (object);
}

static void
tm_memory_viewer_view_class_init (TmMemoryViewerViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_memory_viewer_view_dispose;
  widget_class->map = tm_memory_viewer_view_map;
  TM_VIEW_CLASS (klass)->session_changed = session_changed;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/tm-memory-viewer-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, state_stack);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, loading_progress);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, loading_detail);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, missing_message);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, module_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, space_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, scroller);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, op_banner);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, op_label);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, op_clear_button);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, module_stack);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, pending_spinner);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, error_label);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, cards_box);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, compare_box);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, compare_label);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, run_button);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, heap_box);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, peak_heading);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, bars_box);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, table_paned);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, column_view);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, details_grid);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, offsets_heading);
  gtk_widget_class_bind_template_child (widget_class, TmMemoryViewerView, offsets_box);
  gtk_widget_class_bind_template_callback (widget_class, op_link_cb);
  gtk_widget_class_bind_template_callback (widget_class, op_clear_cb);

  gtk_widget_class_install_action (widget_class, "viewer.show-executions", NULL, show_executions_action);

  gtk_widget_class_set_css_name (widget_class, "tmmemoryviewer");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tm_memory_viewer_view_init (TmMemoryViewerView *self)
{
  GSignalGroup *session_signals;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->listed = g_ptr_array_new_with_free_func (g_free);
  self->spaces = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->selected_id = -1;
  self->cursor = G_MAXUINT;

  gtk_label_set_text (self->missing_message,
                      _("This profile holds no compiled plan of its XLA modules (HloProtos), and no "
                        "*.hlo_proto.pb file beside it could be read. Open the module’s .hlo_proto.pb file "
                        "directly, or open the run folder with Open Run Folder: inside a sandbox (Flatpak) "
                        "Tidemark sees only the file it was given, not the files beside it."));

  /* The dropdowns search by the module's name. */
  gtk_drop_down_set_expression (self->module_dropdown,
                                gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
  g_signal_connect_object (self->module_dropdown, "notify::selected", G_CALLBACK (module_selected_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->space_dropdown, "notify::selected", G_CALLBACK (space_selected_cb), self,
                           G_CONNECT_SWAPPED);

  session_signals = tm_view_get_session_signals (TM_VIEW (self));
  g_signal_group_connect_swapped (session_signals, "notify::static-selection", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (session_signals, "notify::memory-store", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (session_signals, "notify::profile", G_CALLBACK (update), self);
  self->query_signals = g_signal_group_new (TM_TYPE_MEMORY_VIEWER_QUERY);
  g_signal_group_connect_swapped (self->query_signals, "notify::state", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (self->query_signals, "notify::progress", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (self->query_signals, "notify::result", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (self->query_signals, "notify::pending", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (self->query_signals, "notify::op-matches", G_CALLBACK (update), self);

  _tm_memory_viewer_view_buffers_init (self);
}

GtkWidget *
tm_memory_viewer_view_new (TmSession *session)
{
  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);

  return g_object_new (TM_TYPE_MEMORY_VIEWER_VIEW, "session", session, NULL);
}
