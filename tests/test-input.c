/* test-input.c — the input interface: each file's reader picked by its
 * content, never by its name, and what every reader delivers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <glib/gstdio.h>

#include "tm-error.h"
#include "tm-export.h"
#include "tm-fixture-writer.h"
#include "tm-hlo-fixture.h"
#include "tm-input-picker.h"
#include "tm-run.h"
#include "tm-summaries-reader.h"
#include "tm-test-util.h"

static TmInputFormat
sniff (const char *text)
{
  return tm_input_picker_sniff ((const guint8 *) text, strlen (text));
}

/* Magic bytes, then the structure of the first JSON value. */
static void
test_sniff (void)
{
  static const guint8 xspace[] = { 0x0a, 0x05, 0x12, 0x03, 'a', 'b', 'c' };
  g_autofree char *deep = NULL;
  g_autoptr(GBytes) gz_lines = NULL;
  g_autoptr(GBytes) gz_profile = NULL;
  GString *nested = g_string_new ("{\"a\": ");

  g_assert_cmpint (tm_input_picker_sniff (xspace, sizeof xspace), ==, TM_INPUT_FORMAT_XSPACE);
  g_assert_cmpint (sniff (""), ==, TM_INPUT_FORMAT_XSPACE);
  g_assert_cmpint (sniff ("  \n"), ==, TM_INPUT_FORMAT_XSPACE);
  g_assert_cmpint (sniff ("[{\"host\": \"a\"}]"), ==, TM_INPUT_FORMAT_XSPACE);

  /* XProf JSON: its own members, or one value of no telling. */
  g_assert_cmpint (sniff ("{\"memoryIds\": [\"0\"]}"), ==, TM_INPUT_FORMAT_XPROF_JSON);
  g_assert_cmpint (sniff ("\xef\xbb\xbf \n{\"memoryProfilePerAllocator\": {}}"), ==, TM_INPUT_FORMAT_XPROF_JSON);
  g_assert_cmpint (sniff ("{\"version\": 1, \"memory_profile_per_allocator\": {}}\n{\"host\": \"a\"}"), ==,
                   TM_INPUT_FORMAT_XPROF_JSON);
  g_assert_cmpint (sniff ("{}"), ==, TM_INPUT_FORMAT_XPROF_JSON);
  g_assert_cmpint (sniff ("{\"version\": 1}\n\n"), ==, TM_INPUT_FORMAT_XPROF_JSON);
  /* A member named like a summary's, but inside a value or a string. */
  g_assert_cmpint (sniff ("{\"a\": \"\\\"}, \\\"host\", \"b\": [{\"host\": 1}], \"c\": {\"input\": 2}}"), ==,
                   TM_INPUT_FORMAT_XPROF_JSON);
  /* Ends inside the first value: the JSON reader says where. */
  g_assert_cmpint (sniff ("{\"version\": 1, \"memory_ids\": [\"0\""), ==, TM_INPUT_FORMAT_XPROF_JSON);
  g_assert_cmpint (sniff ("{\"hos"), ==, TM_INPUT_FORMAT_XPROF_JSON);

  /* Summaries: a member only they have, or a second value. */
  g_assert_cmpint (sniff ("{\"input\": \"w.xplane.pb\", \"host\": \"w\"}\n"), ==, TM_INPUT_FORMAT_SUMMARIES);
  g_assert_cmpint (sniff ("{\"version\": 1, \"memory_ids\": [], \"host\": \"w\""), ==, TM_INPUT_FORMAT_SUMMARIES);
  g_assert_cmpint (sniff ("{\"version\": 1}\n{\"version\": 1}\n"), ==, TM_INPUT_FORMAT_SUMMARIES);
  g_assert_cmpint (sniff ("{\"a\": {\"b\": [1, {\"c\": \"}\"}]}}\n9{}\n"), ==, TM_INPUT_FORMAT_SUMMARIES);

  /* Nesting of any depth is only counted. */
  for (guint i = 0; i < 200000; i++)
    g_string_append_c (nested, '[');
  deep = g_string_free (nested, FALSE);
  g_assert_cmpint (sniff (deep), ==, TM_INPUT_FORMAT_XPROF_JSON);

  /* Gzip: what it holds. */
  gz_lines = tm_test_gzip_bytes ("{\"host\": \"w\", \"error\": \"x\"}\n", 29);
  gz_profile = tm_test_gzip_bytes ("{\"memoryIds\": []}", 17);
  g_assert_cmpint (tm_input_picker_sniff (g_bytes_get_data (gz_lines, NULL), g_bytes_get_size (gz_lines)), ==,
                   TM_INPUT_FORMAT_SUMMARIES);
  g_assert_cmpint (tm_input_picker_sniff (g_bytes_get_data (gz_profile, NULL), g_bytes_get_size (gz_profile)), ==,
                   TM_INPUT_FORMAT_XPROF_JSON);
  /* Only its first bytes. */
  g_assert_cmpint (tm_input_picker_sniff (g_bytes_get_data (gz_profile, NULL), 12), ==, TM_INPUT_FORMAT_XPROF_JSON);
}

