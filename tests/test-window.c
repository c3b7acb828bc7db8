/* test-window.c — the window, its states, the memory-ID dropdown, the
 * summary cards and the breakdown table, the room the charts get,
 * 800 × 600, Thai, the zoom keys and the focus ring, under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fixtures are written with tm-fixture-writer; the real GPU profile and the
 * corrupt file come from $TM_REAL_PROFILES (skipped when unset, failing
 * when set and a file is missing). Expected numbers for the real profile
 * are read from expected/tf_gpu_multi_worker.summary.json.
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include "tm-allocations-query.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "tm-allocation-row.h"
#include "tm-allocations-view.h"
#include "tm-application.h"
#include "tm-breakdown-view.h"
#include "tm-error.h"
#include "tm-format.h"
#include "tm-profile-private.h"
#include "tm-memory-map.h"
#include "tm-scope-view.h"
#include "tm-summary-cards.h"
#include "tm-test-util.h"
#include "tm-timeline.h"
#include "tm-timeline-private.h"
#include "tm-window.h"
#include "tm-window-compare.h"
#include "tm-gui-test-util.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)
#define KIB (G_GINT64_CONSTANT (1) << 10)
#define GIB (G_GINT64_CONSTANT (1) << 30)

/* Fixtures, written once in main() */
static char *fixture_dir;
static char *two_ids_path;       /* GPU_0_bfc (14.5 MiB peak), GPU_1_bfc (96 MiB, the busiest) */
static char *xprof_example_path; /* the fixture writer's XProf example: every row < 1 MiB */
static char *many_rows_path;     /* GPU_0_bfc with MANY_ROWS live allocations at the peak */
static char *no_events_path;     /* a host plane without memory events */
static char *no_host_path;       /* no /host:CPU plane at all */
static char *corrupt_path;       /* a length that runs past the end */
static char *tour_path;          /* tm_fixture_space_new_tour (): long names, HLO modules, a quiet stretch */

#define MANY_ROWS 20000

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */

typedef struct
{
  const char *op;
  gint64      bytes;
  const char *region;
  gint64      data_type;
  const char *shape;
} Alloc;

/* One allocator's allocations, in time order from t0, each 1 µs apart;
 * nothing is freed, so every allocation is live at the peak (the last
 * event). */
static void
add_allocations (TmFixtureLine *line,
                 const char    *allocator,
                 gint64         capacity,
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
      };

      heap += allocs[i].bytes;
      memory.bytes_reserved = 0;
      memory.bytes_allocated = heap;
      memory.bytes_available = capacity - heap;
      memory.fragmentation = 0.25;
      memory.peak_bytes_in_use = heap;
      memory.requested_bytes = allocs[i].bytes;
      memory.allocation_bytes = allocs[i].bytes;
      memory.addr = addr0 + (guint64) i * 0x100000;
      memory.tf_op = allocs[i].op;
      memory.has_group_id = TRUE;
      memory.group_id = 0;
      memory.region_type = allocs[i].region;
      memory.data_type = allocs[i].data_type;
      memory.shape = allocs[i].shape;

      tm_fixture_line_add_memory_event (line, TRUE, t0 + (gint64) i * 1000000, &memory);
    }
}

static const Alloc gpu0_allocs[] = {
  { "alpha/Conv2D", 8 * MIB, "output", 1, "[8,64,64,64]" },
  { "beta/MatMul", 4 * MIB, "temp", 19, "[1024,1024]" },
  { "gamma/Relu", 2 * MIB, "output", 1, "[8,64,32,32]" },
  { "delta/BiasAdd", 512 * KIB, "output", 1, "[128,1024]" },
};

static const Alloc gpu1_allocs[] = {
  { "embedding/GatherV2", 64 * MIB, "output", 19, "[30522,1024]" },
  { "attention/Softmax", 32 * MIB, "temp", 19, "[4,16,384,384]" },
};

static char *
write_space (TmFixtureSpace *space,
             const char     *basename)
{
  g_autoptr(GError) error = NULL;
  char *path = tm_fixture_space_write (space, fixture_dir, basename, &error);

  g_assert_no_error (error);
  return path;
}

static void
write_fixtures (void)
{
  g_autoptr(GError) error = NULL;

  fixture_dir = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);

  {
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
    TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
    TmFixtureLine *line = tm_fixture_plane_add_line (host, "Memory", 0);

    add_allocations (line, "GPU_0_bfc", GIB, 1000000, 0x7f0000000000,
                     gpu0_allocs, G_N_ELEMENTS (gpu0_allocs));
    add_allocations (line, "GPU_1_bfc", 2 * GIB, 2000000000, 0x7e0000000000,
                     gpu1_allocs, G_N_ELEMENTS (gpu1_allocs));
    two_ids_path = write_space (space, "two-ids.xplane.pb");
  }

  {
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();

    xprof_example_path = write_space (space, "xprof-example.xplane.pb");
  }

  {
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
    TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
    TmFixtureLine *line = tm_fixture_plane_add_line (host, "Memory", 0);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
    g_autofree Alloc *allocs = g_new0 (Alloc, MANY_ROWS);

    for (guint i = 0; i < MANY_ROWS; i++)
      {
        char *name = g_strdup_printf ("model/layer_%05u/op", i);

        g_ptr_array_add (names, name);
        allocs[i].op = name;
        /* Even rows are 1 MiB or more, odd rows under 1 MiB. */
        allocs[i].bytes = (i % 2 == 0) ? MIB + (gint64) i * 256 : 1024 + (gint64) i;
        allocs[i].region = (i % 3 == 0) ? "temp" : "output";
        allocs[i].data_type = 1 + (i % 3);
        allocs[i].shape = "[16,16]";
      }
    add_allocations (line, "GPU_0_bfc", 64 * GIB, 1000000, 0x100000000,
                     allocs, MANY_ROWS);
    many_rows_path = write_space (space, "many-rows.xplane.pb");
  }

  {
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
    TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
    TmFixtureLine *line = tm_fixture_plane_add_line (host, "python", 0);
    TmFixtureEvent *event = tm_fixture_line_add_event (line, "train_step", 1000, 5000);

    tm_fixture_event_add_int64 (event, "group_id", 1);
    no_events_path = write_space (space, "no-events.xplane.pb");
  }

  {
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
    TmFixturePlane *gpu = tm_fixture_space_add_plane (space, "/device:GPU:0");
    TmFixtureLine *line = tm_fixture_plane_add_line (gpu, "Stream #1", 0);

    tm_fixture_line_add_event (line, "volta_sgemm", 1000, 5000);
    no_host_path = write_space (space, "no-host.xplane.pb");
  }

  {
    /* XSpace field 1 (planes), length 0x7fffffff: runs past the end. */
    static const guint8 corrupt[] = { 0x0a, 0xff, 0xff, 0xff, 0xff, 0x07, 0x0a, 0x02, 0x08, 0x01 };
    g_autoptr(GBytes) bytes = g_bytes_new_static (corrupt, sizeof corrupt);

    corrupt_path = tm_fixture_write_bytes (bytes, fixture_dir, "corrupt.xplane.pb", &error);
    g_assert_no_error (error);
  }

  {
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_tour ();

    tour_path = write_space (space, "tour.xplane.pb");
  }
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* Shown: the window has left its loading page (with the busiest memory id
 * when the file has one; docs/ui.md, "The busiest memory id first"). */
static void
open_and_wait_shown (TmWindow   *window,
                     const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tm_window_open (window, file);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_LOADING);
  tm_test_iterate_until (tm_test_not_loading, window);
  tm_test_iterate_for (50);
}

static gboolean
every_memory_id_ready (gpointer data)
{
  TmWindow *window = data;
  TmProfile *profile = tm_window_get_profile (window);

  return profile == NULL || tm_profile_is_complete (profile);
}

/* Shown, and every memory id finished and analysed, so that the dropdown
 * no longer says "analysing…" of any (on a loaded machine the loader's
 * thread can finish the others well after the first frame). */
static void
open_and_wait (TmWindow   *window,
               const char *path)
{
  open_and_wait_shown (window, path);
  tm_test_iterate_until (every_memory_id_ready, window);
  tm_test_iterate_for (50);
}

static const char *
card_text (TmWindow   *window,
           const char *name)
{
  TmSummaryCards *cards = TM_SUMMARY_CARDS (tm_test_find_widget (window, "summary_cards"));

  return gtk_label_get_label (GTK_LABEL (tm_test_template_child (cards, TM_TYPE_SUMMARY_CARDS, name)));
}

static const char *
card_tooltip (TmWindow   *window,
              const char *name)
{
  TmSummaryCards *cards = TM_SUMMARY_CARDS (tm_test_find_widget (window, "summary_cards"));

  return gtk_widget_get_tooltip_markup (tm_test_template_child (cards, TM_TYPE_SUMMARY_CARDS, name));
}

static void
assert_card_bytes (TmWindow   *window,
                   const char *name,
                   gint64      bytes)
{
  g_autofree char *text = tm_format_bytes (bytes);

  g_assert_cmpstr (card_text (window, name), ==, text);
}

static void
assert_card_count (TmWindow   *window,
                   const char *name,
                   guint64     count)
{
  g_autofree char *text = tm_format_count (count);

  g_assert_cmpstr (card_text (window, name), ==, text);
}

static const char *
visible_page (TmWindow *window)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (tm_test_template_child (window, TM_TYPE_WINDOW, "main_stack")));
}

static TmAllocationRow *
shown_row (TmWindow *window,
           guint     position)
{
  GListModel *model = tm_breakdown_view_get_model (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view")));
  TmAllocationRow *row = g_list_model_get_item (model, position);

  g_assert_nonnull (row);
  g_object_unref (row);  /* the model keeps it alive */
  return row;
}

static guint
n_shown (TmWindow *window)
{
  return g_list_model_get_n_items (tm_breakdown_view_get_model (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"))));
}

static GtkColumnViewColumn *
column (TmWindow *window,
        guint     index)
{
  GtkColumnView *view = tm_breakdown_view_get_column_view (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view")));
  GListModel *columns = gtk_column_view_get_columns (view);
  GtkColumnViewColumn *col = g_list_model_get_item (columns, index);

  g_object_unref (col);
  return col;
}

static void
sort_by (TmWindow    *window,
         guint        index,
         GtkSortType  order)
{
  GtkColumnView *view = tm_breakdown_view_get_column_view (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view")));

  gtk_column_view_sort_by_column (view, column (window, index), order);
}

static const char *
dropdown_item (TmWindow *window,
               guint     index)
{
  GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (tm_test_find_widget (window, "memory_dropdown")));

  return gtk_string_list_get_string (GTK_STRING_LIST (model), index);
}

static char *
expected_item (const char *id,
               gint64      peak)
{
  g_autofree char *bytes = tm_format_bytes (peak);

  return g_strdup_printf ("%s · %s", id, bytes);
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static char *
collate_key (const char *text)
{
  g_autofree char *folded = g_utf8_casefold (text, -1);

  return g_utf8_collate_key (folded, -1);
}

/* ------------------------------------------------------------------ */
/* States                                                              */

static void
test_empty_state (void)
{
  TmWindow *window = tm_test_new_window ();

  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_EMPTY);
  g_assert_cmpstr (visible_page (window), ==, "empty");
  g_assert_null (tm_window_get_file (window));
  g_assert_null (tm_window_get_profile (window));
  g_assert_null (tm_window_get_memory_store (window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (GTK_DROP_DOWN (tm_test_find_widget (window, "memory_dropdown")))));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Tidemark");
  /* The timeline area is there, empty, for the timeline widget. */
  g_assert_true (GTK_IS_BOX (GTK_BOX (tm_test_find_widget (window, "timeline_area"))));
  g_assert_true (gtk_widget_get_vexpand (GTK_WIDGET (GTK_BOX (tm_test_find_widget (window, "timeline_area")))));

  tm_test_destroy_window (window);
}

static void
test_error_state_fixture (void)
{
  TmWindow *window = tm_test_new_window ();
  g_autoptr(GFile) file = g_file_new_for_path (corrupt_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  GtkWidget *message;

  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, TM_ERROR, TM_ERROR_LENGTH);

  open_and_wait (window, corrupt_path);

  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);
  g_assert_cmpstr (visible_page (window), ==, "error");
  g_assert_cmpstr (tm_window_get_error_message (window), ==, error->message);
  message = tm_test_template_child (window, TM_TYPE_WINDOW, "error_message");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (message)), ==, error->message);
  g_assert_null (tm_window_get_memory_store (window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (GTK_DROP_DOWN (tm_test_find_widget (window, "memory_dropdown")))));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "corrupt.xplane.pb");

  /* The window stays usable: a good file opens in it. */
  open_and_wait (window, two_ids_path);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_null (tm_window_get_error_message (window));

  tm_test_destroy_window (window);
}

