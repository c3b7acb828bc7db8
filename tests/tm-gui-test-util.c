/* tm-gui-test-util.c — helpers shared by the window tests (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>
#include "tm-allocations-query.h"

#include "tm-gui-test-util.h"
#include "tm-scope-series-query.h"
#include "tm-fixture-writer.h"
#include "tm-test-time.h"

static gboolean
wake_up_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

void
tm_test_iterate_until (gboolean (*cond) (gpointer),
                       gpointer   data)
{
  gint64 deadline = tm_test_deadline (60);
  guint wake = g_timeout_add (20, wake_up_cb, NULL);

  while (!cond (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out waiting (%" G_GINT64_FORMAT " s)", 60 * tm_test_time_scale ());
      g_main_context_iteration (NULL, TRUE);
    }

  g_source_remove (wake);
}

void
tm_test_iterate_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;
  guint wake = g_timeout_add (10, wake_up_cb, NULL);

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (wake);
}

static guint64
layout_signature (GtkWidget *widget)
{
  guint64 sig = (guint64) gtk_widget_get_width (widget) * 1000003u + (guint64) gtk_widget_get_height (widget);
  graphene_rect_t bounds;

  if (gtk_widget_compute_bounds (widget, gtk_widget_get_parent (widget) != NULL ? gtk_widget_get_parent (widget) : widget, &bounds))
    sig = sig * 31u + (guint64) (gint64) (bounds.origin.x * 7 + bounds.origin.y * 13);
  if (!gtk_widget_get_visible (widget))
    sig = sig * 31u + 17u;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    sig = sig * 1099511628211u + layout_signature (child);
  return sig;
}

void
tm_test_wait_layout_settled (GtkWidget *widget)
{
  gint64 deadline = tm_test_deadline (10);
  guint64 last = 0;
  guint same = 0;

  while (same < 3 && g_get_monotonic_time () < deadline)
    {
      guint64 sig;

      tm_test_iterate_for (60);
      sig = layout_signature (widget);
      same = sig == last ? same + 1 : 0;
      last = sig;
    }
}

gboolean
tm_test_not_loading (gpointer data)
{
  return tm_window_get_state (TM_WINDOW (data)) != TM_WINDOW_STATE_LOADING &&
         !tm_allocations_query_get_pending (tm_allocations_query_get_for_session (tm_window_get_session (TM_WINDOW (data))));
}

static gboolean
allocations_settled (gpointer data)
{
  return !tm_allocations_query_get_pending (tm_allocations_query_get_for_session (data));
}

void
tm_test_wait_allocations (TmSession *session)
{
  tm_test_iterate_until (allocations_settled, session);
}

gboolean
tm_test_all_loaded (gpointer data)
{
  if (g_application_get_is_busy (G_APPLICATION (data)))
    return FALSE;

  for (GList *l = gtk_application_get_windows (data); l; l = l->next)
    if (TM_IS_WINDOW (l->data) && !tm_test_not_loading (l->data))
      return FALSE;

  return TRUE;
}

TmWindow *
tm_test_new_window (void)
{
  TmWindow *window = tm_window_new (NULL);

  g_object_ref_sink (window);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

void
tm_test_destroy_window (TmWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
}

GtkWidget *
tm_test_template_child (gpointer    widget,
                        GType       type,
                        const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (widget), type, name);

  g_assert_nonnull (child);
  return GTK_WIDGET (child);
}

typedef gboolean (*WidgetMatch) (GtkWidget  *widget,
                                 const char *key);

static void
collect_widgets (GtkWidget   *widget,
                 WidgetMatch  match,
                 const char  *key,
                 GPtrArray   *found)
{
  if (match (widget, key))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_widgets (child, match, key, found);
}

static GtkWidget *
find_one (gpointer     root,
          WidgetMatch  match,
          const char  *key)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  g_assert_true (GTK_IS_WIDGET (root));
  collect_widgets (GTK_WIDGET (root), match, key, found);
  if (found->len != 1)
    g_error ("%u widgets match “%s”, not one", found->len, key);
  return g_ptr_array_index (found, 0);
}

static gboolean
has_buildable_id (GtkWidget  *widget,
                  const char *id)
{
  return g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (widget)), id) == 0;
}

static gboolean
has_accessible_label (GtkWidget  *widget,
                      const char *label)
{
  g_autofree char *mismatch = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                  label);

  return gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL) &&
         mismatch == NULL;
}

GtkWidget *
tm_test_find_widget (gpointer    root,
                     const char *id)
{
  GObject *child;

  /* An id of root's own template is unique: no walk (tests ask for the
   * window's table per row). */
  g_assert_true (GTK_IS_WIDGET (root));
  child = gtk_widget_get_template_child (GTK_WIDGET (root), G_OBJECT_TYPE (root), id);
  if (GTK_IS_WIDGET (child))
    return GTK_WIDGET (child);
  return find_one (root, has_buildable_id, id);
}

GtkWidget *
tm_test_find_labelled (gpointer    root,
                       const char *label)
{
  return find_one (root, has_accessible_label, label);
}

guint
tm_test_count_windows (GtkApplication *app)
{
  return g_list_length (gtk_application_get_windows (app));
}

