/* tm-memory-map.c — every allocation of the shown memory id, over time and address
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view (TmView): a header (title, colour by, never freed, the legend)
 * over the canvas, a chart widget whose layers (tm-memory-map-layers.c)
 * draw the allocations as one image from the painter (tm-map-painter: the
 * largest allocation touching a pixel owns it, and every allocation owns
 * at least one), the address axis, the time ruler and, over them, the
 * shown time, the allocation under the pointer and the selected one. It
 * follows the session and the session's allocations query, whose index
 * comes a moment after the rest of the window.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-allocations-query.h"
#include "tm-fit-box.h"
#include "tm-format.h"
#include "tm-memory-map-private.h"

/* ------------------------------------------------------------------ */
/* The canvas: a plain widget that draws for the map                    */

#define TM_TYPE_MEMORY_MAP_CANVAS (tm_memory_map_canvas_get_type ())
G_DECLARE_FINAL_TYPE (TmMemoryMapCanvas, tm_memory_map_canvas, TM, MEMORY_MAP_CANVAS, GtkWidget)

struct _TmMemoryMapCanvas
{
  GtkWidget    parent_instance;
  TmMemoryMap *map;  /* not referenced: the map owns the canvas */
};

G_DEFINE_FINAL_TYPE (TmMemoryMapCanvas, tm_memory_map_canvas, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_COLOR_BY,
  PROP_HIGHLIGHT_NEVER_FREED,
  PROP_NEVER_FREED_ONLY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TmMemoryMap, tm_memory_map, TM_TYPE_VIEW)

static void
tm_memory_map_canvas_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  TmMemoryMapCanvas *canvas = TM_MEMORY_MAP_CANVAS (widget);

  if (canvas->map == NULL)
    return;
  /* The legend's swatches follow the style, as the layers' colours do. */
  if (tm_palette_is_dark_style (widget) != canvas->map->colors_dark)
    _tm_memory_map_update_legend (canvas->map);
  _tm_memory_map_draw (canvas->map, snapshot, &canvas->map->geometry, TRUE);
}

static void
tm_memory_map_canvas_size_allocate (GtkWidget *widget,
                                    int        width,
                                    int        height,
                                    int        baseline)
{
  TmMemoryMapCanvas *canvas = TM_MEMORY_MAP_CANVAS (widget);

  if (canvas->map != NULL)
    _tm_memory_map_update_geometry (canvas->map);
}

static void
tm_memory_map_canvas_measure (GtkWidget      *widget,
                              GtkOrientation  orientation,
                              int             for_size,
                              int            *minimum,
                              int            *natural,
                              int            *minimum_baseline,
                              int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = TM_CHART_MARGIN_LEFT + TM_CHART_MARGIN_RIGHT + 100;
      *natural = 600;
    }
  else
    {
      *minimum = 90;
      *natural = 220;
    }
}

static void
tm_memory_map_canvas_class_init (TmMemoryMapCanvasClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->snapshot = tm_memory_map_canvas_snapshot;
  widget_class->measure = tm_memory_map_canvas_measure;
  widget_class->size_allocate = tm_memory_map_canvas_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "tm-memory-map-canvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tm_memory_map_canvas_init (TmMemoryMapCanvas *self)
{
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "crosshair");
}

/* ------------------------------------------------------------------ */
/* Session                                                              */


/* The header says when the never-freed filter is on, how many it keeps,
 * and has the way back (docs/ui.md, "The memory map's never-freed
 * filter"). */
static void
update_filter_line (TmMemoryMap *self)
{
  g_autofree char *text = NULL;

  gtk_widget_set_visible (self->filter_box, self->never_freed_only);
  /* Highlighting what is never freed among only those says nothing. */
  gtk_widget_set_visible (self->never_freed_toggle, !self->never_freed_only);
  if (!self->never_freed_only)
    return;

  if (self->shown == NULL)
    text = g_strdup (_("Only the allocations never freed"));
  else if (tm_allocations_get_n (self->shown) == 0)
    text = g_strdup (_("Only the allocations never freed: none"));
  else
    {
      guint n = tm_allocations_get_n (self->shown);
      g_autofree char *count = tm_format_count (n);
      g_autofree char *bytes = tm_format_bytes (tm_allocations_get_never_freed_bytes (self->shown));

      /* Translators: the memory map's header while it shows only the
       * allocations never freed: a count, then bytes */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Only the %s allocation never freed (%s)",
                                           "Only the %s allocations never freed (%s)", n),
                              count, bytes);
    }
  gtk_label_set_label (GTK_LABEL (self->filter_label), text);
  gtk_widget_set_tooltip_text (self->filter_box,
                               _("The allocations freed before the end of the profile are left out of the map; "
                                 "Show All brings them back"));
}