static void
test_error_state_real (void)
{
  g_autofree char *path = tm_test_real_profile ("corrupt_utf8_mangled.xplane.pb");
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  TmWindow *window;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_null (profile);
  g_assert_nonnull (error);

  window = tm_test_new_window ();
  open_and_wait (window, path);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);
  g_assert_cmpstr (tm_window_get_error_message (window), ==, error->message);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (tm_test_template_child (window, TM_TYPE_WINDOW, "error_message"))),
                   ==, error->message);
  tm_test_destroy_window (window);
}

static void
test_missing_file (void)
{
  g_autofree char *path = g_build_filename (fixture_dir, "does-not-exist.xplane.pb", NULL);
  TmWindow *window = tm_test_new_window ();

  open_and_wait (window, path);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_ERROR);
  g_assert_nonnull (tm_window_get_error_message (window));
  g_assert_cmpstr (tm_window_get_error_message (window), !=, "");
  tm_test_destroy_window (window);
}

static void
test_no_data_state (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkWidget *message;

  open_and_wait (window, no_events_path);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_NO_DATA);
  g_assert_cmpstr (visible_page (window), ==, "no-data");
  g_assert_null (tm_window_get_memory_store (window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (GTK_DROP_DOWN (tm_test_find_widget (window, "memory_dropdown")))));
  message = tm_test_template_child (window, TM_TYPE_WINDOW, "no_data_message");
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (message)), "host_tracer_level"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (message)), "MemoryAllocation"));

  /* Without a host plane, the message says so. */
  open_and_wait (window, no_host_path);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_NO_DATA);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (message)), "/host:CPU"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (message)), "host_tracer_level"));

  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */
/* Fixture profiles                                                    */

static gboolean
profile_complete (gpointer data)
{
  TmWindow *window = data;

  return tm_profile_is_complete (tm_window_get_profile (window));
}

/* The window shows the busiest memory id as soon as it is analysed, while
 * the loader still finishes the others: they are listed as analysing, and
 * one picked meanwhile is shown once it is ready. */
static void
test_busiest_first (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkDropDown *dropdown = GTK_DROP_DOWN (tm_test_find_widget (window, "memory_dropdown"));
  g_autofree char *item0 = expected_item ("GPU_0_bfc", 14 * MIB + 512 * KIB);
  g_autofree char *item1 = expected_item ("GPU_1_bfc", 96 * MIB);
  g_autofree char *analysing0 = g_strconcat (item0, " · analysing…", NULL);
  TmProfile *profile;

  tm_profile_hold_pending_for_tests (TRUE);
  open_and_wait_shown (window, two_ids_path);
  profile = tm_window_get_profile (window);

  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_cmpstr (visible_page (window), ==, "profile");
  g_assert_false (tm_profile_is_complete (profile));
  g_assert_false (tm_profile_is_memory_id_ready (profile, 0));
  g_assert_true (tm_profile_is_memory_id_ready (profile, 1));
  g_assert_null (tm_profile_get_analysis (profile, 0));
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, "GPU_1_bfc");
  assert_card_bytes (window, "peak_value", 96 * MIB);
  g_assert_cmpstr (dropdown_item (window, 0), ==, analysing0);
  g_assert_cmpstr (dropdown_item (window, 1), ==, item1);

  /* Picked while it is analysed: what is shown stays until it is ready. */
  gtk_drop_down_set_selected (dropdown, 0);
  tm_test_iterate_for (50);
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, "GPU_1_bfc");

  tm_profile_hold_pending_for_tests (FALSE);
  tm_test_iterate_until (profile_complete, window);
  tm_test_iterate_for (50);
  g_assert_cmpstr (dropdown_item (window, 0), ==, item0);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, "GPU_0_bfc");
  assert_card_bytes (window, "peak_value", 14 * MIB + 512 * KIB);

  tm_test_destroy_window (window);
}

static void
test_two_memory_ids (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  GtkDropDown *dropdown = GTK_DROP_DOWN (tm_test_find_widget (window, "memory_dropdown"));
  g_autofree char *item0 = expected_item ("GPU_0_bfc", 14 * MIB + 512 * KIB);
  g_autofree char *item1 = expected_item ("GPU_1_bfc", 96 * MIB);
  g_autofree char *exact = tm_format_bytes_exact (96 * MIB);
  guint notified = 0;

  g_signal_connect (window, "notify::memory-store", G_CALLBACK (count_notify_cb), &notified);
  open_and_wait (window, two_ids_path);

  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_cmpstr (visible_page (window), ==, "profile");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "two-ids.xplane.pb");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dropdown)));
  g_assert_cmpuint (notified, ==, 1);

  /* Ids in XProf's order, each with its peak; the busiest is selected. */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 2);
  g_assert_cmpstr (dropdown_item (window, 0), ==, item0);
  g_assert_cmpstr (dropdown_item (window, 1), ==, item1);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 1);
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, "GPU_1_bfc");
  g_assert_true (tm_view_get_session (TM_VIEW (view)) == tm_window_get_session (window));
  g_assert_true (tm_view_get_session (TM_VIEW (TM_SUMMARY_CARDS (tm_test_find_widget (window, "summary_cards")))) == tm_window_get_session (window));
  g_assert_true (tm_session_get_memory_store (tm_window_get_session (window)) == tm_window_get_memory_store (window));
  g_assert_cmpuint (tm_breakdown_view_get_n_rows (view), ==,
                    tm_analysis_get_peak_breakdown (tm_session_get_analysis (tm_window_get_session (window)))->len);

  /* Cards */
  assert_card_bytes (window, "peak_value", 96 * MIB);
  assert_card_bytes (window, "capacity_value", 2 * GIB);
  assert_card_bytes (window, "lifetime_value", 96 * MIB);
  assert_card_bytes (window, "stack_value", 0);
  assert_card_bytes (window, "heap_value", 96 * MIB);
  assert_card_bytes (window, "free_value", 2 * GIB - 96 * MIB);
  assert_card_count (window, "allocations_value", 2);
  assert_card_count (window, "deallocations_value", 0);
  g_assert_cmpstr (card_text (window, "fragmentation_value"), ==, "25.0 %");
  g_assert_nonnull (strstr (card_tooltip (window, "peak_card"), exact));
  g_assert_nonnull (strstr (card_tooltip (window, "heap_value"), exact));

  /* Table: largest first */
  g_assert_cmpuint (tm_breakdown_view_get_n_rows (view), ==, 2);
  g_assert_cmpuint (n_shown (window), ==, 2);
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 0)), ==, "embedding/GatherV2");
  g_assert_cmpint (tm_allocation_row_get_allocation_bytes (shown_row (window, 0)), ==, 64 * MIB);
  g_assert_cmpstr (tm_allocation_row_get_data_type (shown_row (window, 0)), ==, "half");
  g_assert_cmpstr (tm_allocation_row_get_shape (shown_row (window, 0)), ==, "[30522,1024]");
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 1)), ==, "attention/Softmax");

  /* Switching the memory id updates the cards and the table. */
  gtk_drop_down_set_selected (dropdown, 0);
  g_assert_cmpuint (notified, ==, 2);
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, "GPU_0_bfc");
  assert_card_bytes (window, "peak_value", 14 * MIB + 512 * KIB);
  assert_card_bytes (window, "capacity_value", GIB);
  assert_card_count (window, "allocations_value", 4);
  g_assert_cmpuint (tm_breakdown_view_get_n_rows (view), ==, 4);
  /* delta/BiasAdd (512 KiB) is hidden by default */
  g_assert_true (tm_breakdown_view_get_hide_small (view));
  g_assert_cmpuint (n_shown (window), ==, 3);
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 0)), ==, "alpha/Conv2D");
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 1)), ==, "beta/MatMul");
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 2)), ==, "gamma/Relu");
  tm_breakdown_view_set_hide_small (view, FALSE);
  g_assert_cmpuint (n_shown (window), ==, 4);
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 3)), ==, "delta/BiasAdd");
  tm_breakdown_view_set_hide_small (view, TRUE);

  g_assert_true (tm_window_select_memory_id (window, "GPU_1_bfc"));
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 1);
  g_assert_cmpuint (notified, ==, 3);
  g_assert_false (tm_window_select_memory_id (window, "GPU_9_bfc"));

  /* Reloading keeps the memory id the user picked. */
  gtk_drop_down_set_selected (dropdown, 0);
  tm_window_reload (window);
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, "GPU_0_bfc");

  tm_test_destroy_window (window);
}

static GtkCheckButton *
find_check_button (GtkWidget  *widget,
                   const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkCheckButton *found;

      if (GTK_IS_CHECK_BUTTON (child) && g_strcmp0 (gtk_check_button_get_label (GTK_CHECK_BUTTON (child)), label) == 0)
        return GTK_CHECK_BUTTON (child);
      if ((found = find_check_button (child, label)) != NULL)
        return found;
    }
  return NULL;
}

/* What was never freed needs the allocation index, which comes after the
 * rest: until then the lifetime card says it is counting and the table's
 * never-freed filter says it is indexing; both fill in when it is there. */
static void
test_never_freed_pending (void)
{
  g_autoptr(TmProfile) profile = tm_test_load_path (two_ids_path);
  g_autoptr(TmSession) session = tm_session_new ();
  GtkWidget *cards = g_object_ref_sink (tm_summary_cards_new (session));
  GtkWidget *table = g_object_ref_sink (tm_breakdown_view_new (session));
  GtkCheckButton *never_freed = find_check_button (table, "_Never freed");
  GtkLabel *value = GTK_LABEL (tm_test_template_child (cards, TM_TYPE_SUMMARY_CARDS, "never_freed_value"));
  GtkLabel *empty_title = GTK_LABEL (tm_test_template_child (table, TM_TYPE_BREAKDOWN_VIEW, "empty_title"));
  GListModel *rows = tm_breakdown_view_get_model (TM_BREAKDOWN_VIEW (table));
  g_autofree char *bytes = tm_format_bytes (96 * MIB);
  g_autofree char *figure = g_strdup_printf ("%s never freed (2)", bytes);
  guint n_all;

  g_assert_nonnull (never_freed);
  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, tm_profile_lookup_memory_store (profile, "GPU_1_bfc"));
  g_assert_true (tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)));
  g_assert_cmpstr (gtk_label_get_label (value), ==, "Never freed: counting…");
  n_all = g_list_model_get_n_items (rows);
  g_assert_cmpuint (n_all, >=, 2);
  gtk_check_button_set_active (never_freed, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);
  g_assert_cmpstr (gtk_label_get_label (empty_title), ==, "Indexing Allocations…");

  tm_test_wait_allocations (session);
  g_assert_nonnull (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)));
  g_assert_cmpstr (gtk_label_get_label (value), ==, figure);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  gtk_check_button_set_active (never_freed, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_all);

  g_object_unref (table);
  g_object_unref (cards);
}


