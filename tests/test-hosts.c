/* test-hosts.c — multi-host run directories in one window: the host
 * dropdown, loading a host when first shown, keeping it, errors per host,
 * under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The run directory is written with tm-fixture-writer:
 *   worker-1.xplane.pb   GPU_0_bfc (14.5 MiB peak), GPU_1_bfc (96 MiB, the busiest)
 *   worker-2.xplane.pb   GPU_0_bfc (3 MiB), gpu_host_bfc (48 MiB, the busiest)
 *   worker-10.xplane.pb  corrupt: a length that runs past the end
 *   events.trace.json.gz not a profile (ignored)
 * Hosts sort by name with numbers in order: worker-1, worker-2, worker-10.
 */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "tm-allocation-row.h"
#include "tm-application.h"
#include "tm-breakdown-view.h"
#include "tm-format.h"
#include "tm-summary-cards.h"
#include "tm-window.h"
#include "tm-gui-test-util.h"

#include "tm-fixture-writer.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)
#define KIB (G_GINT64_CONSTANT (1) << 10)
#define GIB (G_GINT64_CONSTANT (1) << 30)

static char *fixture_dir;
static char *log_dir;        /* log_dir/plugins/profile/{older run, RUN_NAME} */
static char *run_dir;        /* the newest run, with the three hosts */
static char *worker1_path;
static char *worker2_path;
static char *worker10_path;
static char *single_run_dir; /* a run with one host (worker-1's profile) */

#define RUN_NAME "2025_02_03_04_05_06"

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */

typedef struct
{
  const char *op;
  gint64      bytes;
} Alloc;

/* Allocations in time order, nothing freed: the peak is the last event and
 * every allocation is live then. */
static void
add_allocations (TmFixtureLine *line,
                 const char    *allocator,
                 gint64         t0,
                 guint64        addr0,
                 const Alloc   *allocs,
                 guint          n_allocs)
{
  gint64 heap = 0;

  for (guint i = 0; i < n_allocs; i++)
    {
      TmFixtureMemory memory = {
        .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
        .allocator_name = allocator,
        .region_type = "output",
        .data_type = 1,
        .shape = "[4,4]",
        .has_group_id = TRUE,
        .group_id = 0,
        .fragmentation = 0.1,
      };

      heap += allocs[i].bytes;
      memory.bytes_allocated = heap;
      memory.bytes_available = GIB - heap;
      memory.peak_bytes_in_use = heap;
      memory.requested_bytes = allocs[i].bytes;
      memory.allocation_bytes = allocs[i].bytes;
      memory.addr = addr0 + (guint64) i * 0x100000;
      memory.tf_op = allocs[i].op;

      tm_fixture_line_add_memory_event (line, TRUE, t0 + (gint64) i * 1000000, &memory);
    }
}

static const Alloc w1_gpu0[] = {
  { "alpha/Conv2D", 8 * MIB },
  { "beta/MatMul", 4 * MIB },
  { "gamma/Relu", 2 * MIB },
  { "delta/BiasAdd", 512 * KIB },
};
static const Alloc w1_gpu1[] = {
  { "embedding/GatherV2", 64 * MIB },
  { "attention/Softmax", 32 * MIB },
};
static const Alloc w2_gpu0[] = {
  { "w2/Conv2D", 2 * MIB },
  { "w2/Relu", 1 * MIB },
};
static const Alloc w2_host[] = {
  { "input/IteratorGetNext", 40 * MIB },
  { "input/Cast", 8 * MIB },
};

static char *
write_host (const char  *dir,
            const char  *basename,
            const Alloc *a,
            guint        n_a,
            const char  *allocator_a,
            const Alloc *b,
            guint        n_b,
            const char  *allocator_b)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
  TmFixtureLine *line = tm_fixture_plane_add_line (host, "Memory", 0);
  g_autoptr(GError) error = NULL;
  char *path;

  add_allocations (line, allocator_a, 1000000, 0x7f0000000000, a, n_a);
  add_allocations (line, allocator_b, 2000000000, 0x7e0000000000, b, n_b);
  path = tm_fixture_space_write (space, dir, basename, &error);
  g_assert_no_error (error);

  return path;
}

