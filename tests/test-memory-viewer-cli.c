/* test-memory-viewer-cli.c — tidemark --export=memory-viewer-json and the
 * modules in --summary (docs/buffer-assignment.md, section 5)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <json-glib/json-glib.h>

#include "tm-hlo-fixture.h"
#include "tm-test-util.h"

static JsonObject *
parse_object (JsonParser *parser,
              const char *text)
{
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* --export=memory-viewer-json: every module by name, a sidecar beside the
 * profile among them, the bad one with its error; --module, --output,
 * --memory-space; and the modules in --summary. */
static void
test_cli (void)
{
  g_autoptr(GBytes) keep = NULL;
  g_autoptr(TmFixtureSpace) space = tm_hlo_fixture_new_two_module_space (&keep);
  g_autoptr(TmHloFixture) side = tm_hlo_fixture_new_chain ();
  g_autoptr(GBytes) side_bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tm_fixture_make_temp_dir (&error);
  g_autofree char *path = NULL;
  g_autofree char *side_path = NULL;
  g_autofree char *out_path = NULL;
  g_autofree char *written = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) parser_one = json_parser_new ();
  g_auto(TmTestRun) all = { 0 };
  g_auto(TmTestRun) one = { 0 };
  g_auto(TmTestRun) missing = { 0 };
  g_auto(TmTestRun) bad_space = { 0 };
  g_auto(TmTestRun) to_file = { 0 };
  g_auto(TmTestRun) summary = { 0 };
  g_auto(TmTestRun) direct = { 0 };
  JsonObject *doc;
  JsonArray *modules;

  g_assert_no_error (error);
  path = tm_fixture_space_write (space, dir, "host.xplane.pb", &error);
  g_assert_no_error (error);
  tm_hlo_fixture_add_event (side, TM_HLO_ALLOC, 1, 0);
  tm_hlo_fixture_add_event (side, TM_HLO_FREE, 1, 0);
  side_bytes = tm_hlo_fixture_serialize (side);
  side_path = tm_fixture_write_bytes (side_bytes, dir, "side_module.hlo_proto.pb", &error);
  g_assert_no_error (error);

  tm_test_run_cli (&all, NULL, "--export=memory-viewer-json", path, NULL);
  g_assert_cmpint (all.status, ==, 0);
  doc = parse_object (parser, all.out);
  g_assert_cmpstr (json_object_get_string_member (doc, "file"), ==, "host.xplane.pb");
  modules = json_object_get_array_member (doc, "modules");
  g_assert_cmpuint (json_array_get_length (modules), ==, 3);
  {
    JsonObject *b = json_array_get_object_element (modules, 0);
    JsonObject *s = json_array_get_object_element (modules, 1);
    JsonObject *t = json_array_get_object_element (modules, 2);

    g_assert_true (g_str_has_prefix (json_object_get_string_member (b, "module"), "b("));
    g_assert_nonnull (strstr (json_object_get_string_member (b, "error"), "b("));
    g_assert_false (json_object_has_member (b, "peakHeapMib"));
    g_assert_cmpstr (json_object_get_string_member (s, "module"), ==, "side_module");
    g_assert_cmpfloat (json_object_get_double_member (s, "peakHeapMib"), ==, 0.5);
    g_assert_true (g_str_has_prefix (json_object_get_string_member (t, "module"), "test_module("));
    g_assert_cmpint (json_object_get_int_member (t, "memorySpace"), ==, 0);
    g_assert_cmpfloat (json_object_get_double_member (t, "peakHeapMib"), ==, 1.5);
    g_assert_cmpstr (json_object_get_string_member (t, "moduleName"), ==, "test_module");
  }

  tm_test_run_cli (&one, NULL, "--export=memory-viewer-json", "--module=side_module", "--memory-space=0", path, NULL);
  g_assert_cmpint (one.status, ==, 0);
  doc = parse_object (parser_one, one.out);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (doc, "modules")), ==, 1);

  tm_test_run_cli (&missing, NULL, "--export=memory-viewer-json", "--module=nothing(1)", path, NULL);
  g_assert_cmpint (missing.status, ==, 1);
  g_assert_nonnull (strstr (missing.err, "nothing(1)"));

  tm_test_run_cli (&bad_space, NULL, "--export=memory-viewer-json", "--memory-space=HBM", path, NULL);
  g_assert_cmpint (bad_space.status, ==, 2);

  out_path = g_build_filename (dir, "out.json", NULL);
  tm_test_run_cli (&to_file, NULL, "--export", "memory-viewer-json", "--output", out_path, path, NULL);
  g_assert_cmpint (to_file.status, ==, 0);
  g_assert_cmpstr (to_file.out, ==, "");
  g_assert_true (g_file_get_contents (out_path, &written, NULL, &error));
  g_assert_cmpstr (written, ==, all.out);

  tm_test_run_cli (&direct, NULL, "--export=memory-viewer-json", side_path, NULL);
  g_assert_cmpint (direct.status, ==, 0);
  g_assert_nonnull (strstr (direct.out, "\"module\":\"side_module\""));

  tm_test_run_cli (&summary, NULL, "--summary", path, NULL);
  g_assert_cmpint (summary.status, ==, 0);
  g_assert_nonnull (strstr (summary.out, "XLA modules (static plan, memory space 0)"));
  g_assert_nonnull (strstr (summary.out, "  side_module\n    static peak 512 KiB ("));
  g_assert_nonnull (strstr (summary.out, " bytes), reached at event 1 of 2\n  test_module("));

  tm_fixture_remove (dir);
}