static void
test_hide_small_rows (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  GtkWidget *table_stack = tm_test_template_child (view, TM_TYPE_BREAKDOWN_VIEW, "table_stack");
  GtkWidget *count_label = tm_test_template_child (view, TM_TYPE_BREAKDOWN_VIEW, "count_label");

  open_and_wait (window, xprof_example_path);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, TM_FIXTURE_XPROF_ALLOCATOR);

  assert_card_bytes (window, "peak_value", TM_FIXTURE_XPROF_PEAK_BYTES);
  assert_card_bytes (window, "capacity_value", TM_FIXTURE_XPROF_CAPACITY);
  assert_card_bytes (window, "lifetime_value", TM_FIXTURE_XPROF_LIFETIME_PEAK);
  assert_card_bytes (window, "stack_value", TM_FIXTURE_XPROF_PEAK_STACK);
  assert_card_bytes (window, "heap_value", TM_FIXTURE_XPROF_PEAK_HEAP);
  assert_card_bytes (window, "free_value", TM_FIXTURE_XPROF_PEAK_FREE);
  assert_card_count (window, "allocations_value", TM_FIXTURE_XPROF_N_ALLOCATIONS);
  assert_card_count (window, "deallocations_value", TM_FIXTURE_XPROF_N_DEALLOCATIONS);
  {
    g_autofree char *frag = tm_format_percent (TM_FIXTURE_XPROF_PEAK_FRAGMENTATION);
    g_autofree char *time = tm_format_time_ms (TM_FIXTURE_XPROF_PEAK_TIME_PS);
    g_autofree char *detail = g_strdup_printf ("at %s", time);
    g_autofree char *heading = g_strdup_printf ("Live at peak — %s", time);

    g_assert_cmpstr (card_text (window, "fragmentation_value"), ==, frag);
    g_assert_cmpstr (card_text (window, "peak_detail"), ==, detail);
    g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (tm_test_template_child (view, TM_TYPE_BREAKDOWN_VIEW, "heading_label"))),
                     ==, heading);
  }

  /* Every row is under 1 MiB: hidden, with an explanation. */
  g_assert_cmpuint (tm_breakdown_view_get_n_rows (view), ==, 3);
  g_assert_cmpuint (n_shown (window), ==, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (table_stack)), ==, "empty");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (count_label)), ==, "0 of 3 rows");

  /* Through the check button, as a user does. */
  gtk_check_button_set_active (GTK_CHECK_BUTTON (tm_test_template_child (view, TM_TYPE_BREAKDOWN_VIEW, "hide_small_check")), FALSE);
  g_assert_false (tm_breakdown_view_get_hide_small (view));
  g_assert_cmpuint (n_shown (window), ==, 3);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (table_stack)), ==, "table");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (count_label)), ==, "3 rows");

  /* XProf's order: unused, stack, the op. */
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 0)), ==, "unused preallocated device memory");
  g_assert_cmpint (tm_allocation_row_get_allocation_bytes (shown_row (window, 0)), ==, TM_FIXTURE_XPROF_UNUSED_BYTES);
  g_assert_true (tm_allocation_row_get_special (shown_row (window, 0)));
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 1)), ==, "stack");
  g_assert_cmpint (tm_allocation_row_get_allocation_bytes (shown_row (window, 1)), ==, TM_FIXTURE_XPROF_PEAK_STACK);
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 2)), ==, TM_FIXTURE_XPROF_OP_NAME);
  g_assert_cmpint (tm_allocation_row_get_allocation_bytes (shown_row (window, 2)), ==, TM_FIXTURE_XPROF_OP_BYTES);
  g_assert_cmpstr (tm_allocation_row_get_region_type (shown_row (window, 2)), ==, TM_FIXTURE_XPROF_OP_REGION);
  g_assert_cmpstr (tm_allocation_row_get_data_type (shown_row (window, 2)), ==, TM_FIXTURE_XPROF_OP_DATA_TYPE);
  g_assert_cmpstr (tm_allocation_row_get_shape (shown_row (window, 2)), ==, TM_FIXTURE_XPROF_OP_SHAPE);
  g_assert_cmpuint (tm_allocation_row_get_address (shown_row (window, 2)), ==, TM_FIXTURE_XPROF_OP_ADDR);

  /* A search that matches nothing says so. */
  tm_breakdown_view_set_filter_text (view, "no-such-op");
  g_assert_cmpuint (n_shown (window), ==, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (table_stack)), ==, "empty");
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (tm_test_template_child (view, TM_TYPE_BREAKDOWN_VIEW, "empty_description"))),
                            "no-such-op"));
  tm_breakdown_view_set_filter_text (view, "MUL_grad");
  g_assert_cmpuint (n_shown (window), ==, 1);
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 0)), ==, TM_FIXTURE_XPROF_OP_NAME);
  tm_breakdown_view_set_filter_text (view, NULL);
  g_assert_cmpuint (n_shown (window), ==, 3);

  tm_breakdown_view_set_hide_small (view, TRUE);
  tm_test_destroy_window (window);
}

static void
test_live_at_time (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  GtkWidget *back = tm_test_template_child (view, TM_TYPE_BREAKDOWN_VIEW, "back_to_peak_button");
  GtkWidget *heading = tm_test_template_child (view, TM_TYPE_BREAKDOWN_VIEW, "heading_label");
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *time = tm_format_time_ms (2000000000 + 500000);
  g_autofree char *live = g_strdup_printf ("Live at %s", time);
  TmSession *session = tm_window_get_session (window);
  guint cleared = 0;

  open_and_wait (window, two_ids_path);
  g_signal_connect (session, "notify::has-selected-time", G_CALLBACK (count_notify_cb), &cleared);
  g_assert_true (tm_breakdown_view_get_at_peak (view));
  g_assert_false (gtk_widget_get_visible (back));

  /* GPU_1_bfc between its two allocations: only the first is live. */
  tm_session_select_time (session, 2000000000 + 500000);
  g_assert_cmpuint (cleared, ==, 1);
  rows = tm_analysis_breakdown_at (tm_window_get_memory_store (window), 2000000000 + 500000);
  g_assert_false (tm_breakdown_view_get_at_peak (view));
  g_assert_cmpint (tm_breakdown_view_get_time_ps (view), ==, 2000000000 + 500000);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (heading)), ==, live);
  g_assert_true (gtk_widget_get_visible (back));
  g_assert_cmpuint (tm_breakdown_view_get_n_rows (view), ==, rows->len);
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 0)), ==, "embedding/GatherV2");
  g_assert_cmpuint (n_shown (window), ==, 1);

  /* Back to Peak drops the session's selected time, which restores the
   * peak table. */
  g_signal_emit_by_name (back, "clicked");
  g_assert_cmpuint (cleared, ==, 2);
  g_assert_false (tm_session_get_has_selected_time (session));
  g_assert_true (tm_breakdown_view_get_at_peak (view));
  g_assert_false (gtk_widget_get_visible (back));
  g_assert_cmpuint (n_shown (window), ==, 2);
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (heading)), "Live at peak — "));

  /* Another memory id drops the selected time too. */
  tm_session_select_time (session, 2000000000);
  g_assert_false (tm_breakdown_view_get_at_peak (view));
  g_assert_cmpint (tm_breakdown_view_get_time_ps (view), ==, 2000000000);
  g_assert_true (tm_window_select_memory_id (window, "GPU_0_bfc"));
  g_assert_false (tm_session_get_has_selected_time (session));
  g_assert_true (tm_breakdown_view_get_at_peak (view));
  g_assert_cmpint (tm_breakdown_view_get_time_ps (view), ==,
                   tm_memory_store_get_summary (tm_window_get_memory_store (window))->peak_time_ps);
  g_assert_false (gtk_widget_get_visible (back));

  tm_test_destroy_window (window);
}

typedef struct
{
  char     *text;
  gboolean  done;
} ClipboardRead;

static void
clipboard_read_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ClipboardRead *read = user_data;
  g_autoptr(GError) error = NULL;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  g_assert_no_error (error);
  read->done = TRUE;
}

static gboolean
read_done (gpointer data)
{
  return ((ClipboardRead *) data)->done;
}

static void
test_copy_rows (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  GtkSelectionModel *selection = tm_breakdown_view_get_selection (view);
  const char *header = "Op name\tAllocation bytes\tRequested bytes\tOccurrences\tRegion type\tData type\tShape\n";
  g_autofree char *expected = NULL;
  g_autofree char *tsv = NULL;
  ClipboardRead read = { NULL, FALSE };

  open_and_wait (window, two_ids_path);
  g_assert_true (tm_window_select_memory_id (window, "GPU_0_bfc"));

  g_assert_null (tm_breakdown_view_get_selection_tsv (view));

  gtk_selection_model_select_item (selection, 0, TRUE);
  gtk_selection_model_select_item (selection, 2, FALSE);
  tsv = tm_breakdown_view_get_selection_tsv (view);
  expected = g_strdup_printf ("%s"
                              "alpha/Conv2D\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t1\toutput\tfloat\t[8,64,64,64]\n"
                              "gamma/Relu\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t1\toutput\tfloat\t[8,64,32,32]\n",
                              header, 8 * MIB, 8 * MIB, 2 * MIB, 2 * MIB);
  g_assert_cmpstr (tsv, ==, expected);

  /* Ctrl+C's action puts the same text on the clipboard. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "breakdown.copy", NULL));
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (view)), NULL, clipboard_read_cb, &read);
  tm_test_iterate_until (read_done, &read);
  g_assert_cmpstr (read.text, ==, expected);
  g_free (read.text);

  tm_test_destroy_window (window);
}

static gboolean
list_measured (gpointer data)
{
  GtkAdjustment *vadj = data;

  return gtk_adjustment_get_upper (vadj) > gtk_adjustment_get_page_size (vadj) &&
         gtk_adjustment_get_page_size (vadj) > 0;
}

static void
test_many_rows (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  GtkScrolledWindow *scroller = GTK_SCROLLED_WINDOW (tm_test_template_child (view, TM_TYPE_BREAKDOWN_VIEW, "scroller"));
  GtkAdjustment *vadj = gtk_scrolled_window_get_vadjustment (scroller);
  g_autofree char *last_key = NULL;

  open_and_wait (window, many_rows_path);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  assert_card_count (window, "allocations_value", MANY_ROWS);
  g_assert_cmpuint (tm_breakdown_view_get_n_rows (view), ==, MANY_ROWS);
  g_assert_cmpuint (n_shown (window), ==, MANY_ROWS / 2);

  /* Largest first: the last even row. */
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 0)), ==, "model/layer_19998/op");
  for (guint i = 1; i < n_shown (window); i++)
    g_assert_cmpint (tm_allocation_row_get_allocation_bytes (shown_row (window, i - 1)), >=,
                     tm_allocation_row_get_allocation_bytes (shown_row (window, i)));

  /* Op name ascending */
  sort_by (window, 0, GTK_SORT_ASCENDING);
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 0)), ==, "model/layer_00000/op");
  g_assert_cmpstr (tm_allocation_row_get_op_name (shown_row (window, 1)), ==, "model/layer_00002/op");
  for (guint i = 0; i < n_shown (window); i++)
    {
      g_autofree char *key = collate_key (tm_allocation_row_get_op_name (shown_row (window, i)));

      if (last_key != NULL)
        g_assert_cmpstr (last_key, <=, key);
      g_free (last_key);
      last_key = g_steal_pointer (&key);
    }

  /* Scrolling to the end and back works and keeps the rows, once the
   * list has measured its rows and settled (on a busy machine, or under
   * ThreadSanitizer, that takes more than a few frames; scrolling before
   * makes GTK warn). */
  tm_test_iterate_until (list_measured, vadj);
  tm_test_wait_layout_settled (GTK_WIDGET (view));
  gtk_adjustment_set_value (vadj, gtk_adjustment_get_upper (vadj));
  tm_test_wait_layout_settled (GTK_WIDGET (view));
  gtk_adjustment_set_value (vadj, 0);
  tm_test_wait_layout_settled (GTK_WIDGET (view));
  g_assert_cmpuint (n_shown (window), ==, MANY_ROWS / 2);

  /* Filtering tens of thousands of rows by op name */
  tm_breakdown_view_set_filter_text (view, "layer_1999");
  g_assert_cmpuint (n_shown (window), ==, 5);  /* 19990, 19992 … 19998 */
  tm_breakdown_view_set_hide_small (view, FALSE);
  g_assert_cmpuint (n_shown (window), ==, 10);
  tm_breakdown_view_set_filter_text (view, "");
  g_assert_cmpuint (n_shown (window), ==, MANY_ROWS);

  /* Region ascending, ties in the core's order (largest first). */
  sort_by (window, 4, GTK_SORT_ASCENDING);
  g_assert_cmpstr (tm_allocation_row_get_region_type (shown_row (window, 0)), ==, "output");
  g_assert_cmpstr (tm_allocation_row_get_region_type (shown_row (window, MANY_ROWS - 1)), ==, "temp");
  for (guint i = 1; i < MANY_ROWS; i++)
    {
      TmAllocationRow *a = shown_row (window, i - 1);
      TmAllocationRow *b = shown_row (window, i);

      if (g_strcmp0 (tm_allocation_row_get_region_type (a), tm_allocation_row_get_region_type (b)) == 0)
        g_assert_cmpuint (tm_allocation_row_get_index (a), <, tm_allocation_row_get_index (b));
    }

  tm_breakdown_view_set_hide_small (view, TRUE);
  tm_test_destroy_window (window);
}

static gboolean
has_store (gpointer data)
{
  return tm_window_get_state (TM_WINDOW (data)) == TM_WINDOW_STATE_PROFILE;
}