static void
write_fixtures (void)
{
  static const guint8 corrupt[] = { 0x0a, 0xff, 0xff, 0xff, 0xff, 0x07, 0x0a, 0x02, 0x08, 0x01 };
  g_autoptr(GBytes) corrupt_bytes = g_bytes_new_static (corrupt, sizeof corrupt);
  g_autoptr(GError) error = NULL;
  g_autofree char *older_run = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *single = NULL;
  g_autofree char *older_host = NULL;

  fixture_dir = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);

  log_dir = g_build_filename (fixture_dir, "logs", NULL);
  run_dir = g_build_filename (log_dir, "plugins", "profile", RUN_NAME, NULL);
  older_run = g_build_filename (log_dir, "plugins", "profile", "2024_12_31_23_59_59", NULL);
  single_run_dir = g_build_filename (fixture_dir, "single-run", NULL);
  g_assert_cmpint (g_mkdir_with_parents (run_dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (older_run, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (single_run_dir, 0755), ==, 0);

  worker1_path = write_host (run_dir, "worker-1.xplane.pb",
                             w1_gpu0, G_N_ELEMENTS (w1_gpu0), "GPU_0_bfc",
                             w1_gpu1, G_N_ELEMENTS (w1_gpu1), "GPU_1_bfc");
  worker2_path = write_host (run_dir, "worker-2.xplane.pb",
                             w2_gpu0, G_N_ELEMENTS (w2_gpu0), "GPU_0_bfc",
                             w2_host, G_N_ELEMENTS (w2_host), "gpu_host_bfc");
  worker10_path = tm_fixture_write_bytes (corrupt_bytes, run_dir, "worker-10.xplane.pb", &error);
  g_assert_no_error (error);
  trace = tm_fixture_write_bytes (corrupt_bytes, run_dir, "events.trace.json.gz", &error);
  g_assert_no_error (error);

  /* An older run, which opening the log directory must not pick. */
  older_host = write_host (older_run, "old.xplane.pb",
                           w2_gpu0, G_N_ELEMENTS (w2_gpu0), "GPU_0_bfc",
                           w2_host, G_N_ELEMENTS (w2_host), "gpu_host_bfc");
  single = write_host (single_run_dir, "only-host.xplane.pb",
                       w1_gpu0, G_N_ELEMENTS (w1_gpu0), "GPU_0_bfc",
                       w1_gpu1, G_N_ELEMENTS (w1_gpu1), "GPU_1_bfc");
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static void
wait_loaded (TmWindow *window)
{
  tm_test_iterate_until (tm_test_not_loading, window);
  tm_test_iterate_for (30);
}

static const char *
label_text (TmWindow   *window,
            const char *name)
{
  return gtk_label_get_label (GTK_LABEL (tm_test_template_child (window, TM_TYPE_WINDOW, name)));
}

/* A run opens on its overview; these tests go on in its first host, as a
 * click on its row does. */
static void
leave_overview (TmWindow *window)
{
  g_assert_true (tm_window_get_showing_overview (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (tm_test_template_child (window, TM_TYPE_WINDOW, "main_stack"))), ==, "run");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (GTK_DROP_DOWN (tm_test_find_widget (window, "host_dropdown")))));
  tm_session_open_host (tm_window_get_session (window), 0, NULL);
  g_assert_false (tm_window_get_showing_overview (window));
}