/* What the never-freed filter keeps of the index. */
static void
sync_shown (TmMemoryMap *self)
{
  g_clear_object (&self->shown);
  if (self->never_freed_only && self->allocations != NULL)
    {
      g_autoptr(GArray) kept = tm_allocations_query_never_freed (self->allocations);

      self->shown = tm_allocations_new_subset (self->allocations, (const guint *) kept->data, kept->len);
    }
  self->hover = TM_ALLOCATIONS_NONE;
  update_filter_line (self);
  _tm_memory_map_update_legend (self);
}

static gboolean
legend_more_idle (gpointer data)
{
  TmMemoryMap *self = data;

  self->legend_more_idle = 0;
  _tm_memory_map_update_legend_more (self);
  return G_SOURCE_REMOVE;
}

/* The legend left out more or fewer entries for room: its "+N more" says
 * so, after the allocation that did it. */
static void
legend_hidden_cb (TmMemoryMap *self)
{
  if (self->legend_more_idle == 0)
    self->legend_more_idle = g_idle_add (legend_more_idle, self);
}

/* The colour modes, as the dropdown lists them: a PyTorch snapshot's
 * allocations have stacks and actions where an XLA profile's have ops and
 * regions, and no data type (tm-snapshot-columns.h). */
static const TmMemoryMapColor snapshot_modes[] = {
  TM_MEMORY_MAP_COLOR_OP, TM_MEMORY_MAP_COLOR_REGION, TM_MEMORY_MAP_COLOR_SIZE,
};

static gboolean
is_snapshot (TmMemoryMap *self)
{
  return g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (self->color_dropdown))) ==
         G_N_ELEMENTS (snapshot_modes);
}

/* The dropdown's position of color_by. */
static guint
color_position (TmMemoryMap      *self,
                TmMemoryMapColor  color_by)
{
  if (!is_snapshot (self))
    return color_by;
  for (guint i = 0; i < G_N_ELEMENTS (snapshot_modes); i++)
    if (snapshot_modes[i] == color_by)
      return i;
  return GTK_INVALID_LIST_POSITION;
}

static void
sync_color_modes (TmMemoryMap *self)
{
  gboolean snapshot = _tm_memory_map_get_segments (self) != NULL;
  g_autoptr(GtkStringList) modes = NULL;

  if (snapshot == is_snapshot (self))
    return;
  if (snapshot)
    /* Translators: the memory map's colour modes for a PyTorch
     * snapshot: its stacks, its trace actions, the sizes */
    modes = gtk_string_list_new ((const char *[]) { C_("colour by", "Stack"), C_("colour by", "Action"), _("Size"), NULL });
  else
    modes = gtk_string_list_new ((const char *[]) { _("Op"), _("Region"), _("Data type"), _("Size"), NULL });
  self->setting_modes = TRUE;
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->color_dropdown), G_LIST_MODEL (modes));
  self->setting_modes = FALSE;
  if (color_position (self, self->color_by) == GTK_INVALID_LIST_POSITION)
    tm_memory_map_set_color_by (self, TM_MEMORY_MAP_COLOR_OP);
  else
    {
      self->setting_modes = TRUE;
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->color_dropdown), color_position (self, self->color_by));
      self->setting_modes = FALSE;
    }
}