static void
test_cancel_and_replace (void)
{
  TmWindow *window = tm_test_new_window ();
  g_autoptr(GFile) many = g_file_new_for_path (many_rows_path);
  g_autoptr(GFile) two = g_file_new_for_path (two_ids_path);
  guint profile_notified = 0;

  g_signal_connect (window, "notify::profile", G_CALLBACK (count_notify_cb), &profile_notified);

  /* Cancel returns to the empty state at once, and stays there. */
  tm_window_open (window, many);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_LOADING);
  g_assert_true (g_file_equal (tm_window_get_file (window), many));
  g_signal_emit_by_name (tm_test_template_child (window, TM_TYPE_WINDOW, "cancel_button"), "clicked");
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_EMPTY);
  g_assert_null (tm_window_get_file (window));
  tm_test_iterate_for (1500);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_EMPTY);
  g_assert_cmpstr (visible_page (window), ==, "empty");
  g_assert_cmpuint (profile_notified, ==, 0);

  /* Opening another file while one loads replaces it. */
  tm_window_open (window, many);
  tm_window_open (window, two);
  tm_test_iterate_until (has_store, window);
  tm_test_iterate_for (1500);
  g_assert_true (g_file_equal (tm_window_get_file (window), two));
  g_assert_cmpuint (tm_profile_get_n_memory_ids (tm_window_get_profile (window)), ==, 2);
  g_assert_cmpuint (profile_notified, ==, 1);

  /* Cancelling a reload keeps the profile shown. */
  tm_window_open (window, many);
  g_signal_emit_by_name (tm_test_template_child (window, TM_TYPE_WINDOW, "cancel_button"), "clicked");
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_cmpstr (visible_page (window), ==, "profile");
  g_assert_true (g_file_equal (tm_window_get_file (window), two));
  g_assert_nonnull (tm_window_get_memory_store (window));

  tm_test_destroy_window (window);
}

/* The file changed on disk: asking says so every time (it changes
 * nothing); loading it again brings the window up to date. */
static void
test_file_changed (void)
{
  TmWindow *window = tm_test_new_window ();
  g_autofree char *path = g_build_filename (fixture_dir, "changing.xplane.pb", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *longer = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (two_ids_path, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, length, NULL));

  g_assert_false (tm_window_get_file_changed (window));
  open_and_wait (window, path);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_false (tm_window_get_file_changed (window));

  /* Another size: an XSpace with one more (empty) field at the end. */
  longer = g_malloc (length + 2);
  memcpy (longer, contents, length);
  longer[length] = 0x7a;  /* field 15, length-delimited */
  longer[length + 1] = 0x00;
  g_assert_true (g_file_set_contents (path, longer, length + 2, NULL));
  g_assert_true (tm_window_get_file_changed (window));
  g_assert_true (tm_window_get_file_changed (window));

  tm_window_reload (window);
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_false (tm_window_get_file_changed (window));

  tm_test_destroy_window (window);
  g_remove (path);
}

/* ------------------------------------------------------------------ */
/* Settings (when the schema is there)                                 */

/* The first spin button under root (the Allocations tab's threshold). */
static GtkSpinButton *
find_spin_button (GtkWidget *root)
{
  if (GTK_IS_SPIN_BUTTON (root))
    return GTK_SPIN_BUTTON (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkSpinButton *found = find_spin_button (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_settings (void)
{
  g_autoptr(GSettings) settings = tm_application_create_settings ();
  g_autoptr(GFile) file = g_file_new_for_path (two_ids_path);
  g_autoptr(GFile) folder = g_file_get_parent (file);
  g_autofree char *folder_uri = g_file_get_uri (folder);
  g_autofree char *last_folder = NULL;
  TmWindow *window;
  TmBreakdownView *view;

  if (settings == NULL)
    {
      g_test_skip ("the GSettings schema is not compiled");
      return;
    }

  g_settings_set_int (settings, "window-width", 900);
  g_settings_set_int (settings, "window-height", 700);
  g_settings_set_string (settings, "last-folder", "");

  window = tm_test_new_window ();
  view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  {
    int width, height;

    gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
    g_assert_cmpint (width, ==, 900);
    g_assert_cmpint (height, ==, 700);
  }

  /* The toggle follows the setting, and the setting the toggle. */
  g_assert_true (g_settings_get_boolean (settings, "hide-small-allocations"));
  g_assert_true (tm_breakdown_view_get_hide_small (view));
  g_settings_set_boolean (settings, "hide-small-allocations", FALSE);
  g_assert_false (tm_breakdown_view_get_hide_small (view));
  tm_breakdown_view_set_hide_small (view, TRUE);
  g_assert_true (g_settings_get_boolean (settings, "hide-small-allocations"));

  /* The Allocations tab's "temporary" threshold, 1 ms at first, is kept:
   * the spin button sets it, and the next window starts with it. */
  {
    GtkWidget *allocations = tm_test_find_widget (window, "allocations_view");
    GtkSpinButton *spin = find_spin_button (allocations);
    TmWindow *next;
    gint64 ps;

    g_assert_nonnull (spin);
    g_object_get (allocations, "temporary-ps", &ps, NULL);
    g_assert_cmpint (ps, ==, 1000000000);
    g_assert_cmpint (g_settings_get_int64 (settings, "temporary-threshold"), ==, 1000000000);
    gtk_spin_button_set_value (spin, 2.5);
    g_assert_cmpint (g_settings_get_int64 (settings, "temporary-threshold"), ==, 2500000000);
    next = tm_test_new_window ();
    g_object_get (tm_test_find_widget (next, "allocations_view"), "temporary-ps", &ps, NULL);
    g_assert_cmpint (ps, ==, 2500000000);
    g_assert_cmpfloat (gtk_spin_button_get_value (find_spin_button (tm_test_find_widget (next, "allocations_view"))), ==, 2.5);
    tm_test_destroy_window (next);
    g_settings_reset (settings, "temporary-threshold");
    g_object_get (allocations, "temporary-ps", &ps, NULL);
    g_assert_cmpint (ps, ==, 1000000000);
  }

  /* Opening a file remembers its folder for the Open dialog. */
  open_and_wait (window, two_ids_path);
  last_folder = g_settings_get_string (settings, "last-folder");
  g_assert_cmpstr (last_folder, ==, folder_uri);

  /* Closing saves the size. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 750);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1000);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 750);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
  g_object_unref (window);

  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

/* ------------------------------------------------------------------ */
/* The application: one window per file, reuse, run directories        */

static TmWindow *
window_for (GtkApplication *app,
            const char     *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  for (GList *l = gtk_application_get_windows (app); l; l = l->next)
    {
      GFile *shown = tm_window_get_file (l->data);

      if (shown != NULL && g_file_equal (shown, file))
        return l->data;
    }

  return NULL;
}

static void
test_application_open (void)
{
  g_autoptr(TmApplication) app = tm_application_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) two = g_file_new_for_path (two_ids_path);
  g_autoptr(GFile) example = g_file_new_for_path (xprof_example_path);
  g_autofree char *log_dir = NULL;
  g_autofree char *run_dir = NULL;
  g_autofree char *host_a = NULL;
  g_autofree char *host_b = NULL;
  g_autoptr(GFile) run = NULL;
  g_autoptr(GList) toplevels = NULL;
  GtkAboutDialog *about = NULL;
  TmWindow *empty;

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  /* One window per file */
  tm_application_open_files (app, (GFile *[]) { two, example }, 2, NULL);
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 2);
  g_assert_nonnull (window_for (GTK_APPLICATION (app), two_ids_path));
  g_assert_nonnull (window_for (GTK_APPLICATION (app), xprof_example_path));

  /* Opening a file again presents its window. */
  tm_application_open_files (app, (GFile *[]) { two }, 1, NULL);
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 2);

  /* An empty window is reused. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "new-window", NULL);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 3);
  empty = TM_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_cmpint (tm_window_get_state (empty), ==, TM_WINDOW_STATE_EMPTY);

  /* A run directory opens as one window (tests/test-hosts.c has more). */
  log_dir = g_build_filename (fixture_dir, "logs", NULL);
  run_dir = g_build_filename (log_dir, "plugins", "profile", "2024_01_01_00_00_00", NULL);
  g_assert_cmpint (g_mkdir_with_parents (run_dir, 0755), ==, 0);
  {
    g_autofree char *older = g_build_filename (log_dir, "plugins", "profile", "2023_12_31_00_00_00", NULL);
    g_autofree char *older_host = g_build_filename (older, "old-host.xplane.pb", NULL);
    g_autofree char *contents = NULL;
    gsize length;

    g_assert_cmpint (g_mkdir_with_parents (older, 0755), ==, 0);
    g_assert_true (g_file_get_contents (two_ids_path, &contents, &length, NULL));
    host_a = g_build_filename (run_dir, "host-a.xplane.pb", NULL);
    host_b = g_build_filename (run_dir, "host-b.xplane.pb", NULL);
    g_assert_true (g_file_set_contents (host_a, contents, length, NULL));
    g_assert_true (g_file_set_contents (host_b, contents, length, NULL));
    g_assert_true (g_file_set_contents (older_host, contents, length, NULL));
  }

  /* The log directory (plugins/profile/<newest run>/): one window for the
   * run, showing its first host. */
  run = g_file_new_for_path (log_dir);
  tm_application_open_files (app, &run, 1, NULL);
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 3);
  g_assert_true (window_for (GTK_APPLICATION (app), host_a) == empty);
  g_assert_cmpint (tm_window_get_state (empty), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_cmpuint (tm_window_get_n_hosts (empty), ==, 2);
  g_assert_null (window_for (GTK_APPLICATION (app), host_b));

  /* A file dropped on (or chosen in) a window opens in that window. */
  tm_application_open_files (app, &example, 1, GTK_WINDOW (empty));
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 3);
  g_assert_true (g_file_equal (tm_window_get_file (empty), example));
  g_assert_cmpuint (tm_window_get_n_hosts (empty), ==, 0);

  /* About names the version and the licence that COPYING holds. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  tm_test_iterate_for (50);
  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (GTK_IS_ABOUT_DIALOG (l->data))
      about = l->data;
  g_assert_nonnull (about);
  g_assert_cmpint (gtk_about_dialog_get_license_type (about), ==, GTK_LICENSE_GPL_3_0);
  g_assert_cmpstr (gtk_about_dialog_get_version (about), ==, PACKAGE_VERSION);
  gtk_window_destroy (GTK_WINDOW (about));

  /* F1 is Help in GNOME: it shows the keyboard shortcuts, not About. */
  {
    g_auto(GStrv) f1 = gtk_application_get_actions_for_accel (GTK_APPLICATION (app), "F1");
    g_auto(GStrv) about_accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.about");

    g_assert_true (g_strv_contains ((const char * const *) f1, "win.show-help-overlay"));
    g_assert_false (g_strv_contains ((const char * const *) f1, "app.about"));
    g_assert_false (g_strv_contains ((const char * const *) about_accels, "F1"));
  }

  tm_test_destroy_all_windows (GTK_APPLICATION (app));

  tm_fixture_remove (log_dir);
}

/* ------------------------------------------------------------------ */
/* The real GPU profile                                                */

static JsonObject *
read_expected (JsonParser **parser)
{
  g_autofree char *path = tm_test_real_profile ("expected/tf_gpu_multi_worker.summary.json");
  g_autoptr(GError) error = NULL;

  *parser = json_parser_new ();
  json_parser_load_from_file (*parser, path, &error);
  g_assert_no_error (error);

  return json_object_get_object_member (json_node_get_object (json_parser_get_root (*parser)), "memory");
}

static void
assert_rows_match (TmWindow   *window,
                   JsonObject *expected_id)
{
  JsonArray *breakdown = json_object_get_array_member (expected_id, "breakdown");
  guint n = json_array_get_length (breakdown);
  guint position = 0;

  g_assert_cmpuint (tm_breakdown_view_get_n_rows (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"))), ==,
                    json_object_get_int_member (expected_id, "num_breakdown_rows"));

  /* Shown (>= 1 MiB), in XProf's order */
  for (guint i = 0; i < n; i++)
    {
      JsonObject *want = json_array_get_object_element (breakdown, i);
      TmAllocationRow *row;

      if (json_object_get_int_member (want, "allocation_bytes") < MIB)
        continue;

      row = shown_row (window, position++);
      g_assert_cmpstr (tm_allocation_row_get_op_name (row), ==, json_object_get_string_member (want, "op_name"));
      g_assert_cmpint (tm_allocation_row_get_allocation_bytes (row), ==, json_object_get_int_member (want, "allocation_bytes"));
      g_assert_cmpint (tm_allocation_row_get_requested_bytes (row), ==, json_object_get_int_member (want, "requested_bytes"));
      g_assert_cmpuint (tm_allocation_row_get_occurrences (row), ==, json_object_get_int_member (want, "num_occurrences"));
      g_assert_cmpstr (tm_allocation_row_get_region_type (row), ==, json_object_get_string_member (want, "region_type"));
      g_assert_cmpstr (tm_allocation_row_get_data_type (row), ==, json_object_get_string_member (want, "data_type"));
      g_assert_cmpstr (tm_allocation_row_get_shape (row), ==, json_object_get_string_member (want, "shape"));
    }

  g_assert_cmpuint (n_shown (window), ==, position);
}

static void
assert_cards_match (TmWindow   *window,
                    JsonObject *want)
{
  g_autofree char *time = tm_format_time_ms (json_object_get_int_member (want, "peak_stats_time_ps"));
  g_autofree char *detail = g_strdup_printf ("at %s", time);
  g_autofree char *frag = tm_format_percent (json_object_get_double_member (want, "peak_fragmentation"));
  g_autofree char *exact = tm_format_bytes_exact (json_object_get_int_member (want, "peak_bytes_in_use"));

  assert_card_bytes (window, "peak_value", json_object_get_int_member (want, "peak_bytes_in_use"));
  g_assert_cmpstr (card_text (window, "peak_detail"), ==, detail);
  g_assert_nonnull (strstr (card_tooltip (window, "peak_card"), exact));
  assert_card_bytes (window, "capacity_value", json_object_get_int_member (want, "memory_capacity"));
  assert_card_bytes (window, "lifetime_value", json_object_get_int_member (want, "peak_bytes_usage_lifetime"));
  assert_card_bytes (window, "stack_value", json_object_get_int_member (want, "peak_stack_reserved_bytes"));
  assert_card_bytes (window, "heap_value", json_object_get_int_member (want, "peak_heap_allocated_bytes"));
  assert_card_bytes (window, "free_value", json_object_get_int_member (want, "peak_free_memory_bytes"));
  g_assert_cmpstr (card_text (window, "fragmentation_value"), ==, frag);
  assert_card_count (window, "allocations_value", json_object_get_int_member (want, "num_allocations"));
  assert_card_count (window, "deallocations_value", json_object_get_int_member (want, "num_deallocations"));
  {
    g_autofree char *step = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (want, "peak_step_id"));

    g_assert_cmpstr (card_text (window, "peak_step_value"), ==, step);
  }
}