/* A profile without HloProtos prints no module section at all. */
static void
test_cli_summary_without_modules (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tm_fixture_space_write (space, NULL, "plain.xplane.pb", &error);
  g_auto(TmTestRun) summary = { 0 };

  g_assert_no_error (error);
  tm_test_run_cli (&summary, NULL, "--summary", path, NULL);
  g_assert_cmpint (summary.status, ==, 0);
  g_assert_null (strstr (summary.out, "XLA modules"));
  tm_fixture_remove (path);
}

/* --summary --json: the modules with their static peaks in memory space 0,
 * by name, the bad one with its error; a sidecar given by itself has no
 * memory ids and its modules; a profile without HloProtos has no
 * "xla_modules"; on the real profile, XProf's peaks. */
static void
test_cli_summary_json (void)
{
  g_autoptr(GBytes) keep = NULL;
  g_autoptr(TmFixtureSpace) space = tm_hlo_fixture_new_viewer_space (&keep);
  g_autoptr(TmFixtureSpace) plain = tm_fixture_space_new_xprof_example ();
  g_autoptr(TmHloFixture) side = tm_hlo_fixture_new_viewer ();
  g_autoptr(GBytes) side_bytes = tm_hlo_fixture_serialize (side);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tm_fixture_make_temp_dir (&error);
  g_autofree char *side_dir = tm_fixture_make_temp_dir (&error);
  g_autofree char *path = NULL;
  g_autofree char *plain_path = NULL;
  g_autofree char *side_path = NULL;
  g_autofree char *real = tm_test_real_profile ("jax_rocm_mi300x_conv.xplane.pb");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) side_parser = json_parser_new ();
  g_autoptr(JsonParser) plain_parser = json_parser_new ();
  g_autoptr(JsonParser) real_parser = json_parser_new ();
  g_auto(TmTestRun) run = { 0 };
  g_auto(TmTestRun) side_run = { 0 };
  g_auto(TmTestRun) plain_run = { 0 };
  g_auto(TmTestRun) real_run = { 0 };
  JsonObject *doc, *m;
  JsonArray *modules;

  g_assert_no_error (error);
  path = tm_fixture_space_write (space, dir, "host.xplane.pb", &error);
  g_assert_no_error (error);
  plain_path = tm_fixture_space_write (plain, dir, "plain.xplane.pb", &error);
  g_assert_no_error (error);
  side_path = tm_fixture_write_bytes (side_bytes, side_dir, "jit_step(4).hlo_proto.pb", &error);
  g_assert_no_error (error);

  tm_test_run_cli (&run, NULL, "--summary", "--json", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  doc = parse_object (parser, run.out);
  modules = json_object_get_array_member (doc, "xla_modules");
  g_assert_cmpuint (json_array_get_length (modules), ==, 3);
  m = json_array_get_object_element (modules, 0);
  g_assert_cmpstr (json_object_get_string_member (m, "module"), ==, "b(3)");
  g_assert_nonnull (strstr (json_object_get_string_member (m, "error"), "b(3)"));
  g_assert_false (json_object_has_member (m, "static_peak_bytes"));
  m = json_array_get_object_element (modules, 1);
  g_assert_cmpstr (json_object_get_string_member (m, "module"), ==, "jit_train_step(1)");
  g_assert_cmpint (json_object_get_int_member (m, "static_peak_bytes"), ==, (18 << 20) + 4096);
  g_assert_cmpint (json_object_get_int_member (m, "heap_simulator_events"), ==, 8);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (m, "memory_spaces")), ==, 2);
  m = json_array_get_object_element (modules, 2);
  g_assert_cmpstr (json_object_get_string_member (m, "module"), ==, "test_module(2)");
  g_assert_cmpint (json_object_get_int_member (m, "static_peak_bytes"), ==, 3 << 19);
  /* The memory ids are still there. */
  g_assert_true (json_object_has_member (json_object_get_object_member (doc, "memory"), "GPU_0_bfc"));

  tm_test_run_cli (&side_run, NULL, "--summary", "--json", side_path, NULL);
  g_assert_cmpint (side_run.status, ==, 0);
  doc = parse_object (side_parser, side_run.out);
  g_assert_cmpstr (json_object_get_string_member (doc, "format"), ==, "hlo-proto");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (doc, "memory_ids")), ==, 0);
  modules = json_object_get_array_member (doc, "xla_modules");
  g_assert_cmpuint (json_array_get_length (modules), ==, 1);
  m = json_array_get_object_element (modules, 0);
  g_assert_cmpstr (json_object_get_string_member (m, "module"), ==, "jit_step(4)");
  g_assert_cmpint (json_object_get_int_member (m, "static_peak_bytes"), ==, (18 << 20) + 4096);

  tm_test_run_cli (&plain_run, NULL, "--summary", "--json", plain_path, NULL);
  g_assert_cmpint (plain_run.status, ==, 0);
  doc = parse_object (plain_parser, plain_run.out);
  g_assert_false (json_object_has_member (doc, "xla_modules"));

  if (real != NULL)
    {
      tm_test_run_cli (&real_run, NULL, "--summary", "--json", real, NULL);
      g_assert_cmpint (real_run.status, ==, 0);
      doc = parse_object (real_parser, real_run.out);
      modules = json_object_get_array_member (doc, "xla_modules");
      g_assert_cmpuint (json_array_get_length (modules), ==, 8);
      m = json_array_get_object_element (modules, 7);
      g_assert_cmpstr (json_object_get_string_member (m, "module"), ==, "jit_forward_3d_conv(15)");
      g_assert_cmpint (json_object_get_int_member (m, "static_peak_bytes"), ==, 1158144000);
      g_assert_cmpint (json_object_get_int_member (m, "heap_simulator_events"), ==, 6);
    }

  tm_fixture_remove (dir);
  tm_fixture_remove (side_dir);
}