/* Opens the run with its files in an order other than the sorted one. */
static void
open_run (TmWindow *window)
{
  g_autoptr(GFile) dir = g_file_new_for_path (run_dir);
  g_autoptr(GFile) w1 = g_file_new_for_path (worker1_path);
  g_autoptr(GFile) w2 = g_file_new_for_path (worker2_path);
  g_autoptr(GFile) w10 = g_file_new_for_path (worker10_path);

  tm_window_open_run (window, dir, (GFile *[]) { w10, w2, w1 }, 3);

  leave_overview (window);
}

static const char *
host_item (TmWindow *window,
           guint     index)
{
  GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (tm_test_find_widget (window, "host_dropdown")));

  return gtk_string_list_get_string (GTK_STRING_LIST (model), index);
}

/* "worker-1 · 96.0 MiB": the host's name and its busiest memory id's peak. */
static void
assert_host_item (TmWindow   *window,
                  guint       index,
                  const char *name,
                  gint64      peak)
{
  g_autofree char *bytes = tm_format_bytes (peak);
  g_autofree char *expected = g_strdup_printf ("%s · %s", name, bytes);

  g_assert_cmpstr (host_item (window, index), ==, expected);
}

static guint
n_host_items (TmWindow *window)
{
  return g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (tm_test_find_widget (window, "host_dropdown"))));
}

static void
assert_memory_ids (TmWindow   *window,
                   const char *first,
                   const char *second)
{
  GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (tm_test_find_widget (window, "memory_dropdown")));

  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  g_assert_true (g_str_has_prefix (gtk_string_list_get_string (GTK_STRING_LIST (model), 0), first));
  g_assert_true (g_str_has_prefix (gtk_string_list_get_string (GTK_STRING_LIST (model), 1), second));
}

static const char *
memory_id (TmWindow *window)
{
  TmMemoryStore *store = tm_window_get_memory_store (window);

  g_assert_nonnull (store);
  return tm_memory_store_get_id (store);
}

static void
assert_peak (TmWindow *window,
             gint64    bytes)
{
  TmSummaryCards *cards = TM_SUMMARY_CARDS (tm_test_find_widget (window, "summary_cards"));
  g_autofree char *text = tm_format_bytes (bytes);

  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (tm_test_template_child (cards, TM_TYPE_SUMMARY_CARDS, "peak_value"))), ==, text);
}