static void
test_real_gpu_profile (void)
{
  g_autofree char *path = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *memory;
  TmWindow *window;
  TmBreakdownView *view;
  GtkDropDown *dropdown;
  static const char * const ids[] = { "GPU_1_bfc", "GPU_4_bfc", "GPU_6_bfc", "gpu_host_bfc" };
  guint notified = 0;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  memory = read_expected (&parser);
  window = tm_test_new_window ();
  view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  dropdown = GTK_DROP_DOWN (tm_test_find_widget (window, "memory_dropdown"));

  open_and_wait (window, path);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_signal_connect (window, "notify::memory-store", G_CALLBACK (count_notify_cb), &notified);

  /* Dropdown: every id with its peak, GPU_6_bfc (the busiest) selected */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, G_N_ELEMENTS (ids));
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      JsonObject *want = json_object_get_object_member (memory, ids[i]);
      g_autofree char *item = expected_item (ids[i], json_object_get_int_member (want, "peak_bytes_in_use"));

      g_assert_cmpstr (dropdown_item (window, i), ==, item);
    }
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 2);
  g_assert_cmpstr (dropdown_item (window, 2), ==, "GPU_6_bfc · 5.78 GiB");
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, "GPU_6_bfc");
  g_assert_cmpint (tm_memory_store_get_summary (tm_window_get_memory_store (window))->peak_bytes_in_use, ==, 6210111488);

  assert_cards_match (window, json_object_get_object_member (memory, "GPU_6_bfc"));
  assert_rows_match (window, json_object_get_object_member (memory, "GPU_6_bfc"));

  /* Sorting: requested ascending, occurrences descending, shape ascending */
  sort_by (window, 2, GTK_SORT_ASCENDING);
  for (guint i = 1; i < n_shown (window); i++)
    g_assert_cmpint (tm_allocation_row_get_requested_bytes (shown_row (window, i - 1)), <=,
                     tm_allocation_row_get_requested_bytes (shown_row (window, i)));
  sort_by (window, 3, GTK_SORT_DESCENDING);
  for (guint i = 1; i < n_shown (window); i++)
    g_assert_cmpuint (tm_allocation_row_get_occurrences (shown_row (window, i - 1)), >=,
                      tm_allocation_row_get_occurrences (shown_row (window, i)));
  sort_by (window, 6, GTK_SORT_ASCENDING);
  for (guint i = 1; i < n_shown (window); i++)
    {
      g_autofree char *a = collate_key (tm_allocation_row_get_shape (shown_row (window, i - 1)));
      g_autofree char *b = collate_key (tm_allocation_row_get_shape (shown_row (window, i)));

      g_assert_cmpstr (a, <=, b);
    }
  sort_by (window, 1, GTK_SORT_DESCENDING);
  assert_rows_match (window, json_object_get_object_member (memory, "GPU_6_bfc"));

  /* Filtering by op name, case-insensitively, with and without small rows */
  {
    JsonArray *breakdown = json_object_get_array_member (json_object_get_object_member (memory, "GPU_6_bfc"), "breakdown");
    guint want_big = 0, want_all = 0;

    for (guint i = 0; i < json_array_get_length (breakdown); i++)
      {
        JsonObject *row = json_array_get_object_element (breakdown, i);
        g_autofree char *folded = g_utf8_casefold (json_object_get_string_member (row, "op_name"), -1);

        if (strstr (folded, "dropout") == NULL)
          continue;
        want_all++;
        if (json_object_get_int_member (row, "allocation_bytes") >= MIB)
          want_big++;
      }
    g_assert_cmpuint (want_all, >, want_big);

    tm_breakdown_view_set_filter_text (view, "DropOut");
    g_assert_cmpuint (n_shown (window), ==, want_big);
    for (guint i = 0; i < n_shown (window); i++)
      g_assert_nonnull (strstr (tm_allocation_row_get_op_name (shown_row (window, i)), "dropout"));
    tm_breakdown_view_set_hide_small (view, FALSE);
    g_assert_cmpuint (n_shown (window), ==, want_all);
    tm_breakdown_view_set_hide_small (view, TRUE);
    tm_breakdown_view_set_filter_text (view, NULL);
  }

  /* Switching memory ids updates cards and table. */
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      gtk_drop_down_set_selected (dropdown, i);
      g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, ids[i]);
      assert_cards_match (window, json_object_get_object_member (memory, ids[i]));
      assert_rows_match (window, json_object_get_object_member (memory, ids[i]));
    }
  g_assert_cmpuint (notified, ==, 4);

  tm_test_destroy_window (window);
}

static void
test_real_xprof_json (void)
{
  g_autofree char *path = tm_test_real_profile ("xprof_tpu_training.memory_profile.json");
  TmWindow *window;
  GtkDropDown *dropdown;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  window = tm_test_new_window ();
  dropdown = GTK_DROP_DOWN (tm_test_find_widget (window, "memory_dropdown"));
  open_and_wait (window, path);

  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_cmpint (tm_profile_get_format (tm_window_get_profile (window)), ==, TM_INPUT_FORMAT_XPROF_JSON);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *prefix = g_strdup_printf ("%u · ", i);

      g_assert_true (g_str_has_prefix (dropdown_item (window, i), prefix));
    }
  /* The banner says that only XProf's sampled points are there. */
  g_assert_true (gtk_widget_get_visible (tm_test_template_child (window, TM_TYPE_WINDOW, "sampled_banner")));
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==,
                    tm_profile_get_busiest_index (tm_window_get_profile (window)));

  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */
/* What a new user tripped over                                        */

/* The file chooser dialog (GtkFileChooserNative without a portal) whose
 * title is title, or NULL. */
static GtkWidget *
find_dialog (const char *title)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_visible (l->data) &&
        g_strcmp0 (gtk_window_get_title (l->data), title) == 0)
      return l->data;
  return NULL;
}

typedef struct
{
  const char *title;
  GtkWidget  *dialog;
} DialogWait;

static gboolean
dialog_shown (gpointer data)
{
  DialogWait *wait = data;

  return (wait->dialog = find_dialog (wait->title)) != NULL;
}

/* Every export of the main menu asks where to write; Export Scopes as
 * Collapsed Stacks… did nothing at all. */
static void
test_export_dialogs (void)
{
  const struct { const char *action; const char *title; } exports[] = {
    { "export-collapsed", "Export Scopes as Collapsed Stacks" },
    { "export-csv", "Export Table as CSV" },
    { "export-xprof-json", "Export XProf Memory Profile" },
    { "export-timeline-png", "Export Timeline as PNG" },
    { "export-timeline-svg", "Export Timeline as SVG" },
  };
  TmWindow *window = tm_test_new_window ();

  tm_test_open_and_wait (window, two_ids_path);
  for (guint i = 0; i < G_N_ELEMENTS (exports); i++)
    {
      DialogWait wait = { exports[i].title, NULL };

      g_test_message ("%s", exports[i].action);
      g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), exports[i].action));
      g_action_group_activate_action (G_ACTION_GROUP (window), exports[i].action, NULL);
      tm_test_iterate_until (dialog_shown, &wait);
      gtk_dialog_response (GTK_DIALOG (wait.dialog), GTK_RESPONSE_CANCEL);
      tm_test_iterate_for (20);
      g_assert_null (find_dialog (exports[i].title));
    }
  tm_test_destroy_window (window);
}

/* Another file starts without the last one's filter text, the table's
 * Never freed filter and the map's never-freed highlight and filter; a
 * reload keeps them. */
static void
test_next_file_filters (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *table = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  TmMemoryMap *map = TM_MEMORY_MAP (tm_test_find_widget (window, "memory_map"));
  GtkCheckButton *never_freed = tm_test_find_check (GTK_WIDGET (table), "_Never freed");

  g_assert_nonnull (never_freed);
  tm_test_open_and_wait (window, two_ids_path);
  tm_breakdown_view_set_filter_text (table, "alpha");
  gtk_check_button_set_active (never_freed, TRUE);
  tm_memory_map_set_highlight_never_freed (map, TRUE);
  tm_memory_map_set_never_freed_only (map, TRUE);

  tm_window_reload (window);
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_cmpstr (tm_breakdown_view_get_filter_text (table), ==, "alpha");
  g_assert_true (gtk_check_button_get_active (never_freed));
  g_assert_true (tm_memory_map_get_highlight_never_freed (map));
  g_assert_true (tm_memory_map_get_never_freed_only (map));

  tm_test_open_and_wait (window, xprof_example_path);
  g_assert_cmpstr (tm_breakdown_view_get_filter_text (table), ==, "");
  g_assert_false (gtk_check_button_get_active (never_freed));
  g_assert_false (tm_memory_map_get_highlight_never_freed (map));
  g_assert_false (tm_memory_map_get_never_freed_only (map));
  tm_test_destroy_window (window);
}

/* The start page names what opens, and a JSON Lines file of gathered
 * summaries is among the recent files like a profile. */
static void
test_start_page (void)
{
  g_autofree char *jsonl = g_build_filename (fixture_dir, "gathered.jsonl", NULL);
  g_autofree char *uri = NULL;
  TmWindow *window;
  GtkWidget *recent;
  const char *text;
  gboolean listed = FALSE;

  g_assert_true (g_file_set_contents (jsonl, "{}\n", -1, NULL));
  uri = g_filename_to_uri (jsonl, NULL, NULL);
  g_assert_true (gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri));
  tm_test_iterate_for (50);

  window = tm_test_new_window ();
  recent = tm_test_find_widget (window, "recent_list");
  {
    g_autoptr(GString) labels = g_string_new (NULL);

    tm_test_collect_label_text (recent, labels);
    listed = strstr (labels->str, "gathered.jsonl") != NULL;
  }
  g_assert_true (listed);

  text = gtk_label_get_label (GTK_LABEL (tm_test_find_widget (window, "start_description")));
  g_assert_nonnull (strstr (text, ".xplane.pb"));
  g_assert_nonnull (strstr (text, ".json"));
  g_assert_nonnull (strstr (text, ".jsonl"));
  g_assert_nonnull (strstr (text, ".pickle"));
  tm_test_destroy_window (window);
}

/* WCAG's contrast of two colours (their alpha ignored). */
static double
contrast (const GdkRGBA *a,
          const GdkRGBA *b)
{
  double l[2];
  const GdkRGBA *c[2] = { a, b };

  for (guint i = 0; i < 2; i++)
    {
      double rgb[3] = { c[i]->red, c[i]->green, c[i]->blue };

      for (guint k = 0; k < 3; k++)
        rgb[k] = rgb[k] <= 0.03928 ? rgb[k] / 12.92 : pow ((rgb[k] + 0.055) / 1.055, 2.4);
      l[i] = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    }
  return (MAX (l[0], l[1]) + 0.05) / (MIN (l[0], l[1]) + 0.05);
}

/* Error text (a failed host's row, the comparison bar) reads at 4.5:1 or
 * more on the window's and the lists' background, light and dark. */
