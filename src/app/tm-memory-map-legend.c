/* tm-memory-map-legend.c — the memory map's legend and scope highlight
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The legend under the header for the colour mode (op, region, data type,
 * size class; the colours are the painter's, tm-map-painter): entries
 * named by their last distinct components, a click highlights that scope;
 * and which allocations the session's selected scope holds.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-fit-box.h"
#include "tm-format.h"
#include "tm-map-painter.h"
#include "tm-memory-map-private.h"
#include "tm-op-label.h"

#define LEGEND_ENTRIES 5

static void
swatch_draw (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        data)
{
  guint32 c = GPOINTER_TO_UINT (data);

  cairo_set_source_rgb (cr, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
}

/* The shortest tail of name's "/" components (at least the last) that no
 * other of the n keys ends with, so that entries sharing their last
 * component ("…/a/Cast", "…/b/Cast") read "a/Cast", "b/Cast". A tail of
 * more than two components keeps its first (the one that tells it apart)
 * and its last: "layer_0/…/Cast". */
static char *
legend_name (const char  *name,
             const char **keys,
             guint        n,
             guint        self_index)
{
  const char *tail = name + strlen (name);
  const char *first_end, *last;

  while (tail > name)
    {
      gboolean unique = TRUE;
      gsize len;

      /* One more component. */
      do
        tail--;
      while (tail > name && tail[-1] != '/');
      len = strlen (tail);
      for (guint j = 0; j < n && unique; j++)
        {
          gsize kl = strlen (keys[j]);

          if (j != self_index && kl >= len && strcmp (keys[j] + kl - len, tail) == 0 &&
              (kl == len || keys[j][kl - len - 1] == '/'))
            unique = FALSE;
        }
      if (unique)
        break;
      if (tail > name)
        tail--;   /* onto the "/" before it */
    }

  first_end = strchr (tail, '/');
  last = strrchr (tail, '/');
  if (first_end == NULL || first_end == last || last[1] == '\0')
    return g_strdup (tail);
  return g_strdup_printf ("%.*s/…/%s", (int) (first_end - tail), tail, last + 1);
}

static void
legend_clicked_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   TmMemoryMap     *self)
{
  GtkWidget *box = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  const char *key = g_object_get_data (G_OBJECT (box), "tm-key");
  g_auto(GStrv) parts = NULL;
  g_autoptr(TmScope) scope = NULL;
  TmScopeGrouping grouping;
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  if (session == NULL || key == NULL)
    return;
  if (self->color_by == TM_MEMORY_MAP_COLOR_REGION)
    grouping = TM_SCOPE_GROUPING_REGION;
  else if (self->color_by == TM_MEMORY_MAP_COLOR_DATA_TYPE)
    grouping = TM_SCOPE_GROUPING_DATA_TYPE;
  else
    grouping = TM_SCOPE_GROUPING_NAME;

  /* The scope of that op (its name split at "/", empty parts skipped, as
   * in docs/scopes.md), or of that region or data type; a second click
   * clears it. */
  if (grouping == TM_SCOPE_GROUPING_NAME)
    {
      g_auto(GStrv) split = g_strsplit (key, "/", -1);
      GPtrArray *kept = g_ptr_array_new ();

      for (guint i = 0; split[i] != NULL; i++)
        if (split[i][0] != '\0')
          g_ptr_array_add (kept, g_strdup (split[i]));
      if (kept->len == 0)
        g_ptr_array_add (kept, g_strdup (""));
      g_ptr_array_add (kept, NULL);
      parts = (GStrv) g_ptr_array_free (kept, FALSE);
    }
  else
    parts = g_strdupv ((char *[]) { (char *) key, NULL });
  scope = tm_scope_new (grouping, FALSE, (const char * const *) parts);
  if (tm_scope_equal (tm_session_get_selected_scope (session), scope))
    tm_session_set_selected_scope (session, NULL);
  else
    tm_session_set_selected_scope (session, scope);
}