static void
assert_first_row (TmWindow   *window,
                  const char *op)
{
  GListModel *model = tm_breakdown_view_get_model (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view")));
  g_autoptr(TmAllocationRow) row = g_list_model_get_item (model, 0);

  g_assert_nonnull (row);
  g_assert_cmpstr (tm_allocation_row_get_op_name (row), ==, op);
}

static gboolean
action_enabled (TmWindow   *window,
                const char *name)
{
  return g_action_group_get_action_enabled (G_ACTION_GROUP (window), name);
}

static void
assert_host_shown (TmWindow   *window,
                   guint       index,
                   const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *basename = g_file_get_basename (file);

  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (tm_test_find_widget (window, "host_dropdown"))), ==, index);
  g_assert_true (g_file_equal (tm_window_get_file (window), file));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, RUN_NAME);
  g_assert_cmpstr (label_text (window, "title_label"), ==, RUN_NAME);
  g_assert_cmpstr (label_text (window, "subtitle_label"), ==, basename);
  g_assert_true (gtk_widget_get_visible (tm_test_template_child (window, TM_TYPE_WINDOW, "subtitle_label")));
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static char *
core_error (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_profile_load (file, NULL, NULL, NULL, &error);

  g_assert_null (profile);
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

static void
test_run_window (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkDropDown *hosts = GTK_DROP_DOWN (tm_test_find_widget (window, "host_dropdown"));
  g_autoptr(GFile) dir = g_file_new_for_path (run_dir);
  g_autofree char *corrupt_message = core_error (worker10_path);
  TmProfile *worker1_profile;

  /* Hidden while empty. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (hosts)));

  /* Hosts listed by name, numbers in order; the first one loads. */
  open_run (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_LOADING);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (hosts)));
  g_assert_cmpuint (n_host_items (window), ==, 3);
  g_assert_cmpstr (host_item (window, 0), ==, "worker-1");
  g_assert_cmpstr (host_item (window, 1), ==, "worker-2");
  g_assert_cmpstr (host_item (window, 2), ==, "worker-10");
  g_assert_cmpuint (tm_window_get_n_hosts (window), ==, 3);
  g_assert_cmpstr (tm_window_get_host_name (window, 2), ==, "worker-10");
  g_assert_true (g_file_equal (tm_window_get_run_directory (window), dir));
  wait_loaded (window);

  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  assert_host_shown (window, 0, worker1_path);
  assert_memory_ids (window, "GPU_0_bfc", "GPU_1_bfc");
  g_assert_cmpstr (memory_id (window), ==, "GPU_1_bfc");
  assert_peak (window, 96 * MIB);
  assert_first_row (window, "embedding/GatherV2");
  /* A host shows its peak once it has been analysed here or by the run
   * overview (test_host_items has more), the others only their names. */
  assert_host_item (window, 0, "worker-1", 96 * MIB);
  g_assert_true (g_str_has_prefix (host_item (window, 1), "worker-2"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (GTK_DROP_DOWN (tm_test_find_widget (window, "memory_dropdown")))));
  g_assert_false (action_enabled (window, "previous-host"));
  g_assert_true (action_enabled (window, "next-host"));
  worker1_profile = tm_window_get_profile (window);

  /* Another host loads when first shown; it lacks GPU_1_bfc, so its
   * busiest memory id is shown. */
  gtk_drop_down_set_selected (hosts, 1);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_LOADING);
  wait_loaded (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  assert_host_shown (window, 1, worker2_path);
  assert_memory_ids (window, "GPU_0_bfc", "gpu_host_bfc");
  g_assert_cmpstr (memory_id (window), ==, "gpu_host_bfc");
  assert_peak (window, 48 * MIB);
  assert_first_row (window, "input/IteratorGetNext");
  assert_host_item (window, 1, "worker-2", 48 * MIB);
  assert_host_item (window, 0, "worker-1", 96 * MIB);
  g_assert_true (action_enabled (window, "previous-host"));
  g_assert_true (action_enabled (window, "next-host"));

  /* Back to the first host: at once, the same profile, and the memory id
   * picked here (GPU_0_bfc) stays since that host has it too. */
  g_assert_true (tm_window_select_memory_id (window, "GPU_0_bfc"));
  assert_peak (window, 3 * MIB);
  gtk_drop_down_set_selected (hosts, 0);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_true (tm_window_get_profile (window) == worker1_profile);
  assert_host_shown (window, 0, worker1_path);
  g_assert_cmpstr (memory_id (window), ==, "GPU_0_bfc");
  assert_peak (window, 14 * MIB + 512 * KIB);
  assert_first_row (window, "alpha/Conv2D");

  /* The corrupt host shows its error; the host dropdown stays. */
  g_assert_true (tm_window_select_host (window, "worker-10"));
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_LOADING);
  wait_loaded (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);
  assert_host_shown (window, 2, worker10_path);
  g_assert_cmpstr (tm_window_get_error_message (window), ==, corrupt_message);
  g_assert_cmpstr (label_text (window, "error_message"), ==, corrupt_message);
  /* No peak made up for a host that failed: it says so. */
  g_assert_cmpstr (host_item (window, 2), ==, "worker-10 · could not be read");
  g_assert_null (tm_window_get_memory_store (window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (GTK_DROP_DOWN (tm_test_find_widget (window, "memory_dropdown")))));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (hosts)));
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (hosts)));
  g_assert_true (action_enabled (window, "previous-host"));
  g_assert_false (action_enabled (window, "next-host"));

  /* Alt+Page Up: back to worker-2 at once, with the memory id picked
   * before the error. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "previous-host", NULL);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  assert_host_shown (window, 1, worker2_path);
  g_assert_cmpstr (memory_id (window), ==, "GPU_0_bfc");
  assert_peak (window, 3 * MIB);
  g_assert_null (tm_window_get_error_message (window));

  /* Alt+Page Down: the kept error, at once. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "next-host", NULL);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);
  g_assert_cmpstr (tm_window_get_error_message (window), ==, corrupt_message);
  g_action_group_activate_action (G_ACTION_GROUP (window), "next-host", NULL);
  assert_host_shown (window, 2, worker10_path);

  /* Try Again reloads this host only. */
  tm_window_reload (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_LOADING);
  wait_loaded (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);
  assert_host_shown (window, 2, worker10_path);

  /* Reloading a host loads it again and keeps the memory id. */
  gtk_drop_down_set_selected (hosts, 0);
  g_assert_true (tm_window_get_profile (window) == worker1_profile);
  tm_window_reload (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_LOADING);
  wait_loaded (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_true (tm_window_get_profile (window) != worker1_profile);
  assert_host_shown (window, 0, worker1_path);
  g_assert_cmpstr (memory_id (window), ==, "GPU_0_bfc");

  tm_test_destroy_window (window);
}