static void
test_error_contrast (void)
{
  g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

  /* The application's style, as it loads it at startup. */
  gtk_css_provider_load_from_resource (css, RESOURCE_PREFIX "/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  for (guint dark = 0; dark < 2; dark++)
    {
      TmWindow *window;
      GtkWidget *label = gtk_label_new ("Could not compare");
      GtkStyleContext *context;
      GdkRGBA fg, bg, base;

      g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", (gboolean) dark, NULL);
      window = tm_test_new_window ();
      /* The window's profile page is where error text shows. */
      gtk_widget_add_css_class (label, "error");
      gtk_widget_insert_after (label, tm_test_find_widget (window, "profile_view"), NULL);
      tm_test_iterate_for (50);
      context = gtk_widget_get_style_context (label);
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      gtk_style_context_get_color (context, &fg);
      g_assert_true (gtk_style_context_lookup_color (context, "theme_bg_color", &bg));
      g_assert_true (gtk_style_context_lookup_color (context, "theme_base_color", &base));
      G_GNUC_END_IGNORE_DEPRECATIONS
      g_test_message ("dark %u: %.2f:1 on the window, %.2f:1 on lists", dark, contrast (&fg, &bg), contrast (&fg, &base));
      g_assert_cmpfloat (contrast (&fg, &bg), >=, 4.5);
      g_assert_cmpfloat (contrast (&fg, &base), >=, 4.5);
      gtk_widget_unparent (label);
      tm_test_destroy_window (window);
    }
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  gtk_style_context_remove_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css));
}

/* ------------------------------------------------------------------ */
/* Panes that keep their minimums                                      */

/* A TPU profile as JAX writes it: memory ids by device ordinal, 20 MiB of
 * stack reserved for the program, and n_modules XLA module runs on
 * "/device:TPU:0". */
static char *
write_tpu_profile (guint n_modules)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  TmFixtureLine *modules = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/device:TPU:0"), "XLA Modules", 0);
  gint64 heap = 0;

  for (guint i = 0; i < 200; i++)
    {
      TmFixtureMemory m = { 0 };
      gboolean alloc = i % 3 != 2;
      gint64 bytes = (gint64) (i % 7 + 1) * MIB;

      heap += alloc ? bytes : -bytes;
      heap = MAX (heap, 0);
      m.id_kind = TM_FIXTURE_MEMORY_ID_DEVICE_ORDINAL;
      m.memory_index = 0;
      m.bytes_reserved = 20 * MIB;
      m.bytes_allocated = heap;
      m.bytes_available = GIB - heap - 20 * MIB;
      m.peak_bytes_in_use = heap;
      m.requested_bytes = bytes;
      m.allocation_bytes = bytes;
      m.addr = 0x100000000 + (guint64) (i / 3) * 0x1000000;
      m.tf_op = "jit_train_step/dot_general";
      m.region_type = "output";
      m.data_type = 14;
      m.shape = "bf16[128,1024]";
      m.has_group_id = TRUE;
      m.group_id = i / 20;
      tm_fixture_line_add_memory_event (line, alloc, 1000000 + (gint64) i * 1000000, &m);
    }
  for (guint i = 0; i < n_modules; i++)
    {
      g_autofree char *name = g_strdup_printf ("jit_train_step_%u", i % 17);

      tm_fixture_line_add_event (modules, name, 1000000 + (gint64) i * 400000, 300000);
    }
  return write_space (space, "tpu.xplane.pb");
}

static gboolean
comparison_settled (gpointer data)
{
  return !tm_window_get_comparison_loading (data) && tm_window_get_comparison_message (data, NULL) != NULL;
}

static GtkWidget *
window_child (TmWindow   *window,
              const char *name)
{
  return tm_test_template_child (window, TM_TYPE_WINDOW, name);
}

/* ------------------------------------------------------------------ */
/* The room the charts get                                             */

static GtkWidget *
child (TmWindow   *window,
       const char *name)
{
  return tm_test_template_child (window, TM_TYPE_WINDOW, name);
}

/* Table → Scopes leaves the charts as they were; at 800 × 600 the usage
 * timeline and the table keep their minimums (the page scrolls) and the
 * memory map, with no room, says so where it would be. */
static void
test_panes_keep_minimums (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkWidget *timeline = tm_test_find_widget (window, "timeline");
  GtkStack *lower = GTK_STACK (window_child (window, "lower_stack"));
  int before, timeline_min, table_min;

  tm_test_open_and_wait (window, two_ids_path);
  before = gtk_widget_get_height (timeline);
  gtk_stack_set_visible_child_name (lower, "scopes");
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  g_assert_cmpint (gtk_widget_get_height (timeline), ==, before);
  gtk_stack_set_visible_child_name (lower, "table");

  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  gtk_widget_measure (timeline, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (timeline), &timeline_min, NULL, NULL, NULL);
  g_assert_cmpint (gtk_widget_get_height (timeline), >=, timeline_min);
  gtk_widget_measure (GTK_WIDGET (lower), GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (GTK_WIDGET (lower)), &table_min, NULL, NULL, NULL);
  g_assert_cmpint (table_min, >=, 180);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (lower)), >=, table_min);
  if (!gtk_widget_get_visible (tm_test_find_widget (window, "memory_map")))
    {
      g_assert_true (gtk_widget_get_visible (window_child (window, "map_placeholder")));
      g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (window_child (window, "map_placeholder_label"))), "No room"));
    }
  tm_test_destroy_window (window);
}

/* At 800 × 600, and at the default size, the Scopes and Allocations tabs
 * leave the charts as the table does: the usage timeline (and the memory
 * map when it shows) at their heights, at least their minimums, and the
 * lower pane its own, which does not grow when a tab is first shown and
 * filled (docs/ui.md, "Layout"). The real GPU profile too, when
 * TM_REAL_PROFILES is set. */
static void
test_panes_keep_minimums_in_tabs (void)
{
  static const int sizes[][2] = { { 800, 600 }, { 1200, 800 }, { 800, 600 }, { 1200, 800 } };
  static const char *pages[] = { "scopes", "allocations", "table" };
  g_autofree char *gpu = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      const char *path = k < 2 ? tour_path : gpu;

      TmWindow *window = tm_test_new_window ();
      GtkWidget *timeline = tm_test_find_widget (window, "timeline");
      GtkWidget *map = tm_test_find_widget (window, "memory_map");
      GtkStack *lower = GTK_STACK (window_child (window, "lower_stack"));
      int timeline_height, map_height, timeline_min, lower_min, lower_min_before;

      if (path == NULL)
        {
          tm_test_destroy_window (window);
          continue;
        }
      gtk_window_set_default_size (GTK_WINDOW (window), sizes[k][0], sizes[k][1]);
      tm_test_open_and_wait (window, path);
      tm_test_wait_layout_settled (GTK_WIDGET (window));
      timeline_height = gtk_widget_get_height (timeline);
      map_height = gtk_widget_get_mapped (map) ? gtk_widget_get_height (map) : 0;
      gtk_widget_measure (timeline, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (timeline), &timeline_min, NULL, NULL, NULL);
      g_assert_cmpint (timeline_height, >=, timeline_min);
      gtk_widget_measure (GTK_WIDGET (lower), GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (GTK_WIDGET (lower)),
                          &lower_min_before, NULL, NULL, NULL);
      for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
        {
          gtk_stack_set_visible_child_name (lower, pages[i]);
          tm_test_iterate_for (400);
          tm_test_wait_layout_settled (GTK_WIDGET (window));
          g_test_message ("%s, %d × %d, %s: timeline %d (min %d, with the table %d), map %d (with the table %d), lower %d",
                          k < 2 ? "tour" : "GPU", sizes[k][0], sizes[k][1], pages[i], gtk_widget_get_height (timeline), timeline_min,
                          timeline_height, gtk_widget_get_mapped (map) ? gtk_widget_get_height (map) : 0, map_height,
                          gtk_widget_get_height (GTK_WIDGET (lower)));
          g_assert_cmpint (gtk_widget_get_height (timeline), ==, timeline_height);
          g_assert_cmpint (gtk_widget_get_mapped (map) ? gtk_widget_get_height (map) : 0, ==, map_height);
          gtk_widget_measure (GTK_WIDGET (lower), GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (GTK_WIDGET (lower)),
                              &lower_min, NULL, NULL, NULL);
          g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (lower)), >=, lower_min);
          /* Shown and filled, a tab asks for what it asked before. */
          g_assert_cmpint (lower_min, ==, lower_min_before);
        }
      tm_test_destroy_window (window);
    }
}

/* A baseline that fails to load: its message takes at most three lines,
 * and the charts keep their height. */
static void
test_failed_baseline_bar (void)
{
  TmWindow *window = tm_test_new_window ();
  GtkWidget *timeline = tm_test_find_widget (window, "timeline");
  g_autofree char *missing = g_build_filename (fixture_dir,
                                               "a-baseline-with-a-very-long-name-that-does-not-exist-"
                                               "anywhere-on-this-machine-or-any-other-one.xplane.pb", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (missing);
  int before, window_min_before, window_min;

  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  tm_test_open_and_wait (window, two_ids_path);
  before = gtk_widget_get_height (timeline);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_VERTICAL, 800, &window_min_before, NULL, NULL, NULL);
  tm_window_compare_with_file (window, file);
  tm_test_iterate_until (comparison_settled, window);
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_VERTICAL, 800, &window_min, NULL, NULL, NULL);
  g_assert_cmpint (gtk_widget_get_height (timeline), ==, before);
  g_assert_cmpint (window_min, <=, window_min_before);
  tm_test_destroy_window (window);
}

/* The TPU profile's 414 HLO modules get a table of a few rows, not one,
 * and the memory map is there or says why it is not. */
static void
test_hlo_pane (void)
{
  g_autofree char *path = write_tpu_profile (414);
  TmWindow *window = tm_test_new_window ();
  GtkWidget *hlo = tm_test_find_widget (window, "hlo_view");

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  tm_test_open_and_wait (window, path);
  g_assert_true (gtk_widget_get_visible (hlo));
  g_assert_cmpint (gtk_widget_get_height (hlo), >=, 100);
  g_assert_true (gtk_widget_get_visible (tm_test_find_widget (window, "memory_map")) ||
                 gtk_widget_get_visible (window_child (window, "map_placeholder")));
  tm_test_destroy_window (window);
  tm_fixture_remove (path);
}

/* The user hides and shows the memory map, the HLO modules and the table;
 * the next window keeps the choice, and the panes' shares. */
static void
test_panes_hidden_and_kept (void)
{
  g_autoptr(GSettings) settings = tm_application_create_settings ();
  g_autofree char *path = write_tpu_profile (40);
  TmWindow *window;
  GtkWidget *map, *charts;
  int charts_before, position_before;

  if (settings == NULL)
    {
      g_test_skip ("the GSettings schema is not compiled");
      return;
    }

  /* What earlier windows left. */
  g_settings_reset (settings, "charts-share");
  g_settings_reset (settings, "timeline-share");
  g_settings_reset (settings, "hlo-share");
  window = tm_test_new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  map = tm_test_find_widget (window, "memory_map");
  charts = window_child (window, "timeline_area");
  tm_test_open_and_wait (window, path);
  /* Beside the HLO modules the map may have no room: it says so. */
  g_assert_true (gtk_widget_get_visible (map) || gtk_widget_get_visible (window_child (window, "map_placeholder")));

  /* The table hidden, the charts take its room: the map shows. */
  charts_before = gtk_widget_get_height (charts);
  position_before = gtk_paned_get_position (GTK_PANED (window_child (window, "paned")));
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-table", g_variant_new_boolean (FALSE));
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  g_assert_false (gtk_widget_get_visible (window_child (window, "lower_stack")));
  g_assert_false (g_settings_get_boolean (settings, "show-table"));
  g_assert_cmpint (gtk_widget_get_height (charts), >, charts_before);
  g_assert_true (gtk_widget_get_visible (map));
  g_assert_false (gtk_widget_get_visible (window_child (window, "map_placeholder")));

  /* The map hidden: a line says so, with a button to show it again. */
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-memory-map", g_variant_new_boolean (FALSE));
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  g_assert_false (gtk_widget_get_visible (map));
  g_assert_true (gtk_widget_get_visible (window_child (window, "map_placeholder")));
  g_assert_true (gtk_widget_get_visible (window_child (window, "map_placeholder_button")));
  g_assert_false (g_settings_get_boolean (settings, "show-memory-map"));

  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-hlo-modules", g_variant_new_boolean (FALSE));
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  g_assert_false (gtk_widget_get_visible (window_child (window, "hlo_box")));

  /* The table back, at the height it had. */
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-table", g_variant_new_boolean (TRUE));
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_visible (window_child (window, "lower_stack")));
  g_assert_cmpint (ABS (gtk_paned_get_position (GTK_PANED (window_child (window, "paned"))) - position_before), <=, 2);

  /* The divider over the table, dragged: kept with the choices. */
  gtk_paned_set_position (GTK_PANED (window_child (window, "paned")),
                          gtk_widget_get_height (window_child (window, "paned")) / 3);
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpfloat (ABS (g_settings_get_double (settings, "charts-share") - 1.0 / 3), <, 0.02);
  g_object_unref (window);

  window = tm_test_new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  tm_test_open_and_wait (window, path);
  g_assert_false (gtk_widget_get_visible (tm_test_find_widget (window, "memory_map")));
  g_assert_false (gtk_widget_get_visible (window_child (window, "hlo_box")));
  g_assert_cmpfloat (ABS ((double) gtk_paned_get_position (GTK_PANED (window_child (window, "paned"))) /
                          gtk_widget_get_height (window_child (window, "paned")) - 1.0 / 3), <, 0.02);
  tm_test_destroy_window (window);

  g_settings_reset (settings, "show-memory-map");
  g_settings_reset (settings, "show-hlo-modules");
  g_settings_reset (settings, "show-table");
  g_settings_reset (settings, "charts-share");
  g_settings_reset (settings, "timeline-share");
  g_settings_reset (settings, "hlo-share");
  tm_fixture_remove (path);
}