/* A name that is not valid UTF-8 is written with U+FFFD, and standard
 * error says how many bytes were, in the words and plural forms of the
 * other exports' warning. */
static void
test_cli_replaced_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tm_fixture_make_temp_dir (&error);

  g_assert_no_error (error);
  for (guint n = 1; n <= 2; n++)
    {
      g_autoptr(TmHloFixture) module = tm_hlo_fixture_new_chain ();
      Xla__HloModuleProto *proto = tm_hlo_fixture_get_proto (module)->hlo_module;
      g_autoptr(GBytes) bytes = NULL;
      g_autofree char *path = NULL;
      g_autofree char *name = g_strdup_printf ("bad_%u.hlo_proto.pb", n);
      g_auto(TmTestRun) run = { 0 };

      proto->computations[0]->instructions[0]->name = tm_hlo_fixture_strdup (module, n == 1 ? "mul\xff" : "mul\xfe\xff");
      tm_hlo_fixture_add_event (module, TM_HLO_ALLOC, 1, 0);
      tm_hlo_fixture_add_event (module, TM_HLO_FREE, 1, 0);
      bytes = tm_hlo_fixture_serialize (module);
      path = tm_fixture_write_bytes (bytes, dir, name, &error);
      g_assert_no_error (error);
      tm_test_run_cli (&run, NULL, "--export=memory-viewer-json", path, NULL);
      g_test_message ("%s", run.err);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_nonnull (strstr (run.out, "\xef\xbf\xbd"));
      {
        g_autoptr(GMatchInfo) match = NULL;
        g_autoptr(GRegex) regex = g_regex_new ("warning: ([0-9]+) (byte of names was|bytes of names were) "
                                               "not valid UTF-8 and (is|are) written as U\\+FFFD\n$", 0, 0, NULL);
        g_autofree char *count = NULL;
        g_autofree char *words = NULL;

        g_assert_true (g_regex_match (regex, run.err, 0, &match));
        count = g_match_info_fetch (match, 1);
        words = g_match_info_fetch (match, 2);
        /* Every place the name is written counts. */
        g_assert_cmpint (g_ascii_strtoll (count, NULL, 10) % n, ==, 0);
        g_assert_cmpstr (words, ==, g_str_equal (count, "1") ? "byte of names was" : "bytes of names were");
      }
    }
  tm_fixture_remove (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/memory-viewer-cli/export", test_cli);
  g_test_add_func ("/memory-viewer-cli/summary-without-modules", test_cli_summary_without_modules);
  g_test_add_func ("/memory-viewer-cli/summary-json", test_cli_summary_json);
  g_test_add_func ("/memory-viewer-cli/replaced-names", test_cli_replaced_names);

  return g_test_run ();
}
