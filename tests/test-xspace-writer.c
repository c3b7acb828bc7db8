/* test-xspace-writer.c — memory-only profiles read exactly as the original
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/formats.md, section 4: what the file holds (checked by decoding it with
 * protobuf-c), the round trip (XProf JSON and summary JSON equal byte for
 * byte), files that are not XSpace, cancelling, the command line, and the
 * real GPU profile when TM_REAL_PROFILES is set.
 */
#include "config.h"

#include <string.h>
#include <sys/wait.h>

#include "tm-error.h"
#include "tm-test-util.h"
#include "tm-xspace-writer.h"
#include "xplane.pb-c.h"

typedef Tensorflow__Profiler__XSpace XSpace;
typedef Tensorflow__Profiler__XPlane XPlane;

static const char * const memory_stat_names[] = {
  "allocator_name", "index_on_host", "device_ordinal", "bytes_reserved", "bytes_allocated",
  "bytes_available", "fragmentation", "peak_bytes_in_use", "requested_bytes", "allocation_bytes",
  "addr", "tf_op", "group_id", "region_type", "data_type", "shape",
};

static TmFixtureMemory
memory_at (guint          i,
           TmFixtureMemoryFlags flags)
{
  TmFixtureMemory m = { 0 };

  m.id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME;
  m.allocator_name = i % 3 == 0 ? "GPU_0_bfc" : "gpu_host_bfc";
  m.bytes_reserved = 1000 + i;
  m.bytes_allocated = 5000 + 37 * (gint64) ((i * 7) % 11);
  m.bytes_available = 9000 - 10 * (gint64) i;
  m.fragmentation = 0.125 * (i % 5);
  m.peak_bytes_in_use = 20000 + (gint64) i;
  m.requested_bytes = 100 + (gint64) i;
  m.allocation_bytes = 128 + (gint64) i;
  m.addr = 0x7f0000 + 256 * (i % 4);
  m.tf_op = i % 2 == 0 ? "model/dense/MatMul" : "model/conv/Conv2D";
  m.has_group_id = i % 4 != 0;
  m.group_id = 10 + i / 3;
  m.region_type = i % 2 == 0 ? "output" : "temp";
  m.data_type = (gint64) (i % 20);
  m.shape = "[3, 3, 64]";
  m.flags = flags;
  return m;
}

/* A host plane with memory events out of time order on three lines with
 * different timestamps (the earliest line has no memory event at all),
 * strings as str_value and ref_value, events and stats the memory profile
 * does not read; a second host plane, a GPU plane and two TPU planes with
 * modules and other lines. */
static TmFixtureSpace *
make_space (void)
{
  TmFixtureSpace *space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
  TmFixtureLine *early = tm_fixture_plane_add_line (host, "python", 900);
  TmFixtureLine *a = tm_fixture_plane_add_line (host, "tf_Compute/1", 1000);
  TmFixtureLine *b = tm_fixture_plane_add_line (host, "tf_Compute/2", 1003);
  TmFixtureLine *none = tm_fixture_plane_add_line (host, "tf_data", 1001);
  TmFixturePlane *other;
  TmFixtureEvent *ev;

  tm_fixture_space_add_hostname (space, "worker-0");
  tm_fixture_plane_add_stat (host, &TM_FIXTURE_STR ("host_name", "worker-0"));
  tm_fixture_line_add_event (early, "PyFunc", 10, 5000);
  tm_fixture_line_add_event (none, "IteratorGetNext", 70, 30);

  for (guint i = 0; i < 24; i++)
    {
      TmFixtureMemory m = memory_at (i, i % 2 == 0 ? TM_FIXTURE_MEMORY_STRINGS_AS_REF : TM_FIXTURE_MEMORY_DEFAULT);
      TmFixtureLine *line = i % 3 == 1 ? b : a;
      /* Out of time order, in a line and across lines. */
      gint64 t = 1000000 + (gint64) ((i * 5) % 24) * 7919;

      ev = tm_fixture_line_add_memory_event (line, i % 4 != 3, t, &m);
      if (i % 5 == 0)
        tm_fixture_event_add_str (ev, "long_name", "not read by the memory profile");
      if (i % 7 == 0)
        tm_fixture_event_add_ref (ev, "kernel_details", "a string nobody reads");
      tm_fixture_line_add_event (line, "Executor::Run", t + 3, 400);
    }

  /* An allocator known by its index, with a memory id stat given twice. */
  for (guint i = 0; i < 5; i++)
    {
      TmFixtureMemory m = memory_at (i, TM_FIXTURE_MEMORY_NUMBERS_AS_UINT64);

      m.id_kind = TM_FIXTURE_MEMORY_ID_INDEX_ON_HOST;
      m.memory_index = 1;
      ev = tm_fixture_line_add_memory_event (b, TRUE, 2000000 - 1000 * (gint64) i, &m);
      if (i == 2)
        tm_fixture_event_add_int64 (ev, "device_ordinal", 2);
    }

  /* A second host plane: the reader ignores it. */
  other = tm_fixture_space_add_plane (space, "/host:CPU");
  tm_fixture_line_add_memory_event (tm_fixture_plane_add_line (other, "x", 0), TRUE, 5,
                                    &(TmFixtureMemory) { .allocator_name = "ignored_bfc", .bytes_allocated = 1 });

  other = tm_fixture_space_add_plane (space, "/device:GPU:0");
  tm_fixture_line_add_event (tm_fixture_plane_add_line (other, "Stream #1", 0), "volta_sgemm", 100, 50);

  tm_fixture_space_add_hlo_module (space, 0, "jit_train_step(1)", 1000, 90000);
  tm_fixture_space_add_hlo_module (space, 0, "jit_eval(2)", 95000, 99000);
  tm_fixture_space_add_hlo_module (space, 1, "jit_train_step(1)", 1200, 91000);
  tm_fixture_line_add_event (tm_fixture_plane_get_line (tm_fixture_space_get_plane (space, "/device:TPU:1"),
                                                        "XLA Ops", 0), "fusion.1", 10, 20);
  return space;
}