static gboolean
has_thai (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (g_utf8_get_char (p) >= 0x0e00 && g_utf8_get_char (p) <= 0x0e7f)
      return TRUE;
  return FALSE;
}

/* Thai shows no English word for these: the run overview's column, the
 * timeline's step and a protobuf field in errors. */
static void
test_thai_words (void)
{
  const struct { const char *msgid; const char *english; } words[] = {
    { "Memory id", "Memory" },
    { "Memory ID", "Memory" },
    { "Step %s · region %s · %s %s", "Step" },
    { "field %u has wire type %u (%s) at byte %zu", "field" },
    { "field %u has wire type %u (%s) at byte %zu: %s", "field" },
  };

  tm_test_use_thai (TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      const char *thai = g_dgettext (GETTEXT_PACKAGE, words[i].msgid);

      g_test_message ("%s → %s", words[i].msgid, thai);
      g_assert_true (has_thai (thai));
      g_assert_null (strstr (thai, words[i].english));
    }
  {
    const char *thai = g_dngettext (GETTEXT_PACKAGE,
                                    "length runs past the end at byte %zu: a field claims %" G_GUINT64_FORMAT " byte but the file ends at byte %zu",
                                    "length runs past the end at byte %zu: a field claims %" G_GUINT64_FORMAT " bytes but the file ends at byte %zu",
                                    2);

    g_test_message ("%s", thai);
    g_assert_null (strstr (thai, "field"));
  }
  tm_test_use_thai (FALSE);
}

static int
min_height (GtkWidget *widget)
{
  int minimum = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (widget),
                      &minimum, NULL, NULL, NULL);
  /* The allocation is inside the margins the measure counts. */
  return minimum - gtk_widget_get_margin_top (widget) - gtk_widget_get_margin_bottom (widget);
}

/* A chart is never given less than its minimum height, where GtkPaned
 * would shift it up and cut its top off. */
static void
assert_charts_whole (TmWindow *window)
{
  GtkWidget *timeline = child (window, "timeline");
  GtkWidget *map = child (window, "memory_map");

  g_assert_cmpint (gtk_widget_get_height (timeline), >=, min_height (timeline));
  if (gtk_widget_get_visible (map))
    g_assert_cmpint (gtk_widget_get_height (map), >=, min_height (map));
}

/* Earlier tests (settings, application-open) close windows, which saves
 * their size and pane shares: start the layout tests from the defaults. */
static void
reset_layout_settings (void)
{
  g_autoptr(GSettings) settings = tm_application_create_settings ();
  const char *keys[] = { "window-width", "window-height", "window-maximized",
                         "charts-share", "timeline-share" };

  if (settings == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
}

static void
test_layout (void)
{
  g_autofree char *gpu = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  TmWindow *window = tm_test_new_window ();
  GtkPaned *paned, *chart_paned;
  TmTimelineLayout layout;
  int paned_h, chart_h, kept;

  reset_layout_settings ();
  /* The default size (as without a window manager). */
  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, tour_path);
  tm_test_iterate_for (400);
  paned = GTK_PANED (child (window, "paned"));
  chart_paned = GTK_PANED (child (window, "chart_paned"));

  /* The charts get about 60 % of the outer paned, the usage timeline
   * about 55 % of the charts. */
  paned_h = gtk_widget_get_height (GTK_WIDGET (paned));
  chart_h = gtk_widget_get_height (GTK_WIDGET (chart_paned));
  g_test_message ("paned %d at %d; chart paned %d at %d", paned_h, gtk_paned_get_position (paned),
                  chart_h, gtk_paned_get_position (chart_paned));
  g_assert_cmpint (gtk_paned_get_position (paned), >=, paned_h * 55 / 100);
  g_assert_cmpint (gtk_paned_get_position (paned), <=, paned_h * 65 / 100);
  g_assert_cmpint (gtk_paned_get_position (chart_paned), >=, chart_h * 50 / 100);
  g_assert_cmpint (gtk_paned_get_position (chart_paned), <=, chart_h * 60 / 100);
  /* The HLO table takes its share of the charts here (the memory map may
   * give way to it). */
  tm_timeline_get_layout (TM_TIMELINE (child (window, "timeline")), &layout);
  g_assert_cmpfloat (layout.plot.size.height, >=, 70);
  assert_charts_whole (window);

  /* Without HLO modules, both charts have room to read. */
  if (gpu != NULL)
    {
      tm_test_open_and_wait (window, gpu);
      /* Settled: the map's room is decided in an idle after a frame. */
      tm_test_iterate_for (400);
      tm_timeline_get_layout (TM_TIMELINE (child (window, "timeline")), &layout);
      g_test_message ("GPU: plot %g, map %d", layout.plot.size.height,
                      gtk_widget_get_height (child (window, "memory_map")));
      g_assert_cmpfloat (layout.plot.size.height, >=, 110);
      g_assert_true (gtk_widget_get_visible (child (window, "memory_map")));
      g_assert_cmpint (gtk_widget_get_height (child (window, "memory_map")), >=, 120);
      assert_charts_whole (window);
    }

  /* A position the user chose stays when the window grows (scaled with
   * it), and is not reset to the default share. */
  gtk_paned_set_position (paned, paned_h * 45 / 100);
  tm_test_iterate_for (100);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  tm_test_iterate_for (300);
  kept = gtk_paned_get_position (paned) * 100 / gtk_widget_get_height (GTK_WIDGET (paned));
  g_assert_cmpint (kept, >=, 42);
  g_assert_cmpint (kept, <=, 48);
  assert_charts_whole (window);

  /* At 800 × 600 the map gives way rather than cutting either chart. */
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  tm_test_iterate_for (300);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, 600);
  assert_charts_whole (window);

  tm_test_destroy_window (window);
}

/* The shares are saved with the window state and used by the next window. */
static void
test_layout_saved (void)
{
  g_autoptr(GSettings) settings = tm_application_create_settings ();
  TmWindow *window;
  GtkPaned *paned;
  int paned_h;

  g_assert_nonnull (settings);
  g_settings_set_double (settings, "charts-share", 0.64);

  window = tm_test_new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, tour_path);
  paned = GTK_PANED (child (window, "paned"));
  paned_h = gtk_widget_get_height (GTK_WIDGET (paned));
  g_assert_cmpint (gtk_paned_get_position (paned), >=, paned_h * 62 / 100);
  g_assert_cmpint (gtk_paned_get_position (paned), <=, paned_h * 66 / 100);

  /* Moved and closed: saved. */
  gtk_paned_set_position (paned, paned_h / 2);
  tm_test_iterate_for (100);
  gtk_window_close (GTK_WINDOW (window));
  tm_test_iterate_for (50);
  g_assert_cmpfloat_with_epsilon (g_settings_get_double (settings, "charts-share"), 0.5, 0.02);
  g_object_unref (window);

  g_settings_reset (settings, "charts-share");
}

/* ------------------------------------------------------------------ */
/* Recent files                                                        */

/* ------------------------------------------------------------------ */
/* 800 × 600, dark and Thai                                            */

static void
set_dark (gboolean dark)
{
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
}

static void
assert_fits_800_600 (const char *path,
                     gboolean    thai,
                     gboolean    dark)
{
  TmWindow *window;
  int min_w, min_h, nat;

  tm_test_use_thai (thai);
  set_dark (dark);
  window = tm_test_new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  tm_test_open_and_wait (window, path);

  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat, NULL, NULL);
  /* The toplevel's minimum height is the one for its minimum width. */
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_VERTICAL, min_w, &min_h, &nat, NULL, NULL);
  g_test_message ("%s%s%s: minimum %d × %d", path, thai ? " (Thai)" : "", dark ? " (dark)" : "", min_w, min_h);
  g_assert_cmpint (min_w, <=, 800);
  g_assert_cmpint (min_h, <=, 600);

  /* Opening a file does not make the window grow by itself. */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 800);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, 600);

  /* And the usage timeline is there, at its minimum at least (the page
   * scrolls rather than squeeze it), whatever banners and notes come
   * above it. */
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  g_test_message ("timeline %d px (minimum %d), mapped %d", gtk_widget_get_height (child (window, "timeline")),
                  min_height (child (window, "timeline")), gtk_widget_get_mapped (child (window, "timeline")));
  g_assert_true (gtk_widget_get_mapped (child (window, "timeline")));
  assert_charts_whole (window);

  tm_test_destroy_window (window);
  tm_test_use_thai (FALSE);
  set_dark (FALSE);
}

/* Opened at the default size, then made 800 × 600: the usage timeline
 * keeps its minimum there too, whatever banners and notes are above. */
static void
assert_shrinks_to_800_600 (const char *path)
{
  TmWindow *window = tm_test_new_window ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, path);
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  g_test_message ("%s shrunk: timeline %d px (minimum %d), mapped %d, charts %d, paned %d at %d",
                  path, gtk_widget_get_height (child (window, "timeline")), min_height (child (window, "timeline")),
                  gtk_widget_get_mapped (child (window, "timeline")),
                  gtk_widget_get_height (child (window, "chart_scroller")),
                  gtk_widget_get_height (child (window, "paned")), gtk_paned_get_position (GTK_PANED (child (window, "paned"))));
  g_assert_true (gtk_widget_get_mapped (child (window, "timeline")));
  assert_charts_whole (window);
  tm_test_destroy_window (window);
}

/* Short windows, opened at that size: however little room the banners,
 * the cards and the notes leave, the usage timeline keeps its minimum
 * (the page scrolls); the chart area never starts at no height and stays
 * there. */
static void
test_short_windows (void)
{
  static const int heights[] = { 600, 520, 460, 400, 340, 280 };
  const char *paths[] = { xprof_example_path, tour_path };
  g_autoptr(GSettings) settings = tm_application_create_settings ();

  g_assert_nonnull (settings);
  for (guint p = 0; p < G_N_ELEMENTS (paths) * 2; p++)
    for (guint i = 0; i < G_N_ELEMENTS (heights); i++)
      {
        TmWindow *window;

        /* Then with the charts' divider left at the top last time: the
         * charts start at their minimum. */
        g_settings_set_double (settings, "charts-share", p < G_N_ELEMENTS (paths) ? 0.6 : 0.05);
        window = tm_test_new_window ();

        gtk_window_set_default_size (GTK_WINDOW (window), 800, heights[i]);
        tm_test_open_and_wait (window, paths[p % G_N_ELEMENTS (paths)]);
        tm_test_wait_layout_settled (GTK_WIDGET (window));
        tm_test_iterate_for (100);
        g_test_message ("800 × %d: timeline %d px (minimum %d), charts %d", heights[i],
                        gtk_widget_get_height (child (window, "timeline")), min_height (child (window, "timeline")),
                        gtk_widget_get_height (child (window, "chart_scroller")));
        g_assert_true (gtk_widget_get_mapped (child (window, "timeline")));
        assert_charts_whole (window);
        g_assert_cmpint (gtk_widget_get_height (child (window, "chart_scroller")), >=, min_height (child (window, "timeline")));
        tm_test_destroy_window (window);
      }
  g_settings_reset (settings, "charts-share");
}

static void
test_window_800_600 (void)
{
  g_autofree char *gpu = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_autofree char *tpu = tm_test_real_profile ("xprof_tpu_training.memory_profile.json");

  assert_fits_800_600 (tour_path, FALSE, FALSE);
  assert_fits_800_600 (tour_path, TRUE, FALSE);
  assert_shrinks_to_800_600 (tour_path);
  if (gpu == NULL || tpu == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }
  assert_fits_800_600 (gpu, FALSE, FALSE);
  assert_fits_800_600 (gpu, FALSE, TRUE);
  assert_fits_800_600 (gpu, TRUE, FALSE);
  assert_fits_800_600 (tpu, FALSE, FALSE);
  assert_shrinks_to_800_600 (gpu);
  assert_shrinks_to_800_600 (tpu);
  assert_fits_800_600 (tpu, TRUE, TRUE);
}

