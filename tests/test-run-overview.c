/* test-run-overview.c — a run folder of 64 hosts opens on the run overview;
 * a row opens its host, Back returns; the same overview from JSON Lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "tm-fixture-writer.h"
#include "tm-gui-test-util.h"
#include "tm-run.h"
#include "tm-run-overview.h"
#include "tm-window.h"

#define N_HOSTS 64
#define CORRUPT_HOST 5
#define NO_DATA_HOST 9

static char *fixture_dir;
static char *run_dir;
static char **host_paths;

static gboolean
run_done (gpointer data)
{
  TmRunLoader *run = tm_session_get_run (tm_window_get_session (data));

  return run != NULL && tm_run_loader_get_n_done (run) == tm_run_loader_get_n_hosts (run);
}

static void
open_run (TmWindow *window)
{
  g_autoptr(GFile) dir = g_file_new_for_path (run_dir);
  g_autoptr(GPtrArray) items = tm_run_expand (&dir, 1, NULL, NULL);
  TmRunItem *item = g_ptr_array_index (items, 0);

  tm_window_open_run (window, item->run_directory, (GFile **) item->hosts->pdata, item->hosts->len);
}

static const char *
visible_page (TmWindow *window)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (tm_test_template_child (window, TM_TYPE_WINDOW, "main_stack")));
}

/* The rows: one per memory id, one for the failed host and one for the
 * host without memory data; the busiest first, marked. */
static void
assert_rows (TmRunOverview *overview)
{
  GListModel *model = tm_run_overview_get_model (overview);
  guint n = g_list_model_get_n_items (model);
  g_autoptr(TmRunRow) first = g_list_model_get_item (model, 0);
  g_autofree char *busiest = g_strdup_printf ("worker-%u", TM_FIXTURE_RUN_BUSIEST);
  guint n_failed = 0, n_empty = 0, n_marked = 0;

  /* 62 good hosts: the 32 even ones have two memory ids, the 30 odd ones
   * one; then the failed host and the one without memory data. */
  g_assert_cmpuint (n, ==, 32 * 2 + 30 + 2);
  g_assert_cmpstr (tm_run_row_get_host (first), ==, busiest);
  g_assert_cmpstr (tm_run_row_get_device (first)->memory_id, ==, "TPU_0_bfc");
  g_assert_true (tm_run_row_get_busiest (first));
  g_assert_true (g_str_has_prefix (tm_run_overview_get_headline (overview), busiest));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TmRunRow) row = g_list_model_get_item (model, i);
      const TmRunDevice *device = tm_run_row_get_device (row);

      n_marked += tm_run_row_get_busiest (row);
      if (device == NULL && tm_run_row_get_error (row) != NULL)
        n_failed++;
      else if (device == NULL)
        n_empty++;
      else
        {
          g_autoptr(TmRunRow) prev = i > 0 ? g_list_model_get_item (model, i - 1) : NULL;

          /* Sorted by peak, highest first. */
          if (prev != NULL && tm_run_row_get_device (prev) != NULL)
            g_assert_cmpint (tm_run_row_get_device (prev)->peak_bytes, >=, device->peak_bytes);
          g_assert_cmpuint (device->sparkline->len, >, 0);
        }
    }
  g_assert_cmpuint (n_marked, ==, 1);
  g_assert_cmpuint (n_failed, ==, 1);
  g_assert_cmpuint (n_empty, ==, 1);
}