char *
tm_test_gui_init (int    *argc,
                  char ***argv)
{
  char *data_home;

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  /* Keep the recently-used list of whoever runs the tests clean. */
  data_home = g_dir_make_tmp ("tidemark-test-data-XXXXXX", NULL);
  g_assert_nonnull (data_home);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);

  g_test_init (argc, argv, NULL);
  gtk_init ();
  return data_home;
}

void
tm_test_open_and_wait (TmWindow   *window,
                       const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tm_window_open (window, file);
  tm_test_iterate_until (tm_test_not_loading, window);
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
}

GtkGestureClick *
tm_test_find_click_gesture (GtkWidget *widget,
                            gboolean   capture_only)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller) &&
          (!capture_only ||
           gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (controller)) == GTK_PHASE_CAPTURE))
        return GTK_GESTURE_CLICK (controller);
    }
  return NULL;
}

void
tm_test_picture_free (TmTestPicture *picture)
{
  g_free (picture->data);
  g_free (picture);
}

TmTestPicture *
tm_test_render_node (GskRenderNode *node,
                     int            width,
                     int            height)
{
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderNode *nodes[2];
  GskRenderNode *container;
  TmTestPicture *picture;

  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);

  nodes[0] = gsk_color_node_new (&(GdkRGBA) { 1, 1, 1, 1 }, &GRAPHENE_RECT_INIT (0, 0, width, height));
  nodes[1] = node;
  container = gsk_container_node_new (nodes, node != NULL ? 2 : 1);
  texture = gsk_renderer_render_texture (renderer, container, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (container);
  gsk_render_node_unref (nodes[0]);
  if (node != NULL)
    gsk_render_node_unref (node);
  gsk_renderer_unrealize (renderer);

  if (g_getenv ("TM_TEST_SAVE_DIR") != NULL)
    {
      static int n;
      g_autofree char *name = g_strdelimit (g_strdup_printf ("%s-%d.png", g_test_get_path (), n++), "/", '-');
      g_autofree char *path = g_build_filename (g_getenv ("TM_TEST_SAVE_DIR"), name, NULL);

      gdk_texture_save_to_png (texture, path);
    }

  picture = g_new0 (TmTestPicture, 1);
  picture->width = gdk_texture_get_width (texture);
  picture->height = gdk_texture_get_height (texture);
  picture->stride = (gsize) picture->width * 4;
  picture->data = g_malloc (picture->stride * picture->height);
  gdk_texture_download (texture, picture->data, picture->stride);
  return picture;
}

guint32
tm_test_picture_pixel (const TmTestPicture *p,
                       double               x,
                       double               y)
{
  const guchar *px = p->data + (gsize) y * p->stride + (gsize) x * 4;

  return ((guint32) px[2] << 16) | ((guint32) px[1] << 8) | px[0];
}

void
tm_test_destroy_all_windows (GtkApplication *app)
{
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (app));

  for (GList *l = windows; l; l = l->next)
    gtk_window_destroy (l->data);
  tm_test_iterate_for (50);
}

void
tm_test_use_thai (gboolean thai)
{
  if (thai)
    {
      bindtextdomain (GETTEXT_PACKAGE, BUILD_LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
      g_setenv ("LANGUAGE", "th", TRUE);
    }
  else
    {
      /* Binding again also drops the translations gettext cached. */
      bindtextdomain (GETTEXT_PACKAGE, "/nonexistent");
      g_setenv ("LANGUAGE", "en", TRUE);
    }
  setlocale (LC_MESSAGES, "C.UTF-8");
}

void
tm_test_collect_label_text (GtkWidget *widget,
                            GString   *out)
{
  if (GTK_IS_LABEL (widget))
    {
      g_string_append (out, gtk_label_get_label (GTK_LABEL (widget)));
      g_string_append_c (out, '\n');
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    tm_test_collect_label_text (child, out);
}

GtkCheckButton *
tm_test_find_check (GtkWidget  *root,
                    const char *label)
{
  if (GTK_IS_CHECK_BUTTON (root) && g_strcmp0 (gtk_check_button_get_label (GTK_CHECK_BUTTON (root)), label) == 0)
    return GTK_CHECK_BUTTON (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkCheckButton *found = tm_test_find_check (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
tm_test_find_button (GtkWidget  *root,
                     const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = tm_test_find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

char *
tm_test_write_tour (char **dir)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_tour ();
  g_autoptr(GError) error = NULL;
  char *path;

  *dir = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);
  path = tm_fixture_space_write (space, *dir, "tour.xplane.pb", &error);
  g_assert_no_error (error);
  return path;
}

TmAllocationRow *
tm_test_find_row (TmBreakdownView  *view,
                  gboolean        (*match) (TmAllocationRow *row))
{
  GListModel *model = tm_breakdown_view_get_model (view);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TmAllocationRow) row = g_list_model_get_item (model, i);

      if (match (row))
        return row;   /* the model keeps it */
    }
  return NULL;
}

gint64
tm_test_scope_series_at (TmSession *session,
                         guint      i)
{
  GBytes *series = tm_scope_series_query_get_series (tm_scope_series_query_get_for_session (session));

  g_assert_nonnull (series);
  g_assert_cmpuint (g_bytes_get_size (series), >, i * sizeof (gint64));
  return ((const gint64 *) g_bytes_get_data (series, NULL))[i];
}