static char *
write_space (TmFixtureSpace    *space,
             TmFixtureOddFlags  odd,
             const char        *basename)
{
  g_autoptr(GBytes) bytes = odd == TM_FIXTURE_ODD_NONE ? tm_fixture_space_serialize (space)
                                                        : tm_fixture_space_serialize_odd (space, odd);
  g_autoptr(GError) error = NULL;
  char *path = tm_fixture_write_bytes (bytes, NULL, basename, &error);

  g_assert_no_error (error);
  return path;
}

static GBytes *
write_memory_only (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmSource) source = tm_source_open (path, &error);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

  g_assert_no_error (error);
  g_assert_true (tm_xspace_write_memory_only (source, out, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (out, NULL, &error));
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

static const char *
event_name (const XPlane *plane,
            gint64        id)
{
  const char *name = NULL;

  for (gsize i = 0; i < plane->n_event_metadata; i++)
    if (plane->event_metadata[i]->key == id)
      {
        g_assert_null (name);  /* one entry per id */
        name = plane->event_metadata[i]->value->name;
      }
  return name;
}

static const char *
stat_name (const XPlane *plane,
           gint64        id)
{
  const char *name = NULL;

  for (gsize i = 0; i < plane->n_stat_metadata; i++)
    if (plane->stat_metadata[i]->key == id)
      {
        g_assert_null (name);
        name = plane->stat_metadata[i]->value->name;
      }
  return name;
}

/* Decodes the memory-only file with protobuf-c and checks that it holds
 * exactly what docs/formats.md, section 4 lists. */
static void
check_contents (GBytes *bytes,
                guint   n_memory_events,
                guint   n_modules)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  XSpace *space = tensorflow__profiler__xspace__unpack (NULL, size, data);
  guint n_events = 0, n_module_events = 0, n_tpu = 0;

  g_assert_nonnull (space);
  g_assert_cmpuint (space->n_hostnames, ==, 0);
  g_assert_cmpstr (space->planes[0]->name, ==, "/host:CPU");
  for (gsize p = 0; p < space->n_planes; p++)
    {
      const XPlane *plane = space->planes[p];

      g_assert_cmpuint (plane->n_stats, ==, 0);
      if (p == 0)
        {
          gint64 min_ts = G_MAXINT64;

          for (gsize l = 0; l < plane->n_lines; l++)
            {
              min_ts = MIN (min_ts, plane->lines[l]->timestamp_ns);
              for (gsize e = 0; e < plane->lines[l]->n_events; e++)
                {
                  const Tensorflow__Profiler__XEvent *ev = plane->lines[l]->events[e];
                  const char *name = event_name (plane, ev->metadata_id);

                  g_assert_true (g_strcmp0 (name, "MemoryAllocation") == 0 || g_strcmp0 (name, "MemoryDeallocation") == 0);
                  for (gsize s = 0; s < ev->n_stats; s++)
                    {
                      const char *sname = stat_name (plane, ev->stats[s]->metadata_id);

                      g_assert_nonnull (sname);
                      g_assert_true (g_strv_contains (memory_stat_names, sname));
                      if (ev->stats[s]->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_REF_VALUE)
                        g_assert_nonnull (stat_name (plane, (gint64) ev->stats[s]->ref_value));
                    }
                  n_events++;
                }
            }
          /* The earliest line stays: it sets the common clock. */
          g_assert_cmpint (min_ts, ==, 900);
          g_assert_null (stat_name (plane, 0));
        }
      else
        {
          g_assert_true (g_str_has_prefix (plane->name, "/device:TPU:"));
          g_assert_cmpuint (plane->n_stat_metadata, ==, 0);
          n_tpu++;
          for (gsize l = 0; l < plane->n_lines; l++)
            {
              g_assert_cmpstr (plane->lines[l]->name, ==, "XLA Modules");
              for (gsize e = 0; e < plane->lines[l]->n_events; e++)
                {
                  g_assert_nonnull (event_name (plane, plane->lines[l]->events[e]->metadata_id));
                  g_assert_cmpuint (plane->lines[l]->events[e]->n_stats, ==, 0);
                  n_module_events++;
                }
            }
          g_assert_cmpuint (plane->n_event_metadata, <=, n_modules);
        }
    }
  g_assert_cmpuint (n_events, ==, n_memory_events);
  g_assert_cmpuint (n_module_events, ==, n_modules);
  g_assert_cmpuint (n_tpu, ==, 2);
  tensorflow__profiler__xspace__free_unpacked (space, NULL);
}

