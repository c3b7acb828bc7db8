/* test-data-notes.c — what the data cannot tell, said once under the
 * cards: a TPU's stack, a profile without op names; nothing for a profile
 * that tells it all; under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "tm-data-notes.h"
#include "tm-gui-test-util.h"
#include "tm-test-util.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)

static char *fixture_dir;

/* One memory id of 30 allocations of 1 MiB; with stack_bytes of stack
 * (a TPU program's reservation, by device ordinal) and ops named or not. */
static char *
write_profile (const char *basename,
               gint64      stack_bytes,
               gboolean    named)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  g_autoptr(GError) error = NULL;
  char *path;

  for (guint i = 0; i < 30; i++)
    {
      TmFixtureMemory m = { 0 };

      if (stack_bytes > 0)
        {
          m.id_kind = TM_FIXTURE_MEMORY_ID_DEVICE_ORDINAL;
          m.memory_index = 0;
        }
      else
        m.allocator_name = "GPU_0_bfc";
      m.bytes_reserved = stack_bytes;
      m.bytes_allocated = (gint64) (i + 1) * MIB;
      m.bytes_available = 1024 * MIB;
      m.peak_bytes_in_use = (gint64) (i + 1) * MIB;
      m.requested_bytes = MIB;
      m.allocation_bytes = MIB;
      m.addr = 0x100000 * (guint64) (i + 1);
      m.tf_op = named ? "model/dense/MatMul" : NULL;
      m.data_type = named ? 1 : 0;
      m.has_group_id = TRUE;
      m.group_id = 0;
      tm_fixture_line_add_memory_event (line, TRUE, 1000000 * (gint64) (i + 1), &m);
    }
  path = tm_fixture_space_write (space, fixture_dir, basename, &error);
  g_assert_no_error (error);
  return path;
}

static GStrv
notes_of (const char *path)
{
  TmWindow *window = tm_test_new_window ();
  TmDataNotes *notes = TM_DATA_NOTES (tm_test_find_widget (window, "data_notes"));
  GStrv shown;

  tm_test_open_and_wait (window, path);
  tm_test_wait_allocations (tm_window_get_session (window));
  tm_test_iterate_for (20);
  shown = tm_data_notes_dup_notes (notes);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (notes)) == (shown[0] != NULL));
  tm_test_destroy_window (window);
  return shown;
}

/* On TPU the peak is much "stack": a line says it is what XLA reserved for
 * the program, and why it is flat. */
static void
test_tpu_stack (void)
{
  g_autofree char *path = write_profile ("tpu.xplane.pb", 20 * 1024 * MIB, TRUE);
  g_auto(GStrv) notes = notes_of (path);

  g_assert_cmpuint (g_strv_length (notes), ==, 1);
  g_assert_true (g_str_has_prefix (notes[0], "20.0 GiB of the peak is “stack”"));
  g_assert_nonnull (strstr (notes[0], "XLA reserves for the whole program"));
  g_assert_nonnull (strstr (notes[0], "flat"));
  g_remove (path);
}

/* Without op names (JAX on AMD GPUs): said once, with what gives them. */
static void
test_no_op_names (void)
{
  g_autofree char *path = write_profile ("rocm.xplane.pb", 0, FALSE);
  g_auto(GStrv) notes = notes_of (path);

  g_assert_cmpuint (g_strv_length (notes), ==, 1);
  g_assert_true (g_str_has_prefix (notes[0], "This profile’s memory events carry no op names"));
  g_assert_nonnull (strstr (notes[0], "TensorFlow"));
  g_remove (path);
}

/* A profile that tells it all: nothing to say. */
static void
test_nothing (void)
{
  g_autofree char *path = write_profile ("gpu.xplane.pb", 0, TRUE);
  g_auto(GStrv) notes = notes_of (path);

  g_assert_cmpuint (g_strv_length (notes), ==, 0);
  g_remove (path);
}

/* The real profiles: the AMD one names no op, the GPU one is silent. */
static void
test_real (void)
{
  g_autofree char *amd = tm_test_real_profile ("jax_rocm_mi300x_conv.xplane.pb");
  g_autofree char *gpu = NULL;
  g_auto(GStrv) amd_notes = NULL;
  g_auto(GStrv) gpu_notes = NULL;

  if (amd == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }
  gpu = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  amd_notes = notes_of (amd);
  g_assert_cmpuint (g_strv_length (amd_notes), ==, 1);
  g_assert_true (g_str_has_prefix (amd_notes[0], "This profile’s memory events carry no op names"));
  gpu_notes = notes_of (gpu);
  g_assert_cmpuint (g_strv_length (gpu_notes), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  data_home = tm_test_gui_init (&argc, &argv);
  fixture_dir = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);

  g_test_add_func ("/data-notes/tpu-stack", test_tpu_stack);
  g_test_add_func ("/data-notes/no-op-names", test_no_op_names);
  g_test_add_func ("/data-notes/nothing", test_nothing);
  g_test_add_func ("/data-notes/real", test_real);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);
  return status;
}