static void
legend_add (TmMemoryMap *self,
            guint32      color,
            const char  *text,
            const char  *tooltip,
            const char  *key)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *swatch = gtk_drawing_area_new ();
  GtkWidget *label = gtk_label_new (text);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 10);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 10);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), swatch_draw, GUINT_TO_POINTER (color), NULL);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (box), swatch);
  gtk_box_append (GTK_BOX (box), label);
  gtk_widget_set_tooltip_text (box, tooltip != NULL ? tooltip : text);
  if (key != NULL)
    {
      GtkGesture *click = gtk_gesture_click_new ();

      g_object_set_data_full (G_OBJECT (box), "tm-key", g_strdup (key), g_free);
      g_signal_connect_object (click, "released", G_CALLBACK (legend_clicked_cb), self, 0);
      gtk_widget_add_controller (box, GTK_EVENT_CONTROLLER (click));
      gtk_widget_set_cursor_from_name (box, "pointer");
    }
  tm_fit_box_append (TM_FIT_BOX (self->legend_box), box);
}

typedef struct
{
  const char *key;
  gint64      bytes;
} LegendEntry;

static int
compare_legend (gconstpointer a,
                gconstpointer b)
{
  const LegendEntry *x = a, *y = b;

  return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : g_strcmp0 (x->key, y->key);
}

/* The legend for the colour mode: the keys with the most bytes
 * allocated (over the whole profile) first. */
void
_tm_memory_map_update_legend (TmMemoryMap *self)
{
  gboolean dark = tm_palette_is_dark_style (GTK_WIDGET (self));
  guint n_labels;

  tm_fit_box_remove_all (TM_FIT_BOX (self->legend_box));
  self->legend_more = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->legend_more, "caption");
  gtk_widget_add_css_class (self->legend_more, "dim-label");
  gtk_widget_set_visible (self->legend_more, FALSE);
  tm_fit_box_set_more (TM_FIT_BOX (self->legend_box), self->legend_more);
  self->legend_beyond = 0;

  self->colors_dark = dark;
  if (self->allocations == NULL)
    return;

  n_labels = tm_allocations_get_n_labels (self->allocations);
  if (self->color_by == TM_MEMORY_MAP_COLOR_SIZE)
    {
      static const char *names[TM_MAP_N_SIZE_CLASSES] = {
        N_("< 1 KiB"), N_("< 1 MiB"), N_("< 16 MiB"), N_("< 256 MiB"), N_("≥ 256 MiB"),
      };

      for (guint k = 0; k < TM_MAP_N_SIZE_CLASSES; k++)
        legend_add (self, tm_map_size_class_color (k, dark), _(names[k]), NULL, NULL);
    }
  else
    {
      g_autoptr(GHashTable) totals = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (LegendEntry));
      g_autofree gint64 *label_bytes = g_new0 (gint64, n_labels + 1);
      GHashTableIter iter;
      gpointer key, value;

      /* Of what is drawn: with the filter on, what it keeps. */
      for (guint i = 0; i < tm_allocations_get_n (_tm_memory_map_shown (self)); i++)
        {
          const TmAllocation *a = tm_allocations_get (_tm_memory_map_shown (self), i);

          label_bytes[MIN (TM_ALLOCATION_LABEL (a), n_labels)] += TM_ALLOCATION_BYTES (a);
        }
      for (guint l = 0; l < n_labels; l++)
        {
          const char *k = tm_map_label_key (tm_allocations_get_label (self->allocations, l), (TmMapColorBy) self->color_by);
          gint64 *sum = g_hash_table_lookup (totals, k);

          if (sum == NULL)
            {
              sum = g_new0 (gint64, 1);
              g_hash_table_insert (totals, (gpointer) k, sum);
            }
          *sum += label_bytes[l];
        }
      g_hash_table_iter_init (&iter, totals);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          LegendEntry e = { key, *(gint64 *) value };

          /* Keys the filter left without allocations are not drawn. */
          if (e.bytes > 0 || self->shown == NULL)
            g_array_append_val (entries, e);
          g_free (value);
        }
      g_array_sort (entries, compare_legend);
      for (guint i = 0; i < MIN (entries->len, LEGEND_ENTRIES); i++)
        {
          const LegendEntry *e = &g_array_index (entries, LegendEntry, i);
          /* "unknown", as the table says (docs/ui.md, "Values the file
           * does not hold"). */
          const char *text = tm_op_label_display_value (e->key);
          const char *keys[LEGEND_ENTRIES];
          g_autofree char *tooltip = NULL;
          g_autofree char *short_name = NULL;
          g_autofree char *bytes = tm_format_bytes (e->bytes);

          for (guint j = 0; j < MIN (entries->len, LEGEND_ENTRIES); j++)
            keys[j] = g_array_index (entries, LegendEntry, j).key;
          /* Translators: tooltip of a memory map legend entry: an op (or
           * region, data type) name, then bytes such as "1.5 GiB" */
          if (self->shown != NULL)
            /* Translators: tooltip of a memory map legend entry while the
             * map shows only what was never freed: a name, then bytes */
            tooltip = g_strdup_printf (_("%s\n%s never freed; click to highlight it"), text, bytes);
          else
            tooltip = g_strdup_printf (_("%s\n%s allocated over the profile; click to highlight it"), text, bytes);
          short_name = legend_name (text, keys, MIN (entries->len, LEGEND_ENTRIES), i);
          legend_add (self, tm_map_color_for_name (e->key, dark), short_name, tooltip, e->key);
        }
      self->legend_beyond = entries->len > LEGEND_ENTRIES ? entries->len - LEGEND_ENTRIES : 0;
    }
  _tm_memory_map_update_legend_more (self);
}