static void
test_folder (void)
{
  TmWindow *window = tm_test_new_window ();
  TmRunOverview *overview = TM_RUN_OVERVIEW (gtk_stack_get_child_by_name (GTK_STACK (tm_test_find_widget (window, "main_stack")), "run"));
  GtkColumnView *view = tm_run_overview_get_column_view (overview);
  TmProfile *first_profile;
  g_autofree char *busiest = g_strdup_printf ("worker-%u.xplane.pb", TM_FIXTURE_RUN_BUSIEST);

  open_run (window);
  g_assert_true (tm_window_get_showing_overview (window));
  g_assert_cmpstr (visible_page (window), ==, "run");
  tm_test_iterate_until (run_done, window);
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_cmpstr (visible_page (window), ==, "run");
  assert_rows (overview);

  /* A click on the first row (the busiest) opens that host and memory id. */
  g_signal_emit_by_name (view, "activate", 0);
  g_assert_false (tm_window_get_showing_overview (window));
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_cmpstr (visible_page (window), ==, "profile");
  {
    g_autofree char *basename = g_file_get_basename (tm_window_get_file (window));

    g_assert_cmpstr (basename, ==, busiest);
  }
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, "TPU_0_bfc");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (GTK_DROP_DOWN (tm_test_find_widget (window, "host_dropdown")))));

  /* Back: the overview again, as it was. */
  tm_window_show_run_overview (window);
  g_assert_true (tm_window_get_showing_overview (window));
  g_assert_cmpstr (visible_page (window), ==, "run");
  assert_rows (overview);

  /* At most two hosts keep their profile: after two others, the first
   * one shown is dropped. */
  first_profile = tm_window_get_profile (window);
  g_object_add_weak_pointer (G_OBJECT (first_profile), (gpointer *) &first_profile);
  for (guint host = 1; host <= 2; host++)
    {
      g_assert_true (tm_window_select_host (window, host == 1 ? "worker-1" : "worker-2"));
      g_assert_false (tm_window_get_showing_overview (window));
      tm_test_iterate_until (tm_test_not_loading, window);
      g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
    }
  tm_test_iterate_for (30);
  g_assert_null (first_profile);

  tm_test_destroy_window (window);
}

static gboolean
summaries_shown (gpointer data)
{
  TmRunLoader *run = tm_session_get_run (tm_window_get_session (data));

  return run != NULL && tm_run_loader_is_gathered (run) && tm_window_get_showing_overview (data);
}

static void
test_summaries (void)
{
  g_autofree char *jsonl = g_build_filename (fixture_dir, "gathered.jsonl", NULL);
  g_autofree char *out = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (jsonl);
  g_autoptr(GString) gathered = g_string_new (NULL);
  TmWindow *window = tm_test_new_window ();
  TmRunOverview *overview = TM_RUN_OVERVIEW (gtk_stack_get_child_by_name (GTK_STACK (tm_test_find_widget (window, "main_stack")), "run"));
  int status = 0;

  /* As the recipe gathers them: one command per host, lines concatenated. */
  for (guint h = 0; h < N_HOSTS; h++)
    {
      g_autofree char *line = NULL;
      const char *argv[] = { g_getenv ("TM_TIDEMARK_EXE"), "--summary", "--json", host_paths[h], NULL };

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                   &line, NULL, &status, NULL));
      g_string_append (gathered, line);
    }
  g_assert_true (g_file_set_contents (jsonl, gathered->str, -1, NULL));

  tm_window_open_summaries (window, file);
  tm_test_iterate_until (summaries_shown, window);
  g_assert_cmpstr (visible_page (window), ==, "run");
  assert_rows (overview);

  /* A row opens its host's profile, which is reachable here. */
  g_signal_emit_by_name (tm_run_overview_get_column_view (overview), "activate", 0);
  g_assert_false (tm_window_get_showing_overview (window));
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, "TPU_0_bfc");
  tm_window_show_run_overview (window);
  g_assert_cmpstr (visible_page (window), ==, "run");

  tm_test_destroy_window (window);
}

static TmRunDevice *
device_new (const char *memory_id,
            gint64      peak,
            gint64      capacity)
{
  TmRunDevice *device = g_new0 (TmRunDevice, 1);

  device->memory_id = g_strdup (memory_id);
  device->peak_bytes = peak;
  device->capacity = capacity;
  device->sparkline = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < 10; i++)
    g_array_append_val (device->sparkline, peak);
  return device;
}

static void
find_type (GtkWidget *widget,
           GType      type,
           GPtrArray *found)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    find_type (child, type, found);
}