/* Pickles by their magic bytes, plain or inside gzip: PyTorch snapshots;
 * a protocol 0 pickle that imports goes to the same reader, to be refused
 * as a pickle. */
static void
test_sniff_pickle (void)
{
  static const guint8 p2[] = { 0x80, 2, '}', 'q', 0, '.' };
  static const guint8 p5[] = { 0x80, 5, 0x95, 0, 0, 0, 0, 0, 0, 0, 0, '}', '.' };
  static const guint8 p1[] = { 0x80, 1, '}', '.' };
  static const guint8 p6[] = { 0x80, 6, '}', '.' };
  g_autoptr(GBytes) gz_pickle = tm_test_gzip_bytes ((const char *) p2, sizeof p2);
  g_autoptr(GBytes) gz_global = tm_test_gzip_bytes ("cos\nsystem\n.", 13);

  g_assert_cmpint (tm_input_picker_sniff (p2, sizeof p2), ==, TM_INPUT_FORMAT_TORCH_SNAPSHOT);
  g_assert_cmpint (tm_input_picker_sniff (p5, sizeof p5), ==, TM_INPUT_FORMAT_TORCH_SNAPSHOT);
  g_assert_cmpint (tm_input_picker_sniff (p1, sizeof p1), ==, TM_INPUT_FORMAT_XSPACE);
  g_assert_cmpint (tm_input_picker_sniff (p6, sizeof p6), ==, TM_INPUT_FORMAT_XSPACE);
  g_assert_cmpint (sniff ("cos\nsystem\n(S'x'\ntR."), ==, TM_INPUT_FORMAT_TORCH_SNAPSHOT);
  g_assert_cmpint (sniff ("cos system"), ==, TM_INPUT_FORMAT_XSPACE);
  g_assert_cmpint (tm_input_picker_sniff (g_bytes_get_data (gz_pickle, NULL), g_bytes_get_size (gz_pickle)), ==,
                   TM_INPUT_FORMAT_TORCH_SNAPSHOT);
  /* Inside gzip only a pickle of protocol 2 to 5 counts. */
  g_assert_cmpint (tm_input_picker_sniff (g_bytes_get_data (gz_global, NULL), g_bytes_get_size (gz_global)), ==,
                   TM_INPUT_FORMAT_XPROF_JSON);
}

/* A snapshot, plain and gzipped, read through the picker: one store per
 * device, the snapshot reader's own inflating (nothing in inflated); a
 * pickle that is not a snapshot fails with the snapshot reader's error. */
static void
test_read_pickle (void)
{
  /* {'segments': [], 'device_traces': [[{'action': 'alloc', 'addr': 16,
   * 'size': 4, 'stream': 0}]]} at protocol 2. */
  static const guint8 snap[] = {
    0x80, 2, '}', '(', 'X', 8, 0, 0, 0, 's', 'e', 'g', 'm', 'e', 'n', 't', 's', ']',
    'X', 13, 0, 0, 0, 'd', 'e', 'v', 'i', 'c', 'e', '_', 't', 'r', 'a', 'c', 'e', 's',
    ']', ']', '}', '(',
    'X', 6, 0, 0, 0, 'a', 'c', 't', 'i', 'o', 'n', 'X', 5, 0, 0, 0, 'a', 'l', 'l', 'o', 'c',
    'X', 4, 0, 0, 0, 'a', 'd', 'd', 'r', 'K', 16,
    'X', 4, 0, 0, 0, 's', 'i', 'z', 'e', 'K', 4,
    'X', 6, 0, 0, 0, 's', 't', 'r', 'e', 'a', 'm', 'K', 0,
    'u', 'a', 'a', 'u', '.',
  };
  static const guint8 not_snap[] = { 0x80, 2, 'K', 3, '.' };
  g_autoptr(GBytes) plain = g_bytes_new_static (snap, sizeof snap);
  g_autoptr(GBytes) gz = tm_test_gzip_bytes ((const char *) snap, sizeof snap);
  g_autoptr(GBytes) bad = g_bytes_new_static (not_snap, sizeof not_snap);
  GBytes *inputs[] = { plain, gz };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(TmSource) source = tm_source_new_from_bytes (inputs[i], "snapshot.bin");
      g_autoptr(GError) error = NULL;
      TmInput input;

      g_assert_true (tm_input_picker_read (source, &input, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (input.format, ==, TM_INPUT_FORMAT_TORCH_SNAPSHOT);
      g_assert_cmpuint (input.stores->len, ==, 1);
      g_assert_cmpstr (tm_memory_store_get_id (g_ptr_array_index (input.stores, 0)), ==, "0");
      g_assert_null (input.hosts);
      g_assert_null (input.inflated);
      tm_input_clear (&input);
    }

  {
    g_autoptr(TmSource) source = tm_source_new_from_bytes (bad, "three.pickle");
    g_autoptr(GError) error = NULL;
    TmInput input;

    g_assert_false (tm_input_picker_read (source, &input, NULL, NULL, NULL, &error));
    g_assert_error (error, TM_ERROR, TM_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "not a memory snapshot"));
  }
}