static void
test_fixture_round_trip (void)
{
  g_autoptr(TmFixtureSpace) space = make_space ();
  static const TmFixtureOddFlags odd[] = {
    TM_FIXTURE_ODD_NONE, TM_FIXTURE_ODD_METADATA_FIRST, TM_FIXTURE_ODD_INTERLEAVED,
    TM_FIXTURE_ODD_DUPLICATE_NAME, TM_FIXTURE_ODD_REVERSED, TM_FIXTURE_ODD_UNKNOWN_FIELDS,
    TM_FIXTURE_ODD_LONG_VARINTS, TM_FIXTURE_ODD_EXPLICIT_ZEROS, TM_FIXTURE_ODD_SPLIT_VALUES,
    TM_FIXTURE_ODD_INTERLEAVED | TM_FIXTURE_ODD_REVERSED | TM_FIXTURE_ODD_UNKNOWN_FIELDS |
    TM_FIXTURE_ODD_LONG_VARINTS | TM_FIXTURE_ODD_SPLIT_VALUES | TM_FIXTURE_ODD_DUPLICATE_NAME,
  };

  for (guint k = 0; k < G_N_ELEMENTS (odd); k++)
    {
      g_autofree char *path = write_space (space, odd[k], "host1.xplane.pb");
      g_autoptr(GBytes) written = write_memory_only (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(TmProfile) profile = tm_profile_load (file, NULL, NULL, NULL, &error);
      gsize original_size = tm_profile_get_file_size (profile);

      g_test_message ("odd encoding %#x", odd[k]);
      g_assert_no_error (error);
      /* Two allocators by name, and "1" and "2" by index (the later id
       * stat wins). */
      g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 4);
      g_assert_cmpuint (tm_profile_get_hlo_modules (profile)->len, ==, 3);

      g_assert_true (tm_xspace_writer_round_trip (path, &error));
      g_assert_no_error (error);
      check_contents (written, 24 + 5, 3);
      g_assert_cmpuint (g_bytes_get_size (written), <, original_size);
      tm_fixture_remove (path);
    }
}

/* Files the reader does not take as a profile with memory data still give
 * a file that reads the same. */