static void
test_cancel_host (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkDropDown *hosts = GTK_DROP_DOWN (tm_test_find_widget (window, "host_dropdown"));
  GtkWidget *cancel = tm_test_template_child (window, TM_TYPE_WINDOW, "cancel_button");
  g_autoptr(GFile) single = g_file_new_for_path (worker2_path);

  open_run (window);
  wait_loaded (window);
  assert_host_shown (window, 0, worker1_path);

  /* Cancelling a host's load goes back to the host shown before. */
  gtk_drop_down_set_selected (hosts, 1);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_LOADING);
  g_signal_emit_by_name (cancel, "clicked");
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  assert_host_shown (window, 0, worker1_path);
  tm_test_iterate_for (300);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  assert_host_shown (window, 0, worker1_path);
  g_assert_cmpstr (memory_id (window), ==, "GPU_1_bfc");

  /* The cancelled host loads when shown again. */
  gtk_drop_down_set_selected (hosts, 1);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_LOADING);
  wait_loaded (window);
  assert_host_shown (window, 1, worker2_path);

  /* Opening a single file in the run's window, then cancelling, brings
   * the run back. */
  tm_window_open (window, single);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (hosts)));
  g_assert_null (tm_window_get_run_directory (window));
  g_signal_emit_by_name (cancel, "clicked");
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (hosts)));
  g_assert_cmpuint (n_host_items (window), ==, 3);
  assert_host_shown (window, 1, worker2_path);

  tm_test_destroy_window (window);
}

static void
test_single_file (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkDropDown *hosts = GTK_DROP_DOWN (tm_test_find_widget (window, "host_dropdown"));
  g_autoptr(GFile) file = g_file_new_for_path (worker2_path);

  /* A single file: no host dropdown, the file name as title. */
  tm_window_open (window, file);
  wait_loaded (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (hosts)));
  g_assert_cmpuint (tm_window_get_n_hosts (window), ==, 0);
  g_assert_null (tm_window_get_run_directory (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "worker-2.xplane.pb");
  g_assert_cmpstr (label_text (window, "title_label"), ==, "worker-2.xplane.pb");
  g_assert_false (action_enabled (window, "next-host"));
  g_assert_false (action_enabled (window, "previous-host"));

  /* A run, then a single file again: the host dropdown goes. */
  open_run (window);
  wait_loaded (window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (hosts)));
  tm_window_open (window, file);
  wait_loaded (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (hosts)));
  g_assert_cmpuint (n_host_items (window), ==, 0);
  g_assert_null (tm_window_get_run_directory (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "worker-2.xplane.pb");
  /* A new file starts with its busiest memory id, as before. */
  g_assert_cmpstr (memory_id (window), ==, "gpu_host_bfc");

  tm_test_destroy_window (window);
}