static void
test_format_info (void)
{
  const TmInputFormatInfo *xspace = tm_input_format_get_info (TM_INPUT_FORMAT_XSPACE);
  const TmInputFormatInfo *json = tm_input_format_get_info (TM_INPUT_FORMAT_XPROF_JSON);
  const TmInputFormatInfo *lines = tm_input_format_get_info (TM_INPUT_FORMAT_SUMMARIES);
  const TmInputFormatInfo *torch = tm_input_format_get_info (TM_INPUT_FORMAT_TORCH_SNAPSHOT);

  for (guint f = 0; f < TM_INPUT_N_FORMATS; f++)
    {
      const TmInputFormatInfo *info = tm_input_format_get_info (f);

      g_assert_cmpint (info->format, ==, f);
      g_assert_nonnull (info->id);
      g_assert_nonnull (info->name);
      /* Opens as a profile or as a run, not both. */
      g_assert_true (!(info->features & TM_INPUT_HAS_PROFILE) != !(info->features & TM_INPUT_HAS_RUN));
    }
  g_assert_cmpstr (xspace->id, ==, "xspace");
  g_assert_cmpstr (json->id, ==, "xprof-json");
  g_assert_cmpint (xspace->axis, ==, TM_INPUT_AXIS_TIME);
  g_assert_true (xspace->features & TM_INPUT_HAS_MEMORY_ONLY_EXPORT);
  g_assert_true (xspace->features & TM_INPUT_COMPLETE);
  g_assert_false (json->features & TM_INPUT_HAS_MEMORY_ONLY_EXPORT);
  g_assert_false (json->features & TM_INPUT_COMPLETE);
  g_assert_true (json->features & TM_INPUT_HAS_XPROF_JSON_EXPORT);
  g_assert_true (lines->features & TM_INPUT_HAS_RUN);
  g_assert_cmpint (lines->axis, ==, TM_INPUT_AXIS_NONE);
  g_assert_cmpstr (torch->id, ==, "pytorch-snapshot");
  g_assert_cmpint (torch->axis, ==, TM_INPUT_AXIS_TIME);
  g_assert_cmpint (torch->features, ==,
                   TM_INPUT_HAS_PROFILE | TM_INPUT_COMPLETE | TM_INPUT_HAS_TIME_AXIS | TM_INPUT_HAS_ALLOCATIONS |
                   TM_INPUT_HAS_SCOPES);
}

/* Names lie; content does not: an XProf JSON named .jsonl opens as a
 * profile, summaries named .xplane.pb as a run (and not as a profile). */
static void
test_names_do_not_count (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(TmProfile) again = NULL;
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GBytes) json = NULL;
  g_autoptr(GBytes) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *lines_path = NULL;
  g_autoptr(GFile) lines_file = NULL;
  g_autoptr(GPtrArray) items = NULL;
  const char *text = "{\"host\": \"w1\", \"error\": \"file is empty\"}\n{\"host\": \"w2\", \"error\": \"x\"}\n";

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  g_assert_cmpint (tm_profile_get_format (profile), ==, TM_INPUT_FORMAT_XSPACE);
  g_assert_true (tm_export_xprof_json (profile, out, NULL, &error));
  g_assert_true (g_output_stream_close (out, NULL, &error));
  json = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));

  again = tm_test_load_bytes (json, "gathered.jsonl", &error);
  g_assert_no_error (error);
  g_assert_cmpint (tm_profile_get_format (again), ==, TM_INPUT_FORMAT_XPROF_JSON);
  g_assert_cmpuint (tm_profile_get_n_memory_ids (again), ==, tm_profile_get_n_memory_ids (profile));
  g_assert_false (tm_profile_get_features (again) & TM_INPUT_HAS_MEMORY_ONLY_EXPORT);

  lines = g_bytes_new_static (text, strlen (text));
  g_assert_null (tm_test_load_bytes (lines, "worker.xplane.pb", &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "gathered host summaries"));
  g_clear_error (&error);

  lines_path = tm_fixture_write_bytes (lines, NULL, "worker.xplane.pb", &error);
  g_assert_no_error (error);
  lines_file = g_file_new_for_path (lines_path);
  items = tm_run_expand (&lines_file, 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (((TmRunItem *) g_ptr_array_index (items, 0))->summaries);
  tm_fixture_remove (lines_path);
}