/* How many pixel rows of area's middle column the sparkline fills. */
static int
filled_height (GtkWidget *area)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (area);
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *data = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  int width = gtk_widget_get_width (area);
  int height = gtk_widget_get_height (area);
  int filled = 0;

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));
  if (node == NULL)
    {
      gsk_renderer_unrealize (renderer);
      return 0;
    }
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  gsk_renderer_unrealize (renderer);
  data = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, data, (gsize) width * 4);
  for (int y = 0; y < height; y++)
    filled += data[(gsize) y * width * 4 + (gsize) (width / 2) * 4 + 3] > 64;
  return filled;
}

static int
height_of_host (TmRunOverview *overview,
                const char    *host)
{
  g_autoptr(GPtrArray) areas = g_ptr_array_new ();

  find_type (GTK_WIDGET (overview), GTK_TYPE_DRAWING_AREA, areas);
  for (guint i = 0; i < areas->len; i++)
    {
      TmRunRow *row = g_object_get_data (g_ptr_array_index (areas, i), "tm-run-row");

      if (row != NULL && g_strcmp0 (tm_run_row_get_host (row), host) == 0)
        return filled_height (g_ptr_array_index (areas, i));
    }
  g_assert_not_reached ();
}

/* The sparklines are drawn on the run's highest peak by default: hosts
 * at 1 % of their capacity are not a flat line, and compare by their
 * bytes; each device's capacity is the other choice. The busiest host's
 * name is never cut behind its badge. */
static void
test_sparkline_scale (void)
{
  const gint64 capacity = G_GINT64_CONSTANT (16) << 30;
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_host_summary_free);
  g_autoptr(GFile) source = g_file_new_for_path ("/nonexistent/gathered.jsonl");
  g_autoptr(TmRunLoader) run = NULL;
  g_autoptr(TmSession) session = tm_session_new ();
  GtkWidget *window = gtk_window_new ();
  TmRunOverview *overview = TM_RUN_OVERVIEW (tm_run_overview_new (session));
  const char *busiest = "tpu-worker-with-a-long-name-0";
  TmHostSummary *summary;
  int top, half, full;

  summary = tm_host_summary_new (busiest, NULL);
  g_ptr_array_add (summary->devices, device_new ("TPU_0_bfc", 200 << 20, capacity));
  g_ptr_array_add (summaries, summary);
  summary = tm_host_summary_new ("tpu-worker-1", NULL);
  g_ptr_array_add (summary->devices, device_new ("TPU_0_bfc", 100 << 20, capacity));
  g_ptr_array_add (summaries, summary);
  run = tm_run_loader_new_for_summaries (source, g_steal_pointer (&summaries));

  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (overview));
  tm_session_set_run (session, run);
  gtk_window_present (GTK_WINDOW (window));
  tm_test_wait_layout_settled (window);

  full = height_of_host (overview, busiest);
  half = height_of_host (overview, "tpu-worker-1");
  g_test_message ("run's peak: %d and %d px", full, half);
  g_assert_cmpint (full, >=, 18);
  g_assert_cmpint (half, >=, full / 2 - 2);
  g_assert_cmpint (half, <=, full / 2 + 2);

  /* No figure cut at 800 px: the table scrolls sideways instead. */
  {
    g_autoptr(GPtrArray) labels = g_ptr_array_new ();

    find_type (GTK_WIDGET (tm_run_overview_get_column_view (overview)), GTK_TYPE_LABEL, labels);
    for (guint i = 0; i < labels->len; i++)
      {
        GtkWidget *label = g_ptr_array_index (labels, i);
        int natural;

        const char *text = gtk_label_get_label (GTK_LABEL (label));

        if (!gtk_widget_get_mapped (label) || (strstr (text, "iB") == NULL && strstr (text, " %") == NULL))
          continue;
        gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
        g_assert_cmpint (gtk_widget_get_width (label), >=, natural);
        g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (label)), ==, PANGO_ELLIPSIZE_NONE);
      }
  }

  /* The busiest host's name whole beside its badge. */
  {
    g_autoptr(GPtrArray) labels = g_ptr_array_new ();

    find_type (GTK_WIDGET (overview), GTK_TYPE_LABEL, labels);
    top = 0;
    for (guint i = 0; i < labels->len; i++)
      {
        GtkWidget *label = g_ptr_array_index (labels, i);
        int natural;

        if (g_strcmp0 (gtk_label_get_label (GTK_LABEL (label)), busiest) != 0 || !gtk_widget_get_mapped (label))
          continue;
        gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
        g_assert_cmpint (gtk_widget_get_width (label), >=, natural);
        top++;
      }
    g_assert_cmpint (top, ==, 1);
  }

  /* On each device's capacity: both hosts are at about 1 %. */
  {
    g_autoptr(GPtrArray) dropdowns = g_ptr_array_new ();

    find_type (GTK_WIDGET (overview), GTK_TYPE_DROP_DOWN, dropdowns);
    g_assert_cmpuint (dropdowns->len, ==, 1);
    gtk_drop_down_set_selected (g_ptr_array_index (dropdowns, 0), 1);
  }
  tm_test_wait_layout_settled (window);
  g_assert_cmpint (height_of_host (overview, busiest), <=, 2);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Two hosts that peak at the same bytes (copies of one profile): the
 * busiest, as the headline and the badge say, is the top row, and ties
 * come in host order, worker-0 above worker-1, whatever order the hosts
 * were read in. */