static void
test_application (void)
{
  g_autoptr(TmApplication) app = tm_application_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) logs = g_file_new_for_path (log_dir);
  g_autoptr(GFile) run = g_file_new_for_path (run_dir);
  g_autoptr(GFile) single_run = g_file_new_for_path (single_run_dir);
  g_auto(GStrv) accels = NULL;
  TmWindow *window;
  TmWindow *other;

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  /* A log directory: one window for its newest run, all hosts listed. */
  g_application_open (G_APPLICATION (app), &logs, 1, "");
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 1);
  window = TM_WINDOW (gtk_application_get_windows (GTK_APPLICATION (app))->data);
  g_assert_true (g_file_equal (tm_window_get_run_directory (window), run));
  g_assert_cmpuint (n_host_items (window), ==, 3);
  leave_overview (window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (GTK_DROP_DOWN (tm_test_find_widget (window, "host_dropdown")))));
  assert_host_shown (window, 0, worker1_path);

  /* The run directory itself: the same window. */
  tm_application_open_files (app, &run, 1, NULL);
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 1);

  /* A run with one host opens it as a single file. */
  tm_application_open_files (app, &single_run, 1, NULL);
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 2);
  other = TM_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_true (other != window);
  g_assert_null (tm_window_get_run_directory (other));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (GTK_DROP_DOWN (tm_test_find_widget (other, "host_dropdown")))));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (other)), ==, "only-host.xplane.pb");

  /* A run dropped on (or chosen in) a window opens in it. */
  tm_application_open_files (app, &run, 1, GTK_WINDOW (other));
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 2);
  g_assert_true (g_file_equal (tm_window_get_run_directory (other), run));
  leave_overview (other);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (GTK_DROP_DOWN (tm_test_find_widget (other, "host_dropdown")))));

  /* Alt+Page Up / Alt+Page Down switch hosts. */
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.previous-host");
  g_assert_cmpstr (accels[0], ==, "<Alt>Page_Up");
  g_clear_pointer (&accels, g_strfreev);
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.next-host");
  g_assert_cmpstr (accels[0], ==, "<Alt>Page_Down");
  /* Open Run Folder: a folder chooser, which opens like a drop. */
  g_clear_pointer (&accels, g_strfreev);
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.open-folder");
  g_assert_cmpstr (accels[0], ==, "<Shift><Control>o");
  g_assert_true (action_enabled (other, "open-folder"));

  tm_test_destroy_all_windows (GTK_APPLICATION (app));
}

/* Everything a cancelled load would have changed comes back: the run, its
 * hosts, the file and what is known of it on disk, the profile, the memory
 * id, the title; and an error shown before stays shown. */
