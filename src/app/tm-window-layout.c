/* tm-window-layout.c — the profile page's panes: shares, minimums, hiding
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under the cards, a vertical paned holds the charts over the table and
 * scopes; in the charts, a paned holds the usage timeline over the memory
 * map, and another the charts over the HLO modules. Each pane keeps a
 * minimum (the page scrolls when the window is shorter than all of them),
 * the user drags the dividers and hides the memory map, the HLO modules or
 * the table (the "Panes" section of the main menu, the button beside the
 * table's tabs), and the shares and choices are kept in GSettings. Where
 * the memory map cannot be shown, a line says why (docs/ui.md, "Layout").
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "tm-window-private.h"

/* The panes the user shows or hides: a GSettings key and an action each. */
static const char * const pane_keys[] = { "show-memory-map", "show-hlo-modules", "show-table" };

static gboolean
pane_shown (TmWindow   *self,
            const char *name)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);
  g_autoptr(GVariant) state = action != NULL ? g_action_get_state (action) : NULL;

  return state == NULL || g_variant_get_boolean (state);
}

/* ------------------------------------------------------------------ */
/* Shares                                                              */

/* The share of a paned's height its first child gets: set once the paned
 * has a size, from the saved share; after that the paned keeps the user's
 * position (GtkPaned scales it with the window). */
static void
apply_share (GtkPaned *paned,
             double    share)
{
  int height = gtk_widget_get_height (GTK_WIDGET (paned));

  gtk_paned_set_position (paned, (int) round (height * CLAMP (share, 0.05, 0.95)));
}

static double
get_share (GtkPaned *paned,
           double    fallback)
{
  int height = gtk_widget_get_height (GTK_WIDGET (paned));
  GtkWidget *end = gtk_paned_get_end_child (paned);

  /* A hidden pane (or a collapsed table) leaves the share as it was. */
  if (height <= 0 || !gtk_widget_get_mapped (GTK_WIDGET (paned)) ||
      end == NULL || !gtk_widget_get_visible (end))
    return fallback;
  return CLAMP ((double) gtk_paned_get_position (paned) / height, 0.05, 0.95);
}

static void
paned_max_position_cb (TmWindow   *self,
                       GParamSpec *pspec,
                       GtkPaned   *paned)
{
  if (gtk_widget_get_height (GTK_WIDGET (paned)) <= 0)
    return;

  if (!pane_shown (self, "show-table"))
    {
      /* Collapsed: the charts take all of it. */
      gtk_paned_set_position (paned, G_MAXINT / 2);
      return;
    }
  apply_share (paned, self->charts_share);
  g_clear_signal_handler (&self->paned_position_handler, paned);
}

static void
chart_paned_max_position_cb (TmWindow   *self,
                             GParamSpec *pspec,
                             GtkPaned   *paned)
{
  /* Only with both charts: GtkPaned scales a position set while the map
   * was hidden when it comes back. */
  if (gtk_widget_get_height (GTK_WIDGET (paned)) <= 0 || !gtk_widget_get_visible (GTK_WIDGET (self->memory_map)))
    return;

  apply_share (paned, self->timeline_share);
  g_clear_signal_handler (&self->chart_paned_handler, paned);
}

/* The share of the charts beside the HLO modules once a divider was set
 * (by the user, or from the settings), else 0: their natural height. */
static double
hlo_share (TmWindow *self)
{
  gboolean set = FALSE;

  g_object_get (self->timeline_paned, "position-set", &set, NULL);
  return set ? get_share (self->timeline_paned, self->hlo_share) : self->hlo_share;
}

/* The HLO modules' pane has a size only once a profile with modules shows. */
static void
hlo_paned_max_position_cb (TmWindow   *self,
                           GParamSpec *pspec,
                           GtkPaned   *paned)
{
  if (gtk_widget_get_height (GTK_WIDGET (paned)) <= 0 || !gtk_widget_get_visible (GTK_WIDGET (self->hlo_box)))
    return;

  /* Until the user moves the divider, the table has its natural height. */
  if (self->hlo_share > 0)
    apply_share (paned, self->hlo_share);
  g_clear_signal_handler (&self->hlo_paned_handler, paned);
}

/* ------------------------------------------------------------------ */
/* The memory map: shown when wanted and when there is room             */