/* Looking at what a file given by itself holds never waits on a FIFO. */
static void
test_fifo (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tm_fixture_make_temp_dir (&error);
  g_autofree char *path = g_build_filename (dir, "pipe.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GPtrArray) items = NULL;
  TmRunItem *item;

  g_assert_no_error (error);
  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  /* The test's own deadline ends a hang. */
  alarm (20);
  items = tm_run_expand (&file, 1, NULL, &error);
  alarm (0);
  g_assert_no_error (error);
  item = g_ptr_array_index (items, 0);
  g_assert_false (item->summaries);
  g_assert_true (g_file_equal (item->file, file));
  g_assert_cmpint (tm_input_picker_sniff_file (file, NULL), ==, TM_INPUT_FORMAT_XSPACE);
  tm_fixture_remove (dir);
}

/* What the readers deliver through the picker. */
static void
test_read (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *plane = tm_fixture_space_add_plane (space, "/host:CPU");
  TmFixtureMemory m = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME, .allocator_name = "GPU_0_bfc",
    .bytes_allocated = 100, .peak_bytes_in_use = 100, .requested_bytes = 100, .allocation_bytes = 100, .addr = 64,
  };
  const char *text = "{\"host\": \"w1\", \"error\": \"file is empty\"}\n[]\n{\"host\": \"w2\", \"error\": \"x\"}\n";
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) gz = NULL;
  g_autoptr(TmSource) source = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  TmInput input;
  gint64 origin = 0;

  /* The clock starts at the earliest line's timestamp. */
  tm_fixture_line_add_memory_event (tm_fixture_plane_add_line (plane, "a", 5000), TRUE, 10, &m);
  tm_fixture_line_add_memory_event (tm_fixture_plane_add_line (plane, "b", 3000), TRUE, 20, &m);
  bytes = tm_fixture_space_serialize (space);
  source = tm_source_new_from_bytes (bytes, "space.xplane.pb");
  g_assert_true (tm_input_picker_read (source, &input, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (input.format, ==, TM_INPUT_FORMAT_XSPACE);
  g_assert_cmpuint (input.stores->len, ==, 1);
  g_assert_null (input.hosts);
  g_assert_true (input.has_clock_origin);
  g_assert_cmpint (input.clock_origin_ns, ==, 3000);
  g_assert_true (input.has_memory_trace);
  g_assert_null (input.inflated);
  tm_input_clear (&input);
  g_clear_pointer (&source, tm_source_unref);

  profile = tm_test_load_bytes (bytes, "space.xplane.pb", &error);
  g_assert_no_error (error);
  g_assert_true (tm_profile_get_clock_origin (profile, &origin));
  g_assert_cmpint (origin, ==, 3000);

  /* Gzipped summaries; the bad line is named, the others kept. */
  gz = tm_test_gzip_bytes (text, strlen (text));
  source = tm_source_new_from_bytes (gz, "run.gz");
  g_assert_true (tm_input_picker_read (source, &input, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (input.format, ==, TM_INPUT_FORMAT_SUMMARIES);
  g_assert_cmpuint (input.stores->len, ==, 0);
  g_assert_cmpuint (input.hosts->len, ==, 2);
  g_assert_cmpuint (((TmHostSummary *) g_ptr_array_index (input.hosts, 1))->line, ==, 3);
  g_assert_cmpuint (input.problems->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (input.problems, 0), ==, "line 2 of the summaries is not a JSON object");
  g_assert_nonnull (input.inflated);
  g_assert_cmpuint (g_bytes_get_size (input.inflated), ==, strlen (text));
  tm_input_clear (&input);
}

/* A sidecar HloProto given by itself is its own format, by content: one
 * module for the Memory Viewer, no memory ids, nothing decoded at open
 * (a module cut short still opens; decoding it names it); an XSpace with
 * HloProtos inside stays an XSpace. Other sidecars of its folder are
 * listed after it. */
static void
test_read_hlo_proto (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_chain ();
  g_autoptr(GBytes) bytes = tm_hlo_fixture_serialize (f);
  g_autoptr(GBytes) keep = NULL;
  g_autoptr(GBytes) large = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tm-hlo-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "jit_step(7).hlo_proto.pb", NULL);
  g_autofree char *other = g_build_filename (dir, "b.hlo_proto.pb", NULL);
  g_autofree char *space_path = NULL;
  g_autofree char *text = NULL;
  g_autofree char *renamed = g_build_filename (dir, "module.bin", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) renamed_file = g_file_new_for_path (renamed);
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(TmProfile) by_content = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmHloProto) proto = NULL;
  struct _TmFixtureSpace *space = NULL;
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  g_assert_cmpint (tm_input_picker_sniff (data, size), ==, TM_INPUT_FORMAT_HLO_PROTO);
  /* Its module must fit in the file. */
  g_assert_cmpint (tm_input_picker_sniff (data, 16), ==, TM_INPUT_FORMAT_XSPACE);
  g_assert_true (g_file_set_contents (path, (const char *) data, size, NULL));
  g_assert_cmpint (tm_input_picker_sniff_file (file, NULL), ==, TM_INPUT_FORMAT_HLO_PROTO);
  /* A file larger than what is sniffed of it. */
  for (guint i = 0; i < 5000; i++)
    {
      g_autofree char *name = g_strdup_printf ("fusion.%u.with.a.long.name", i);

      tm_hlo_fixture_add_instruction (f, name, 100 + i);
    }
  large = tm_hlo_fixture_serialize (f);
  g_assert_cmpuint (g_bytes_get_size (large), >, 65536 * 2);
  g_assert_true (g_file_set_contents (renamed, g_bytes_get_data (large, NULL), g_bytes_get_size (large), NULL));
  g_assert_cmpint (tm_input_picker_sniff_file (renamed_file, NULL), ==, TM_INPUT_FORMAT_HLO_PROTO);
  g_assert_true (g_file_set_contents (renamed, (const char *) data, size, NULL));
  /* Cut short: opens, and fails when decoded. */
  g_assert_true (g_file_set_contents (other, (const char *) data, size - 3, NULL));

  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (tm_profile_get_format (profile), ==, TM_INPUT_FORMAT_HLO_PROTO);
  g_assert_cmpint (tm_input_format_get_info (TM_INPUT_FORMAT_HLO_PROTO)->axis, ==, TM_INPUT_AXIS_PROGRAM_ORDER);
  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 0);
  entries = tm_profile_list_hlo_entries (profile);
  g_assert_cmpuint (entries->len, ==, 2);
  g_assert_cmpstr (g_array_index (entries, TmHloEntry, 0).name, ==, "jit_step(7)");
  g_assert_cmpstr (g_array_index (entries, TmHloEntry, 1).name, ==, "b");
  proto = tm_hlo_entry_decode (&g_array_index (entries, TmHloEntry, 0), &error);
  g_assert_no_error (error);
  g_assert_nonnull (proto);
  g_clear_pointer (&proto, tm_hlo_proto_free);
  proto = tm_hlo_entry_decode (&g_array_index (entries, TmHloEntry, 1), &error);
  g_assert_null (proto);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "b"));
  g_clear_error (&error);

  /* Any name: the content decides. */
  by_content = tm_profile_load (renamed_file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (tm_profile_get_format (by_content), ==, TM_INPUT_FORMAT_HLO_PROTO);

  space = tm_hlo_fixture_new_two_module_space (&keep);
  space_path = tm_fixture_space_write (space, dir, "p.xplane.pb", &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (space_path, &text, &size, NULL));
  g_assert_cmpint (tm_input_picker_sniff ((const guint8 *) text, size), ==, TM_INPUT_FORMAT_XSPACE);
  tm_fixture_space_free (space);

  tm_fixture_remove (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/input/sniff", test_sniff);
  g_test_add_func ("/input/sniff-pickle", test_sniff_pickle);
  g_test_add_func ("/input/format-info", test_format_info);
  g_test_add_func ("/input/names-do-not-count", test_names_do_not_count);
  g_test_add_func ("/input/fifo", test_fifo);
  g_test_add_func ("/input/read", test_read);
  g_test_add_func ("/input/read-pickle", test_read_pickle);
  g_test_add_func ("/input/read-hlo-proto", test_read_hlo_proto);

  return g_test_run ();
}