static gboolean
is_unused_preallocated (TmAllocationRow *row)
{
  return g_str_equal (tm_allocation_row_get_op_name (row), "unused preallocated device memory");
}

static void
test_thai (void)
{
  TmWindow *window;
  TmBreakdownView *view;
  TmAllocationRow *row;
  GtkColumnView *column_view;
  g_autoptr(GtkColumnViewColumn) shape = NULL;
  GtkWidget *detail;
  const char *exe = g_getenv ("TM_TIDEMARK_EXE");

  /* The program run from the build tree speaks Thai. */
  if (exe != NULL)
    {
      g_autofree char *err = NULL;
      g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "LANGUAGE", "th", TRUE);
      int status;

      env = g_environ_setenv (env, "LC_ALL", "C.UTF-8", TRUE);
      env = g_environ_unsetenv (env, "TIDEMARK_LOCALEDIR");
      g_assert_true (g_spawn_sync (NULL, (char *[]) { (char *) exe, "--export=bogus", "x", NULL }, env,
                                   G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, NULL));
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, "รับค่า"));
    }

  tm_test_use_thai (TRUE);
  window = tm_test_new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  tm_test_open_and_wait (window, tour_path);
  view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));

  /* The special row at the peak is translated. */
  row = tm_test_find_row (view, is_unused_preallocated);
  g_assert_nonnull (row);
  g_assert_cmpstr (tm_allocation_row_get_display_name (row), !=, "unused preallocated device memory");

  /* So is the Shape column. */
  column_view = tm_breakdown_view_get_column_view (view);
  shape = g_list_model_get_item (gtk_column_view_get_columns (column_view), 6);
  g_assert_cmpstr (gtk_column_view_column_get_title (shape), !=, "Shape");

  /* And every column of the Allocations tab, its Shape as the table's. */
  {
    static const char *english[] = { "Op Name", "Size", "Region", "Data Type", "Shape", "Address",
                                     "Allocated At", "Freed At", "Lifetime" };
    GtkColumnView *list = tm_allocations_view_get_column_view (TM_ALLOCATIONS_VIEW (tm_test_find_widget (window, "allocations_view")));
    GListModel *columns = gtk_column_view_get_columns (list);

    g_assert_cmpuint (g_list_model_get_n_items (columns), ==, G_N_ELEMENTS (english));
    for (guint i = 0; i < G_N_ELEMENTS (english); i++)
      {
        g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

        g_test_message ("Allocations column %s: %s", english[i], gtk_column_view_column_get_title (column));
        g_assert_cmpstr (gtk_column_view_column_get_title (column), !=, english[i]);
        if (g_str_equal (english[i], "Shape"))
          g_assert_cmpstr (gtk_column_view_column_get_title (column), ==, gtk_column_view_column_get_title (shape));
      }
  }

  /* The Lifetime Peak Heap subtitle is whole at 800 × 600. */
  tm_test_iterate_for (100);
  detail = tm_test_template_child (TM_SUMMARY_CARDS (tm_test_find_widget (window, "summary_cards")), g_type_from_name ("TmSummaryCards"), "lifetime_detail");
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (detail))));

  tm_test_destroy_window (window);
  tm_test_use_thai (FALSE);
}

/* ------------------------------------------------------------------ */
/* Keys and the focus ring                                             */

static gboolean
focus_ring_drawn (TmTimeline *timeline)
{
  GtkWidget *widget = GTK_WIDGET (timeline);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *data = NULL;
  TmTimelineLayout layout;
  int x, y;
  guchar *px;

  /* What the widget draws on screen, overlay included. */
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 1, 1, 1, 1 }, &GRAPHENE_RECT_INIT (0, 0, width, height));
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_renderer_unrealize (renderer);
  data = g_malloc (width * height * 4);
  gdk_texture_download (texture, data, width * 4);

  /* The ring runs just outside the plot's top edge, in the accent. */
  tm_timeline_get_layout (timeline, &layout);
  x = (int) (layout.plot.origin.x + layout.plot.size.width / 2);
  y = (int) layout.plot.origin.y - 1;
  px = data + (gsize) y * width * 4 + (gsize) x * 4;
  return px[3] > 0 && px[0] > px[2] + 40;   /* blue over red: the accent */
}

static void
test_keys (void)
{
  TmWindow *window = tm_test_new_window ();
  TmBreakdownView *view;
  TmTimeline *timeline;
  TmViewport *viewport;
  GtkWidget *entry;
  gint64 span;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  tm_test_open_and_wait (window, tour_path);
  view = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  timeline = TM_TIMELINE (tm_test_template_child (window, TM_TYPE_WINDOW, "timeline"));
  viewport = tm_session_get_viewport (tm_window_get_session (window));

  /* Typing in the table does not go into the filter ("+" zooms). */
  entry = tm_test_template_child (view, TM_TYPE_BREAKDOWN_VIEW, "search_entry");
  g_assert_null (gtk_search_entry_get_key_capture_widget (GTK_SEARCH_ENTRY (entry)));

  /* Zoom keys work with the table focused: the window's actions. */
  gtk_widget_grab_focus (GTK_WIDGET (tm_breakdown_view_get_column_view (view)));
  span = tm_viewport_get_span (viewport);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-in", NULL));
  g_assert_cmpint (tm_viewport_get_span (viewport), <, span);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-reset", NULL));
  g_assert_cmpint (tm_viewport_get_span (viewport), ==, span);

  /* A focused timeline shows a focus ring, a clicked one too. */
  g_assert_false (focus_ring_drawn (timeline));
  gtk_widget_grab_focus (GTK_WIDGET (timeline));
  tm_test_iterate_for (50);
  g_assert_true (focus_ring_drawn (timeline));

  tm_test_destroy_window (window);
}

/* Where the focus goes when the page of a tab is shown. */
static GtkWidget *
focus_on_showing (TmWindow   *window,
                  const char *page)
{
  GtkStack *lower = GTK_STACK (window_child (window, "lower_stack"));
  TmBreakdownView *table = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  GtkWidget *focus;

  gtk_stack_set_visible_child_name (lower, "table");
  gtk_widget_grab_focus (GTK_WIDGET (tm_breakdown_view_get_column_view (table)));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), GTK_WIDGET (lower)));
  gtk_stack_set_visible_child_name (lower, page);
  tm_test_iterate_for (50);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_test_message ("%s: the focus is on a %s", page, G_OBJECT_TYPE_NAME (focus));
  g_assert_true (gtk_widget_is_ancestor (focus, gtk_stack_get_child_by_name (lower, page)));
  return focus;
}

/* The capture-phase shortcut of widget for trigger, or NULL. */
static GtkShortcut *
capture_shortcut (GtkWidget  *widget,
                  const char *trigger)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller) ||
          gtk_event_controller_get_propagation_phase (controller) != GTK_PHASE_CAPTURE)
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);
          g_autofree char *text = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

          if (g_str_equal (text, trigger))
            return shortcut;
        }
    }
  return NULL;
}

/* The Scopes and Allocations tabs, shown while the focus is on the table,
 * put it on their list (or, while the list is not there yet, on a control
 * that is not text), never in their search entry, which would take the
 * zoom keys; in the scope tree, + and − zoom before its expanders take
 * them (docs/ui.md, "Keys"). */
static void
test_keys_in_tabs (void)
{
  TmWindow *window = tm_test_new_window ();
  TmViewport *viewport;
  GtkWidget *tree, *focus;
  GtkShortcut *plus, *minus;
  gint64 span;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  tm_test_open_and_wait (window, tour_path);
  viewport = tm_session_get_viewport (tm_window_get_session (window));
  tree = GTK_WIDGET (tm_scope_view_get_column_view (TM_SCOPE_VIEW (tm_test_find_widget (window, "scope_view"))));

  for (guint round = 0; round < 2; round++)
    {
      focus = focus_on_showing (window, "scopes");
      g_assert_false (GTK_IS_EDITABLE (focus));
      g_assert_null (gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY));
      g_assert_true (gtk_widget_is_ancestor (focus, tree));
      focus = focus_on_showing (window, "allocations");
      g_assert_false (GTK_IS_EDITABLE (focus));
      g_assert_null (gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY));
      /* Its list comes once the tab is shown. */
      tm_test_iterate_for (300);
    }

  /* The scope tree: + and − are the window's zoom keys before the
   * expanders' (which would expand and collapse). */
  plus = capture_shortcut (tree, "plus");
  minus = capture_shortcut (tree, "minus");
  g_assert_nonnull (plus);
  g_assert_nonnull (minus);
  g_assert_null (capture_shortcut (tree, "Home"));
  span = tm_viewport_get_span (viewport);
  g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (plus), GTK_SHORTCUT_ACTION_EXCLUSIVE, tree, NULL));
  g_assert_cmpint (tm_viewport_get_span (viewport), <, span);
  g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (minus), GTK_SHORTCUT_ACTION_EXCLUSIVE, tree, NULL));
  g_assert_cmpint (tm_viewport_get_span (viewport), ==, span);

  tm_test_destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *schema_dir = NULL;
  g_autofree char *data_home = NULL;
  const char *builddir = g_getenv ("G_TEST_BUILDDIR");
  int status;

  /* Use the schema compiled in the build tree, so that the settings
   * (hide small allocations by default) are exercised. */
  if (builddir != NULL)
    {
      g_autofree char *compiled = NULL;

      schema_dir = g_build_filename (builddir, "..", "data", NULL);
      compiled = g_build_filename (schema_dir, "gschemas.compiled", NULL);
      if (g_file_test (compiled, G_FILE_TEST_EXISTS) && g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
        g_setenv ("GSETTINGS_SCHEMA_DIR", schema_dir, TRUE);
    }
  data_home = tm_test_gui_init (&argc, &argv);

  write_fixtures ();

  g_test_add_func ("/window/empty-state", test_empty_state);
  g_test_add_func ("/window/error-state/fixture", test_error_state_fixture);
  g_test_add_func ("/window/error-state/real", test_error_state_real);
  g_test_add_func ("/window/error-state/missing-file", test_missing_file);
  g_test_add_func ("/window/no-data-state", test_no_data_state);
  g_test_add_func ("/window/two-memory-ids", test_two_memory_ids);
  g_test_add_func ("/window/busiest-first", test_busiest_first);
  g_test_add_func ("/window/hide-small-rows", test_hide_small_rows);
  g_test_add_func ("/window/never-freed-pending", test_never_freed_pending);
  g_test_add_func ("/window/live-at-time", test_live_at_time);
  g_test_add_func ("/window/copy-rows", test_copy_rows);
  g_test_add_func ("/window/many-rows", test_many_rows);
  g_test_add_func ("/window/cancel-and-replace", test_cancel_and_replace);
  g_test_add_func ("/window/file-changed", test_file_changed);
  /* Before /window/application-open, which loads the application's
   * style sheet into the process (as test-polish.c ran them). */
  g_test_add_func ("/window/layout", test_layout);
  g_test_add_func ("/window/layout-saved", test_layout_saved);
  g_test_add_func ("/window/800-600", test_window_800_600);
  g_test_add_func ("/window/short-windows", test_short_windows);
  g_test_add_func ("/window/thai", test_thai);
  g_test_add_func ("/window/keys", test_keys);
  g_test_add_func ("/window/keys-in-tabs", test_keys_in_tabs);
  g_test_add_func ("/window/settings", test_settings);
  g_test_add_func ("/window/application-open", test_application_open);
  g_test_add_func ("/window/real/gpu-profile", test_real_gpu_profile);
  g_test_add_func ("/window/real/xprof-json", test_real_xprof_json);
  g_test_add_func ("/window/export-dialogs", test_export_dialogs);
  g_test_add_func ("/window/next-file-filters", test_next_file_filters);
  g_test_add_func ("/window/start-page", test_start_page);
  g_test_add_func ("/window/error-contrast", test_error_contrast);
  g_test_add_func ("/window/thai-words", test_thai_words);
  g_test_add_func ("/window/panes-keep-minimums", test_panes_keep_minimums);
  g_test_add_func ("/window/panes-keep-minimums-in-tabs", test_panes_keep_minimums_in_tabs);
  g_test_add_func ("/window/failed-baseline-bar", test_failed_baseline_bar);
  g_test_add_func ("/window/hlo-pane", test_hlo_pane);
  g_test_add_func ("/window/panes-hidden-and-kept", test_panes_hidden_and_kept);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);

  return status;
}