/* The memory map shows when the user wants it and the chart area has
 * room for both charts at their minimum heights; otherwise a line says
 * why where it would be. The usage timeline always keeps its minimum: the
 * chart area is never shorter. Run from an idle, not inside the allocation
 * that changed the room. */
static gboolean
update_map_room_idle (gpointer data)
{
  TmWindow *self = data;
  GtkWidget *timeline = GTK_WIDGET (self->timeline);
  GtkWidget *map = GTK_WIDGET (self->memory_map);
  int room = gtk_widget_get_height (GTK_WIDGET (self->chart_scroller));
  int width = gtk_widget_get_width (GTK_WIDGET (self->chart_scroller));
  int timeline_min = 0, map_min = 0;
  gboolean wanted = pane_shown (self, "show-memory-map");
  gboolean shown, fits;

  self->map_room_source = 0;
  /* The chart area's minimum first: squeezed to nothing before it had one
   * (a short window with banners and notes above), it would stay there,
   * as its height would never change again to bring this back. */
  gtk_widget_measure (timeline, GTK_ORIENTATION_VERTICAL, width > 0 ? width : -1, &timeline_min, NULL, NULL, NULL);
  if (gtk_scrolled_window_get_min_content_height (self->chart_scroller) != timeline_min)
    gtk_scrolled_window_set_min_content_height (self->chart_scroller, timeline_min);
  if (room <= 0)
    return G_SOURCE_REMOVE;

  /* A hidden widget measures 0: the map's minimum is the one it had. */
  if (gtk_widget_get_visible (map))
    {
      gtk_widget_measure (map, GTK_ORIENTATION_VERTICAL, width, &map_min, NULL, NULL, NULL);
      self->map_min_height = map_min;
    }
  map_min = self->map_min_height;

  /* The line takes room from the charts while it shows: count it in, so
   * that showing it does not hide the map's room. */
  if (gtk_widget_get_visible (self->map_placeholder))
    room += gtk_widget_get_height (self->map_placeholder) + gtk_widget_get_margin_top (self->map_placeholder);
  fits = room >= timeline_min + map_min + 1;
  shown = wanted && fits;

  if (shown != gtk_widget_get_visible (map))
    {
      /* The divider between them is where the user left it, or the
       * default share, whenever the map comes back. */
      if (!shown)
        self->timeline_share = get_share (self->chart_paned, self->timeline_share);
      gtk_widget_set_visible (map, shown);
      /* Set once the paned has laid out both charts again. */
      if (shown && self->chart_paned_handler == 0)
        self->chart_paned_handler =
          g_signal_connect_object (self->chart_paned, "notify::max-position",
                                   G_CALLBACK (chart_paned_max_position_cb), self, G_CONNECT_SWAPPED);
    }
  /* Hidden, the divider stays at the share of the height there is. */
  if (!shown)
    apply_share (self->chart_paned, self->timeline_share);
  gtk_widget_set_visible (self->map_placeholder,
                          !shown && tm_session_get_memory_store (self->session) != NULL);
  gtk_widget_set_visible (self->map_placeholder_button, !wanted);
  gtk_label_set_label (self->map_placeholder_label,
                       !wanted
                       ? _("Memory map hidden.")
                       : _("No room for the memory map at this height: drag the divider under the charts down, "
                           "hide the table, or make the window taller."));

  return G_SOURCE_REMOVE;
}

void
_tm_window_layout_queue_update (TmWindow *self)
{
  if (self->map_room_source == 0)
    self->map_room_source = g_idle_add (update_map_room_idle, self);
}

/* ------------------------------------------------------------------ */
/* Hiding panes                                                         */

static void
update_hlo_box (TmWindow *self)
{
  gboolean visible = pane_shown (self, "show-hlo-modules") && gtk_widget_get_visible (GTK_WIDGET (self->hlo_view));

  if (visible == gtk_widget_get_visible (self->hlo_box))
    return;
  if (!visible)
    self->hlo_share = hlo_share (self);
  gtk_widget_set_visible (self->hlo_box, visible);
  if (visible && self->hlo_paned_handler == 0)
    self->hlo_paned_handler =
      g_signal_connect_object (self->timeline_paned, "notify::max-position",
                               G_CALLBACK (hlo_paned_max_position_cb), self, G_CONNECT_SWAPPED);
}