static void
test_without_memory (void)
{
  g_autoptr(TmFixtureSpace) gpu_only = tm_fixture_space_new ();
  g_autoptr(TmFixtureSpace) no_events = tm_fixture_space_new ();
  g_autoptr(TmFixtureSpace) xprof = tm_fixture_space_new_xprof_example ();
  TmFixtureSpace *spaces[] = { gpu_only, no_events, xprof };

  tm_fixture_line_add_event (tm_fixture_plane_add_line (tm_fixture_space_add_plane (gpu_only, "/device:GPU:0"),
                                                        "Stream", 0), "k", 1, 2);
  tm_fixture_line_add_event (tm_fixture_plane_add_line (tm_fixture_space_add_plane (no_events, "/host:CPU"),
                                                        "python", 5), "PyFunc", 1, 2);

  for (guint k = 0; k < G_N_ELEMENTS (spaces); k++)
    {
      g_autofree char *path = write_space (spaces[k], TM_FIXTURE_ODD_NONE, "h.xplane.pb");
      g_autoptr(GBytes) written = write_memory_only (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmProfile) profile = tm_test_load_bytes (written, "h.xplane.pb", &error);

      g_assert_no_error (error);
      g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, k == 2 ? 1 : 0);
      g_assert_true (tm_profile_has_host_plane (profile) == (k != 0));
      g_assert_true (tm_xspace_writer_round_trip (path, &error));
      g_assert_no_error (error);
      tm_fixture_remove (path);
    }
}