void
_tm_memory_map_update_legend_more (TmMemoryMap *self)
{
  guint n = self->legend_beyond + tm_fit_box_get_n_hidden (TM_FIT_BOX (self->legend_box));
  g_autofree char *more = NULL;

  if (self->legend_more == NULL)
    return;
  gtk_widget_set_visible (self->legend_more, n > 0);
  if (n == 0)
    return;
  more = g_strdup_printf (_("+%u more"), n);
  gtk_label_set_label (GTK_LABEL (self->legend_more), more);
}

/* The selected scope's allocations stay bright and the others are dimmed,
 * as for never freed. A label (op, region, data type) decides for the name,
 * region and data type groupings; for the shape grouping each candidate's
 * shape is decoded from the file, up to SCOPE_SHAPE_DECODES of them (past
 * that the map does not highlight). Special scopes hold no allocations of
 * the index: nothing is highlighted for them. */
#define SCOPE_SHAPE_DECODES 200000

/* Which allocations of the index the scope holds (NULL: it cannot tell,
 * or none of the index's). */
static GBytes *
scope_mask (TmMemoryMap   *self,
            const TmScope *scope)
{
  g_autofree guint8 *label_in = NULL;
  g_autofree guint8 *in_scope = NULL;
  guint n, n_labels, decodes = 0;

  n = tm_allocations_get_n (self->allocations);
  n_labels = tm_allocations_get_n_labels (self->allocations);
  label_in = g_new0 (guint8, n_labels + 1);
  for (guint l = 0; l < n_labels; l++)
    {
      const TmAllocationLabel *label = tm_allocations_get_label (self->allocations, l);

      if (scope->grouping != TM_SCOPE_GROUPING_SHAPE)
        label_in[l] = tm_scope_contains (scope, FALSE, label->op_name, label->region_type, label->data_type, NULL);
      else
        {
          /* The op part alone: a candidate whose shape is checked below. */
          TmScope ops = { TM_SCOPE_GROUPING_NAME, FALSE, scope->parts + 1 };

          label_in[l] = scope->parts[1] == NULL ||
                        tm_scope_contains (&ops, FALSE, label->op_name, NULL, NULL, NULL);
        }
    }

  in_scope = g_new0 (guint8, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const TmAllocation *a = tm_allocations_get (self->allocations, i);
      TmMemoryStore *store = tm_allocations_get_store (self->allocations);
      TmActivity act;

      if (!label_in[MIN (TM_ALLOCATION_LABEL (a), n_labels)])
        continue;
      if (scope->grouping != TM_SCOPE_GROUPING_SHAPE)
        {
          in_scope[i] = 1;
          continue;
        }
      if (++decodes > SCOPE_SHAPE_DECODES)
        return NULL;
      if (tm_memory_store_get_activity (store, tm_allocations_get_event (self->allocations, i), &act, NULL))
        {
          in_scope[i] = tm_scope_contains (scope, FALSE, act.op_name, act.region_type, act.data_type, act.shape);
          tm_activity_clear (&act);
        }
    }
  return g_bytes_new_take (g_steal_pointer (&in_scope), MAX (n, 1));
}

void
_tm_memory_map_sync_scope (TmMemoryMap *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  const TmScope *scope = session != NULL ? tm_session_get_selected_scope (session) : NULL;

  g_clear_pointer (&self->in_scope, g_bytes_unref);
  if (scope != NULL && !scope->special && self->allocations != NULL)
    self->in_scope = scope_mask (self, scope);
  _tm_memory_map_sync_highlight (self);
}