static void
test_tied_peaks (void)
{
  static const char *hosts[] = { "worker-1", "worker-0", "worker-2" };
  const gint64 capacity = G_GINT64_CONSTANT (16) << 30;
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_host_summary_free);
  g_autoptr(GFile) source = g_file_new_for_path ("/nonexistent/gathered.jsonl");
  g_autoptr(TmRunLoader) run = NULL;
  g_autoptr(TmSession) session = tm_session_new ();
  TmRunOverview *overview = TM_RUN_OVERVIEW (g_object_ref_sink (tm_run_overview_new (session)));
  GListModel *model;

  for (guint i = 0; i < G_N_ELEMENTS (hosts); i++)
    {
      TmHostSummary *summary = tm_host_summary_new (hosts[i], NULL);

      g_ptr_array_add (summary->devices, device_new ("GPU_6_bfc", i < 2 ? 300 << 20 : 100 << 20, capacity));
      g_ptr_array_add (summary->devices, device_new ("GPU_4_bfc", i < 2 ? 300 << 20 : 100 << 20, capacity));
      g_ptr_array_add (summaries, summary);
    }
  run = tm_run_loader_new_for_summaries (source, g_steal_pointer (&summaries));
  tm_session_set_run (session, run);
  model = tm_run_overview_get_model (overview);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(TmRunRow) row = g_list_model_get_item (model, i);

      g_test_message ("%s %s%s", tm_run_row_get_host (row), tm_run_row_get_device (row)->memory_id,
                      tm_run_row_get_busiest (row) ? " (busiest)" : "");
      g_assert_cmpstr (tm_run_row_get_host (row), ==, i < 2 ? "worker-0" : "worker-1");
      g_assert_cmpstr (tm_run_row_get_device (row)->memory_id, ==, i % 2 == 0 ? "GPU_4_bfc" : "GPU_6_bfc");
      g_assert_true (tm_run_row_get_busiest (row) == (i == 0));
    }
  g_assert_true (g_str_has_prefix (tm_run_overview_get_headline (overview), "worker-0 · GPU_4_bfc"));
  g_object_unref (overview);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  gtk_test_init (&argc, &argv, NULL);

  fixture_dir = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);
  run_dir = g_build_filename (fixture_dir, "run", NULL);
  g_assert_cmpint (g_mkdir (run_dir, 0700), ==, 0);
  host_paths = tm_fixture_write_run (run_dir, N_HOSTS, CORRUPT_HOST, NO_DATA_HOST);

  g_test_add_func ("/run-overview/folder", test_folder);
  g_test_add_func ("/run-overview/summaries", test_summaries);
  g_test_add_func ("/run-overview/sparkline-scale", test_sparkline_scale);
  g_test_add_func ("/run-overview/tied-peaks", test_tied_peaks);

  status = g_test_run ();
  tm_fixture_remove (fixture_dir);
  g_free (fixture_dir);
  g_free (run_dir);
  g_strfreev (host_paths);
  return status;
}