static void
update_table (TmWindow *self)
{
  gboolean shown = pane_shown (self, "show-table");

  gtk_button_set_icon_name (GTK_BUTTON (self->table_toggle), shown ? "go-down-symbolic" : "go-up-symbolic");
  gtk_widget_set_tooltip_text (self->table_toggle,
                               shown
                               ? _("Hide the table and the scopes: the charts take their room")
                               : _("Show the table and the scopes"));
  if (shown == gtk_widget_get_visible (GTK_WIDGET (self->lower_stack)))
    return;

  if (!shown)
    {
      self->charts_share = get_share (self->paned, self->charts_share);
      gtk_widget_set_visible (GTK_WIDGET (self->lower_stack), FALSE);
      gtk_paned_set_position (self->paned, G_MAXINT / 2);
    }
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->lower_stack), TRUE);
      apply_share (self->paned, self->charts_share);
    }
}

static void
pane_state_cb (TmWindow *self)
{
  update_table (self);
  update_hlo_box (self);
  _tm_window_layout_queue_update (self);
}

/* The show-… actions: bound to their GSettings keys, or plain stateful
 * actions without the schema (tests of windows without an application). */
static void
add_pane_actions (TmWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (pane_keys); i++)
    {
      g_autoptr(GAction) action = NULL;

      if (self->settings != NULL)
        action = g_settings_create_action (self->settings, pane_keys[i]);
      else
        action = G_ACTION (g_simple_action_new_stateful (pane_keys[i], NULL, g_variant_new_boolean (TRUE)));
      g_action_map_add_action (G_ACTION_MAP (self), action);
      g_signal_connect_object (action, "notify::state", G_CALLBACK (pane_state_cb), self, G_CONNECT_SWAPPED);
    }
}

/* ------------------------------------------------------------------ */
/* Init, settings                                                      */

void
_tm_window_layout_load (TmWindow *self)
{
  self->charts_share = 0.6;
  self->timeline_share = 0.55;
  self->hlo_share = 0;
  if (self->settings == NULL)
    return;
  self->charts_share = g_settings_get_double (self->settings, "charts-share");
  self->timeline_share = g_settings_get_double (self->settings, "timeline-share");
  self->hlo_share = g_settings_get_double (self->settings, "hlo-share");
}

/* Within g_settings_delay (): the panes' shares, when the profile page
 * shows them. */
void
_tm_window_layout_save (TmWindow *self)
{
  if (self->settings == NULL)
    return;
  g_settings_set_double (self->settings, "charts-share", get_share (self->paned, self->charts_share));
  g_settings_set_double (self->settings, "timeline-share", get_share (self->chart_paned, self->timeline_share));
  g_settings_set_double (self->settings, "hlo-share", hlo_share (self));
}

void
_tm_window_layout_init (TmWindow *self)
{
  add_pane_actions (self);

  /* The charts get 60 % of the paned, the usage timeline 55 % of that
   * (or what the user left last time). */
  self->chart_paned_handler =
    g_signal_connect_object (self->chart_paned, "notify::max-position",
                             G_CALLBACK (chart_paned_max_position_cb), self, G_CONNECT_SWAPPED);
  self->paned_position_handler =
    g_signal_connect_object (self->paned, "notify::max-position",
                             G_CALLBACK (paned_max_position_cb), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (self->chart_scroller), "notify::page-size",
                           G_CALLBACK (_tm_window_layout_queue_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::memory-store",
                           G_CALLBACK (_tm_window_layout_queue_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->hlo_view, "notify::visible", G_CALLBACK (update_hlo_box), self, G_CONNECT_SWAPPED);

  gtk_widget_set_visible (self->hlo_box, FALSE);
  pane_state_cb (self);
}

void
_tm_window_layout_dispose (TmWindow *self)
{
  g_clear_handle_id (&self->map_room_source, g_source_remove);
  /* The settings' actions follow their keys for as long as they live: they
   * go with the window, not whenever GTK drops its actions. */
  for (guint i = 0; i < G_N_ELEMENTS (pane_keys); i++)
    g_action_map_remove_action (G_ACTION_MAP (self), pane_keys[i]);
}