/* The memory store, or its index (which comes after it). */
static void
sync_store (TmMemoryMap *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmAllocations *allocations = session != NULL
                               ? tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session))
                               : NULL;

  if (allocations != self->allocations)
    {
      g_set_object (&self->allocations, allocations);
      self->y0 = 0;
      self->y1 = allocations != NULL ? MAX ((double) tm_allocations_get_axis_length (allocations), 1.0) : 1.0;
      sync_shown (self);
      _tm_memory_map_sync_scope (self);
      _tm_memory_map_update_geometry (self);
    }
  sync_color_modes (self);
  _tm_memory_map_sync_allocations (self);
}

static void
selection_changed_cb (TmMemoryMap *self)
{
  _tm_memory_map_sync_selection (self);
  _tm_memory_map_sync_pointer (self);
}

static void
viewport_changed_cb (TmMemoryMap *self)
{
  _tm_memory_map_update_geometry (self);
}

static void
tm_memory_map_session_changed (TmView    *view,
                               TmSession *old_session)
{
  TmMemoryMap *self = TM_MEMORY_MAP (view);
  TmSession *session = tm_view_get_session (view);

  g_clear_object (&self->viewport);
  if (session != NULL)
    self->viewport = g_object_ref (tm_session_get_viewport (session));
  g_signal_group_set_target (self->viewport_signals, self->viewport);
  g_signal_group_set_target (self->allocations_signals,
                             session != NULL ? tm_allocations_query_get_for_session (session) : NULL);
  _tm_memory_map_update_geometry (self);
  sync_store (self);
}

static void
color_dropdown_selected_cb (TmMemoryMap *self)
{
  guint position = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->color_dropdown));

  if (self->setting_modes || position == GTK_INVALID_LIST_POSITION)
    return;
  tm_memory_map_set_color_by (self, is_snapshot (self) ? snapshot_modes[MIN (position, G_N_ELEMENTS (snapshot_modes) - 1)]
                                                       : (TmMemoryMapColor) position);
}

static void
never_freed_toggled_cb (TmMemoryMap *self)
{
  tm_memory_map_set_highlight_never_freed (self,
                                           gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->never_freed_toggle)));
}