static void
test_cancel_restores (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkWidget *cancel = tm_test_template_child (window, TM_TYPE_WINDOW, "cancel_button");
  g_autoptr(GFile) dir = g_file_new_for_path (run_dir);
  g_autoptr(GFile) single = g_file_new_for_path (worker2_path);
  g_autofree char *corrupt_message = core_error (worker10_path);
  TmProfile *profile;
  guint state_notified = 0;

  open_run (window);
  wait_loaded (window);
  g_assert_true (tm_window_select_memory_id (window, "GPU_0_bfc"));
  profile = tm_window_get_profile (window);
  g_assert_false (tm_window_get_file_changed (window));
  g_signal_connect (window, "notify::state", G_CALLBACK (count_notify_cb), &state_notified);

  /* A single file (another size on disk) starts loading, and is
   * cancelled. */
  tm_window_open (window, single);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_LOADING);
  g_assert_null (tm_window_get_run_directory (window));
  g_assert_cmpuint (tm_window_get_n_hosts (window), ==, 0);
  g_assert_cmpuint (state_notified, ==, 1);
  g_signal_emit_by_name (cancel, "clicked");
  g_assert_cmpuint (state_notified, ==, 2);

  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_true (g_file_equal (tm_window_get_run_directory (window), dir));
  g_assert_cmpuint (tm_window_get_n_hosts (window), ==, 3);
  g_assert_cmpuint (n_host_items (window), ==, 3);
  assert_host_shown (window, 0, worker1_path);
  g_assert_true (tm_window_get_profile (window) == profile);
  g_assert_cmpstr (memory_id (window), ==, "GPU_0_bfc");
  assert_peak (window, 14 * MIB + 512 * KIB);
  g_assert_false (tm_window_get_file_changed (window));
  g_assert_false (action_enabled (window, "previous-host"));
  g_assert_true (action_enabled (window, "next-host"));

  /* From an error: the error comes back, with its message. */
  g_assert_true (tm_window_select_host (window, "worker-10"));
  wait_loaded (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);
  tm_window_reload (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_LOADING);
  g_assert_null (tm_window_get_error_message (window));
  g_signal_emit_by_name (cancel, "clicked");
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);
  assert_host_shown (window, 2, worker10_path);
  g_assert_cmpstr (tm_window_get_error_message (window), ==, corrupt_message);
  g_assert_cmpstr (label_text (window, "error_message"), ==, corrupt_message);
  tm_test_iterate_for (300);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);

  tm_test_destroy_window (window);
}

/* A host that fails to load shows its error; the hosts loaded before keep
 * their profiles and show again at once, and it fails alone on reload. */
static void
test_failed_host (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkDropDown *hosts = GTK_DROP_DOWN (tm_test_find_widget (window, "host_dropdown"));
  TmProfile *worker1_profile;
  TmProfile *worker2_profile;

  open_run (window);
  wait_loaded (window);
  worker1_profile = tm_window_get_profile (window);
  gtk_drop_down_set_selected (hosts, 1);
  wait_loaded (window);
  worker2_profile = tm_window_get_profile (window);
  g_assert_true (worker2_profile != worker1_profile);

  gtk_drop_down_set_selected (hosts, 2);
  wait_loaded (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);
  g_assert_null (tm_window_get_profile (window));
  g_assert_cmpuint (tm_window_get_n_hosts (window), ==, 3);

  tm_window_reload (window);
  wait_loaded (window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);

  gtk_drop_down_set_selected (hosts, 0);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_true (tm_window_get_profile (window) == worker1_profile);
  assert_host_shown (window, 0, worker1_path);
  gtk_drop_down_set_selected (hosts, 1);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_true (tm_window_get_profile (window) == worker2_profile);
  assert_host_shown (window, 1, worker2_path);

  tm_test_destroy_window (window);
}

static gboolean
run_read (gpointer data)
{
  TmRunLoader *run = tm_session_get_run (tm_window_get_session (data));

  return run != NULL && tm_run_loader_get_n_done (run) == tm_run_loader_get_n_hosts (run);
}

static GtkWidget *
find_toplevel (const char *title)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (gtk_widget_get_visible (l->data) && g_strcmp0 (gtk_window_get_title (l->data), title) == 0)
      return l->data;
  return NULL;
}

/* What the run overview read of every host shows in the host dropdown
 * before a host is opened: its peak, or that it could not be read; a host
 * that could not be read is no baseline to compare with. */
static void
test_host_items (void)
{
  TmWindow *window = tm_test_new_window ();
  g_autoptr(GString) offered = g_string_new (NULL);
  GtkWidget *dialog;

  open_run (window);
  wait_loaded (window);
  tm_test_iterate_until (run_read, window);
  tm_test_iterate_for (30);
  assert_host_item (window, 0, "worker-1", 96 * MIB);
  assert_host_item (window, 1, "worker-2", 48 * MIB);
  g_assert_cmpstr (host_item (window, 2), ==, "worker-10 · could not be read");

  g_action_group_activate_action (G_ACTION_GROUP (window), "compare-with", NULL);
  tm_test_iterate_for (30);
  dialog = find_toplevel ("Compare With");
  g_assert_nonnull (dialog);
  tm_test_collect_label_text (dialog, offered);
  g_assert_nonnull (strstr (offered->str, "worker-2\n"));
  g_assert_null (strstr (offered->str, "worker-10"));
  gtk_window_destroy (GTK_WINDOW (dialog));

  tm_test_destroy_window (window);
}