static void
test_not_xspace (void)
{
  g_autoptr(GBytes) json = g_bytes_new_static ("{\"memoryProfilePerAllocator\": {}, \"numHosts\": 1}", 48);
  g_autoptr(GBytes) garbage = g_bytes_new_static ("\xff\xff\xff\xff", 4);
  g_autofree char *json_path = tm_fixture_write_bytes (json, NULL, "p.memory_profile.json", NULL);
  g_autofree char *garbage_path = tm_fixture_write_bytes (garbage, NULL, "g.xplane.pb", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmSource) source = tm_source_open (json_path, &error);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

  g_assert_no_error (error);
  g_assert_false (tm_xspace_write_memory_only (source, out, NULL, NULL, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID);
  g_clear_error (&error);
  g_clear_pointer (&source, tm_source_unref);

  source = tm_source_open (garbage_path, &error);
  g_assert_no_error (error);
  g_assert_false (tm_xspace_write_memory_only (source, out, NULL, NULL, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_NOT_PROTOBUF);
  g_clear_error (&error);

  /* Nothing to compare, and no crash. */
  g_assert_true (tm_xspace_writer_round_trip (json_path, &error));
  g_assert_true (tm_xspace_writer_round_trip (garbage_path, &error));
  tm_fixture_remove (json_path);
  tm_fixture_remove (garbage_path);
}

static void
count_progress (guint64  done,
                guint64  total,
                gpointer user_data)
{
  guint64 *last = user_data;

  g_assert_cmpuint (done, <=, total);
  g_assert_cmpuint (done, >=, *last);
  *last = done;
}

/* A cancelled save leaves the destination as it was, or absent. */
static void
test_cancel (void)
{
  g_autoptr(TmFixtureSpace) space = make_space ();
  g_autofree char *path = write_space (space, TM_FIXTURE_ODD_NONE, "c.xplane.pb");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *old_path = g_build_filename (dir, "old.xplane.pb", NULL);
  g_autofree char *new_path = g_build_filename (dir, "new.xplane.pb", NULL);
  g_autoptr(GFile) input = g_file_new_for_path (path);
  g_autoptr(GFile) old_dest = g_file_new_for_path (old_path);
  g_autoptr(GFile) new_dest = g_file_new_for_path (new_path);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  guint64 last = 0;

  g_assert_true (g_file_set_contents (old_path, "OLD", -1, NULL));
  g_cancellable_cancel (cancellable);
  g_assert_false (tm_xspace_save_memory_only (input, old_dest, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (old_path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "OLD");

  g_assert_false (tm_xspace_save_memory_only (input, new_dest, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_false (g_file_test (new_path, G_FILE_TEST_EXISTS));

  /* Not cancelled: written, with progress up to the end. */
  g_assert_true (tm_xspace_save_memory_only (input, new_dest, count_progress, &last, NULL, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GFileInfo) info = g_file_query_info (input, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE,
                                                   NULL, NULL);

    g_assert_cmpuint (last, ==, 2 * (guint64) g_file_info_get_size (info));
  }
  g_assert_true (g_file_test (new_path, G_FILE_TEST_IS_REGULAR));

  g_unlink (old_path);
  g_unlink (new_path);
  tm_fixture_remove (path);
}

typedef struct
{
  char *out;
  gsize out_len;
  char *err;
  int   status;
} Run;

static void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void
run_cli (Run         *result,
         const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *exe = g_getenv ("TM_TIDEMARK_EXE");
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  g_autoptr(GSubprocess) process = NULL;

  g_assert_nonnull (exe);
  g_ptr_array_add (argv, (char *) exe);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate (process, NULL, NULL, &out, &err, &error));
  g_assert_no_error (error);
  result->out = g_bytes_unref_to_data (g_steal_pointer (&out), &result->out_len);
  result->err = g_bytes_get_size (err) > 0 ? g_strndup (g_bytes_get_data (err, NULL), g_bytes_get_size (err))
                                            : g_strdup ("");
  result->status = g_subprocess_get_exit_status (process);
}

static void
test_cli (void)
{
  g_autoptr(TmFixtureSpace) space = make_space ();
  g_autofree char *path = write_space (space, TM_FIXTURE_ODD_NONE, "cli.xplane.pb");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *dest = g_build_filename (dir, "out", "cli.xplane.pb", NULL);
  g_autofree char *out_dir = g_path_get_dirname (dest);
  g_autoptr(GBytes) expected = write_memory_only (path);
  g_autofree char *written = NULL;
  gsize written_len;
  g_auto(Run) a = { 0 };
  g_auto(Run) b = { 0 };
  g_auto(Run) c = { 0 };
  g_auto(Run) d = { 0 };
  g_auto(Run) e = { 0 };

  g_assert_cmpint (g_mkdir (out_dir, 0700), ==, 0);

  run_cli (&a, (const char *[]) { "--export=memory-xplane", path, NULL });
  g_assert_cmpint (a.status, ==, 2);
  g_assert_nonnull (strstr (a.err, "--output"));

  run_cli (&b, (const char *[]) { "--export=memory-xplane", "--output", dest, path, NULL });
  g_assert_cmpint (b.status, ==, 0);
  g_assert_cmpstr (b.err, ==, "");
  g_assert_true (g_file_get_contents (dest, &written, &written_len, NULL));
  g_assert_cmpmem (written, written_len, g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));

  /* Standard output only when asked for (a pipe here). */
  run_cli (&c, (const char *[]) { "--export=memory-xplane", "-o", "-", path, NULL });
  g_assert_cmpint (c.status, ==, 0);
  g_assert_cmpmem (c.out, c.out_len, g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));

  run_cli (&d, (const char *[]) { "--export=memory-xplane", "--memory-id=GPU_0_bfc", "-o", dest, path, NULL });
  g_assert_cmpint (d.status, ==, 2);

  /* The same output twice: the export of the memory-only file equals the
   * original's. */
  run_cli (&e, (const char *[]) { "--export=xprof-json", dest, NULL });
  {
    g_auto(Run) f = { 0 };

    run_cli (&f, (const char *[]) { "--export=xprof-json", path, NULL });
    g_assert_cmpint (e.status, ==, 0);
    g_assert_cmpint (f.status, ==, 0);
    g_assert_cmpmem (e.out, e.out_len, f.out, f.out_len);
  }

  g_unlink (dest);
  g_rmdir (out_dir);
  tm_fixture_remove (path);
}

static void
test_real_gpu (void)
{
  g_autofree char *path = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autofree char *original = NULL;
  gsize original_size = 0;
  gint64 start;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  start = g_get_monotonic_time ();
  written = write_memory_only (path);
  g_assert_true (g_file_get_contents (path, &original, &original_size, NULL));
  g_test_message ("memory-only: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes, %.1f ms",
                  g_bytes_get_size (written), original_size, (g_get_monotonic_time () - start) / 1000.0);
  g_assert_cmpuint (g_bytes_get_size (written) * 4, <, original_size);

  g_assert_true (tm_xspace_writer_round_trip (path, &error));
  g_assert_no_error (error);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/xspace-writer/fixture-round-trip", test_fixture_round_trip);
  g_test_add_func ("/xspace-writer/without-memory", test_without_memory);
  g_test_add_func ("/xspace-writer/not-xspace", test_not_xspace);
  g_test_add_func ("/xspace-writer/cancel", test_cancel);
  g_test_add_func ("/xspace-writer/cli", test_cli);
  g_test_add_func ("/xspace-writer/real-gpu", test_real_gpu);

  return g_test_run ();
}