static void
show_all_clicked_cb (TmMemoryMap *self)
{
  tm_memory_map_set_never_freed_only (self, FALSE);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
tm_memory_map_dispose (GObject *object)
{
  TmMemoryMap *self = TM_MEMORY_MAP (object);
  GtkWidget *child;

  if (self->canvas != NULL)
    TM_MEMORY_MAP_CANVAS (self->canvas)->map = NULL;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->canvas = NULL;

  g_clear_handle_id (&self->legend_more_idle, g_source_remove);
  g_clear_object (&self->viewport_signals);
  g_clear_object (&self->allocations_signals);
  g_clear_object (&self->viewport);
  g_clear_object (&self->allocations);
  g_clear_object (&self->shown);
  g_clear_pointer (&self->in_scope, g_bytes_unref);

  G_OBJECT_CLASS (tm_memory_map_parent_class)->dispose (object);
}

static void
tm_memory_map_finalize (GObject *object)
{
  _tm_memory_map_layers_clear (TM_MEMORY_MAP (object));

  G_OBJECT_CLASS (tm_memory_map_parent_class)->finalize (object);
}

static void
tm_memory_map_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TmMemoryMap *self = TM_MEMORY_MAP (object);

  switch (prop_id)
    {
    case PROP_COLOR_BY:
      g_value_set_uint (value, self->color_by);
      break;
    case PROP_HIGHLIGHT_NEVER_FREED:
      g_value_set_boolean (value, self->highlight_never_freed);
      break;
    case PROP_NEVER_FREED_ONLY:
      g_value_set_boolean (value, self->never_freed_only);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_memory_map_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TmMemoryMap *self = TM_MEMORY_MAP (object);

  switch (prop_id)
    {
    case PROP_COLOR_BY:
      tm_memory_map_set_color_by (self, g_value_get_uint (value));
      break;
    case PROP_HIGHLIGHT_NEVER_FREED:
      tm_memory_map_set_highlight_never_freed (self, g_value_get_boolean (value));
      break;
    case PROP_NEVER_FREED_ONLY:
      tm_memory_map_set_never_freed_only (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_memory_map_class_init (TmMemoryMapClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_memory_map_dispose;
  object_class->finalize = tm_memory_map_finalize;
  object_class->get_property = tm_memory_map_get_property;
  object_class->set_property = tm_memory_map_set_property;
  TM_VIEW_CLASS (klass)->session_changed = tm_memory_map_session_changed;
  properties[PROP_COLOR_BY] =
    g_param_spec_uint ("color-by", NULL, NULL,
                       TM_MEMORY_MAP_COLOR_OP, TM_MEMORY_MAP_COLOR_SIZE, TM_MEMORY_MAP_COLOR_OP,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HIGHLIGHT_NEVER_FREED] =
    g_param_spec_boolean ("highlight-never-freed", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NEVER_FREED_ONLY] =
    g_param_spec_boolean ("never-freed-only", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tm-memory-map");
  _tm_memory_map_input_class_init (widget_class);
}

static void
tm_memory_map_init (TmMemoryMap *self)
{
  GtkLayoutManager *box = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  GtkWidget *title;
  GtkWidget *color_label;
  GtkWidget *show_all;
  const char *modes[] = { N_("Op"), N_("Region"), N_("Data type"), N_("Size"), NULL };
  const char *translated[G_N_ELEMENTS (modes)];
  GSignalGroup *session_signals = tm_view_get_session_signals (TM_VIEW (self));

  _tm_memory_map_layers_init (self);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (box), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (box), 2);

  self->hover = TM_ALLOCATIONS_NONE;
  self->y1 = 1;

  self->header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_margin_start (self->header, 12);
  gtk_widget_set_margin_end (self->header, 12);
  gtk_widget_set_parent (self->header, GTK_WIDGET (self));

  title = gtk_label_new (_("Memory map"));
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_tooltip_text (title, _("Every allocation: x from its allocation to its deallocation, y its "
                                        "addresses. Shift+wheel or a vertical rubber band (Shift+drag) zooms "
                                        "addresses; click an allocation to select it."));
  gtk_box_append (GTK_BOX (self->header), title);

  color_label = gtk_label_new_with_mnemonic (_("_Colour by"));
  gtk_widget_add_css_class (color_label, "dim-label");
  gtk_box_append (GTK_BOX (self->header), color_label);
  for (guint i = 0; modes[i] != NULL; i++)
    translated[i] = _(modes[i]);
  translated[G_N_ELEMENTS (modes) - 1] = NULL;
  self->color_dropdown = gtk_drop_down_new_from_strings (translated);
  gtk_widget_set_valign (self->color_dropdown, GTK_ALIGN_CENTER);
  gtk_label_set_mnemonic_widget (GTK_LABEL (color_label), self->color_dropdown);
  g_signal_connect_object (self->color_dropdown, "notify::selected",
                           G_CALLBACK (color_dropdown_selected_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->header), self->color_dropdown);

  self->never_freed_toggle = gtk_toggle_button_new_with_mnemonic (_("_Never freed"));
  gtk_widget_set_valign (self->never_freed_toggle, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (self->never_freed_toggle,
                               _("Highlight the allocations still live at the end of the profile"));
  g_signal_connect_object (self->never_freed_toggle, "toggled",
                           G_CALLBACK (never_freed_toggled_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->header), self->never_freed_toggle);

  /* In its place while the filter is on: what is shown, and the way back. */
  self->filter_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_visible (self->filter_box, FALSE);
  self->filter_label = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->filter_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (self->filter_label), 12);
  gtk_box_append (GTK_BOX (self->filter_box), self->filter_label);
  show_all = gtk_button_new_with_mnemonic (_("Show _All"));
  gtk_widget_set_valign (show_all, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (show_all, _("Draw every allocation again"));
  g_signal_connect_object (show_all, "clicked", G_CALLBACK (show_all_clicked_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->filter_box), show_all);
  gtk_box_append (GTK_BOX (self->header), self->filter_box);

  /* Entries that do not fit are left out whole, counted in "+N more". */
  self->legend_box = tm_fit_box_new (10);
  gtk_widget_set_hexpand (self->legend_box, TRUE);
  gtk_widget_set_overflow (self->legend_box, GTK_OVERFLOW_HIDDEN);
  g_signal_connect_object (self->legend_box, "notify::n-hidden",
                           G_CALLBACK (legend_hidden_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->header), self->legend_box);

  self->canvas = g_object_new (TM_TYPE_MEMORY_MAP_CANVAS, NULL);
  TM_MEMORY_MAP_CANVAS (self->canvas)->map = self;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->canvas),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory map"),
                                  -1);
  gtk_widget_set_parent (self->canvas, GTK_WIDGET (self));

  g_signal_group_connect_swapped (session_signals, "notify::memory-store", G_CALLBACK (sync_store), self);
  g_signal_group_connect_swapped (session_signals, "notify::profile", G_CALLBACK (sync_store), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-allocation", G_CALLBACK (selection_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-scope", G_CALLBACK (_tm_memory_map_sync_scope), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-time", G_CALLBACK (selection_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::has-selected-time", G_CALLBACK (selection_changed_cb), self);
  self->viewport_signals = g_signal_group_new (TM_TYPE_VIEWPORT);
  g_signal_group_connect_swapped (self->viewport_signals, "changed", G_CALLBACK (viewport_changed_cb), self);
  /* The index comes after the memory store. */
  self->allocations_signals = g_signal_group_new (TM_TYPE_ALLOCATIONS_QUERY);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::allocations", G_CALLBACK (sync_store), self);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::pending", G_CALLBACK (sync_store), self);

  _tm_memory_map_input_init (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

GtkWidget *
tm_memory_map_new (TmSession *session)
{
  return g_object_new (TM_TYPE_MEMORY_MAP, "session", session, NULL);
}

TmMemoryMapColor
tm_memory_map_get_color_by (TmMemoryMap *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_MAP (self), TM_MEMORY_MAP_COLOR_OP);
  return self->color_by;
}

void
tm_memory_map_set_color_by (TmMemoryMap      *self,
                            TmMemoryMapColor  color_by)
{
  g_return_if_fail (TM_IS_MEMORY_MAP (self));
  g_return_if_fail (color_by <= TM_MEMORY_MAP_COLOR_SIZE);

  if (self->color_by == color_by)
    return;
  self->color_by = color_by;
  self->setting_modes = TRUE;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->color_dropdown), color_position (self, color_by));
  self->setting_modes = FALSE;
  _tm_memory_map_update_legend (self);
  _tm_memory_map_sync_highlight (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_BY]);
}