static GtkDropTarget *
drop_target (TmWindow *window)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }

  g_assert_not_reached ();
}

/* The command line and a drop open a log directory the same way: its
 * folders are listed in a worker (the application is busy meanwhile),
 * then its newest run opens in one window. */
static void
test_open_path (void)
{
  g_autoptr(TmApplication) app = tm_application_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) logs = g_file_new_for_path (log_dir);
  g_autoptr(GFile) run = g_file_new_for_path (run_dir);
  g_autoptr(GFile) single = g_file_new_for_path (worker2_path);
  GValue value = G_VALUE_INIT;
  TmWindow *window;
  gboolean dropped = FALSE;

  /* Another id than test_application's: GTK keeps that one exported. */
  g_application_set_application_id (G_APPLICATION (app), "io.github.tidemark.Tidemark.TestOpenPath");
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_application_get_is_registered (G_APPLICATION (app)));

  /* The command line: no window until the folder has been listed. */
  g_application_open (G_APPLICATION (app), &logs, 1, "");
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 0);
  g_assert_true (g_application_get_is_busy (G_APPLICATION (app)));
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_false (g_application_get_is_busy (G_APPLICATION (app)));
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 1);
  window = TM_WINDOW (gtk_application_get_windows (GTK_APPLICATION (app))->data);
  g_assert_true (g_file_equal (tm_window_get_run_directory (window), run));
  leave_overview (window);
  assert_host_shown (window, 0, worker1_path);

  /* A single file dropped on the window replaces the run in it. */
  g_value_init (&value, G_TYPE_FILE);
  g_value_set_object (&value, single);
  g_signal_emit_by_name (drop_target (window), "drop", &value, 10.0, 10.0, &dropped);
  g_value_unset (&value);
  g_assert_true (dropped);
  g_assert_true (g_application_get_is_busy (G_APPLICATION (app)));
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 1);
  g_assert_null (tm_window_get_run_directory (window));
  g_assert_true (g_file_equal (tm_window_get_file (window), single));

  /* The log directory dropped on it: listed the same way, into it. */
  dropped = FALSE;
  g_value_init (&value, G_TYPE_FILE);
  g_value_set_object (&value, logs);
  g_signal_emit_by_name (drop_target (window), "drop", &value, 10.0, 10.0, &dropped);
  g_value_unset (&value);
  g_assert_true (dropped);
  /* Nothing changes until the folder has been listed. */
  g_assert_true (g_application_get_is_busy (G_APPLICATION (app)));
  g_assert_null (tm_window_get_run_directory (window));
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 1);
  g_assert_true (g_file_equal (tm_window_get_run_directory (window), run));
  g_assert_cmpuint (tm_window_get_n_hosts (window), ==, 3);
  leave_overview (window);
  assert_host_shown (window, 0, worker1_path);

  tm_test_destroy_all_windows (GTK_APPLICATION (app));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  data_home = tm_test_gui_init (&argc, &argv);

  write_fixtures ();

  g_test_add_func ("/hosts/run-window", test_run_window);
  g_test_add_func ("/hosts/cancel", test_cancel_host);
  g_test_add_func ("/hosts/single-file", test_single_file);
  g_test_add_func ("/hosts/application", test_application);
  g_test_add_func ("/hosts/cancel-restores", test_cancel_restores);
  g_test_add_func ("/hosts/failed-host", test_failed_host);
  g_test_add_func ("/hosts/host-items", test_host_items);
  g_test_add_func ("/hosts/open-path", test_open_path);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);

  return status;
}