gboolean
tm_memory_map_get_highlight_never_freed (TmMemoryMap *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_MAP (self), FALSE);
  return self->highlight_never_freed;
}

void
tm_memory_map_set_highlight_never_freed (TmMemoryMap *self,
                                         gboolean     highlight)
{
  g_return_if_fail (TM_IS_MEMORY_MAP (self));

  highlight = !!highlight;
  if (self->highlight_never_freed == highlight)
    return;
  self->highlight_never_freed = highlight;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->never_freed_toggle), highlight);
  _tm_memory_map_sync_highlight (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT_NEVER_FREED]);
}

gboolean
tm_memory_map_get_never_freed_only (TmMemoryMap *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_MAP (self), FALSE);
  return self->never_freed_only;
}

void
tm_memory_map_set_never_freed_only (TmMemoryMap *self,
                                    gboolean     never_freed_only)
{
  g_return_if_fail (TM_IS_MEMORY_MAP (self));

  never_freed_only = !!never_freed_only;
  if (self->never_freed_only == never_freed_only)
    return;
  self->never_freed_only = never_freed_only;
  sync_shown (self);
  _tm_memory_map_sync_allocations (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEVER_FREED_ONLY]);
}

GtkWidget *
tm_memory_map_get_canvas (TmMemoryMap *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_MAP (self), NULL);
  return self->canvas;
}

GskRenderNode *
tm_memory_map_render_node (TmMemoryMap *self,
                           int          width,
                           int          height)
{
  GtkSnapshot *snapshot;
  TmChartGeometry geometry;

  g_return_val_if_fail (TM_IS_MEMORY_MAP (self), NULL);

  _tm_memory_map_compute_geometry (self, width, height, &geometry);
  snapshot = gtk_snapshot_new ();
  _tm_memory_map_draw (self, snapshot, &geometry, FALSE);
  return gtk_snapshot_free_to_node (snapshot);
}
