/* test-portal.c — the folder shown for a file that came through the
 * document portal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The path logic without a bus, then tm_portal_display_folder() against a
 * stand-in org.freedesktop.portal.Documents on a private session bus
 * (GTestDBus starts its own dbus-daemon): the host folder once it answers,
 * no folder for what it does not know or when there is no portal, one
 * question per document, and never the portal's own path.
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>

#include "tm-portal.h"

#define RUNTIME "/run/user/1000"

/* ------------------------------------------------------------------ */
/* Paths                                                               */

static void
check_parse (const char *path,
             gboolean    under,
             const char *want_id,
             const char *want_below)
{
  g_autofree char *id = NULL;
  g_autofree char *below = NULL;

  g_assert_cmpint (tm_portal_parse_document_path (path, RUNTIME, &id, &below), ==, under);
  g_assert_cmpstr (id, ==, want_id);
  g_assert_cmpstr (below, ==, want_below);
}

static void
test_parse_document_path (void)
{
  /* A file document, a folder document and a file in it. */
  check_parse (RUNTIME "/doc/a1b2c3d4/host.xplane.pb", TRUE, "a1b2c3d4", "");
  check_parse (RUNTIME "/doc/5e6f/run-7", TRUE, "5e6f", "");
  check_parse (RUNTIME "/doc/5e6f/run-7/plugins/profile/h.xplane.pb", TRUE, "5e6f", "plugins/profile/h.xplane.pb");
  check_parse (RUNTIME "/doc/5e6f/run-7//h.xplane.pb", TRUE, "5e6f", "h.xplane.pb");
  /* The per-app view, and the sandbox's other name for the mount. */
  check_parse (RUNTIME "/doc/by-app/io.github.tidemark.Tidemark/a1b2/x.xplane.pb", TRUE, "a1b2", "");
  check_parse ("/run/flatpak/doc/a1b2/x.xplane.pb", TRUE, "a1b2", "");
  /* The mount's own folders: under the portal, but no document. */
  check_parse (RUNTIME "/doc", TRUE, NULL, NULL);
  check_parse (RUNTIME "/doc/a1b2", TRUE, NULL, NULL);
  check_parse (RUNTIME "/doc/a1b2/", TRUE, NULL, NULL);
  check_parse (RUNTIME "/doc/by-app/io.github.tidemark.Tidemark", TRUE, NULL, NULL);
  /* Not the portal. */
  check_parse ("/home/ana/runs/host.xplane.pb", FALSE, NULL, NULL);
  check_parse (RUNTIME "/docs/a1b2/x.xplane.pb", FALSE, NULL, NULL);
  check_parse (RUNTIME "/doc-a1b2/x.xplane.pb", FALSE, NULL, NULL);
  check_parse ("/run/user/1001/doc/a1b2/x.xplane.pb", FALSE, NULL, NULL);
  /* A runtime dir given with a trailing slash. */
  {
    g_autofree char *id = NULL;

    g_assert_true (tm_portal_parse_document_path (RUNTIME "/doc/ab/x", RUNTIME "/", &id, NULL));
    g_assert_cmpstr (id, ==, "ab");
  }
}

static void
test_folder_for_display (void)
{
  g_autofree char *home = tm_portal_folder_for_display ("/home/ana", "/home/ana");
  g_autofree char *below = tm_portal_folder_for_display ("/home/ana/logs/run", "/home/ana");
  g_autofree char *other = tm_portal_folder_for_display ("/data/logs", "/home/ana");
  g_autofree char *near = tm_portal_folder_for_display ("/home/anabel/logs", "/home/ana");

  g_assert_cmpstr (home, ==, "~");
  g_assert_cmpstr (below, ==, "~/logs/run");
  g_assert_cmpstr (other, ==, "/data/logs");
  g_assert_cmpstr (near, ==, "/home/anabel/logs");
}

static void
test_parse_host_paths (void)
{
  GVariantBuilder builder;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) wrong = g_variant_ref_sink (g_variant_new ("(a{ss})", NULL));
  g_autoptr(GHashTable) paths = NULL;
  static const char no_nul[] = { '/', 't', 'm', 'p' };

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{say}"));
  g_variant_builder_add (&builder, "{s@ay}", "a1", g_variant_new_bytestring ("/home/ana/h.xplane.pb"));
  g_variant_builder_add (&builder, "{s@ay}", "b2",
                         g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, no_nul, sizeof no_nul, 1));
  g_variant_builder_add (&builder, "{s@ay}", "c3", g_variant_new_bytestring (""));
  g_variant_builder_add (&builder, "{s@ay}", "d4", g_variant_new_bytestring ("relative/x"));
  g_variant_builder_add (&builder, "{s@ay}", "e5",
                         g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, "/a\0b", 5, 1));
  reply = g_variant_ref_sink (g_variant_new ("(a{say})", &builder));

  paths = tm_portal_parse_host_paths (reply);
  g_assert_nonnull (paths);
  g_assert_cmpuint (g_hash_table_size (paths), ==, 2);
  g_assert_cmpstr (g_hash_table_lookup (paths, "a1"), ==, "/home/ana/h.xplane.pb");
  g_assert_cmpstr (g_hash_table_lookup (paths, "b2"), ==, "/tmp");

  g_assert_null (tm_portal_parse_host_paths (wrong));
  g_assert_null (tm_portal_parse_host_paths (NULL));
}

/* An ordinary file: its folder, as before; never a bus. */
static void
test_display_folder_local (void)
{
  g_autofree char *path = g_build_filename (g_get_home_dir (), "runs", "h.xplane.pb", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) root = g_file_new_for_path ("/");
  g_autoptr(GFile) elsewhere = g_file_new_for_path ("/data/h.xplane.pb");
  g_autofree char *folder = tm_portal_display_folder (file, NULL, NULL);
  g_autofree char *none = tm_portal_display_folder (root, NULL, NULL);
  g_autofree char *data = tm_portal_display_folder (elsewhere, NULL, NULL);

  g_assert_cmpstr (folder, ==, "~/runs");
  g_assert_null (none);
  g_assert_cmpstr (data, ==, "/data");

  {
    g_autofree char *shown = tm_portal_display_path (file);
    g_autofree char *shown_root = tm_portal_display_path (root);

    g_assert_cmpstr (shown, ==, "~/runs/h.xplane.pb");
    g_assert_cmpstr (shown_root, ==, "/");
  }
}

/* ------------------------------------------------------------------ */
/* A stand-in document portal                                          */

static const char documents_xml[] =
  "<node>"
  "  <interface name='org.freedesktop.portal.Documents'>"
  "    <method name='GetHostPaths'>"
  "      <arg type='as' name='doc_ids' direction='in'/>"
  "      <arg type='a{say}' name='paths' direction='out'/>"
  "    </method>"
  "  </interface>"
  "</node>";

typedef struct
{
  GHashTable *documents;   /* id -> host path */
  guint       calls;
} FakePortal;

static void
fake_method_call (GDBusConnection       *connection,
                  const char            *sender,
                  const char            *object_path,
                  const char            *interface_name,
                  const char            *method_name,
                  GVariant              *parameters,
                  GDBusMethodInvocation *invocation,
                  gpointer               user_data)
{
  FakePortal *fake = user_data;
  g_autofree const char **ids = NULL;
  GVariantBuilder builder;

  fake->calls++;
  g_variant_get (parameters, "(^a&s)", &ids);
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{say}"));
  for (guint i = 0; ids[i] != NULL; i++)
    {
      const char *path = g_hash_table_lookup (fake->documents, ids[i]);

      /* Like the portal: an id it does not know is left out. */
      if (path != NULL)
        g_variant_builder_add (&builder, "{s@ay}", ids[i], g_variant_new_bytestring (path));
    }
  g_dbus_method_invocation_return_value (invocation, g_variant_new ("(a{say})", &builder));
}

static const GDBusInterfaceVTable fake_vtable = { fake_method_call, NULL, NULL, { 0 } };

typedef struct
{
  GObject *object;
  guint    count;
} Seen;

static void
count_notify (gpointer object)
{
  Seen *seen = g_object_get_data (object, "seen");

  g_assert_true (seen->object == object);
  seen->count++;
}

static void
iterate_until_seen (Seen  *seen,
                    guint  count)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (seen->count < count && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (seen->count, ==, count);
}

static char *
doc_path (const char *id,
          const char *rest)
{
  return g_build_filename (g_get_user_runtime_dir (), "doc", id, rest, NULL);
}

static void
test_display_folder_portal (void)
{
  g_autoptr(GTestDBus) bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_autoptr(GDBusConnection) connection = NULL;
  g_autoptr(GDBusNodeInfo) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) window = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GObject) gone = g_object_new (G_TYPE_OBJECT, NULL);
  g_autofree char *home_run = g_build_filename (g_get_home_dir (), "logs", "run-7", NULL);
  g_autofree char *home_file = g_build_filename (g_get_home_dir (), "logs", "h1.xplane.pb", NULL);
  g_autofree char *file_path = doc_path ("a1b2", "h1.xplane.pb");
  g_autofree char *in_run_path = doc_path ("c3d4", "run-7/plugins/profile/h2.xplane.pb");
  g_autofree char *run_path = doc_path ("c3d4", "run-7");
  g_autofree char *unknown_path = doc_path ("ffff", "x.xplane.pb");
  g_autofree char *mount_path = doc_path ("a1b2", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (file_path);
  g_autoptr(GFile) in_run = g_file_new_for_path (in_run_path);
  g_autoptr(GFile) run = g_file_new_for_path (run_path);
  g_autoptr(GFile) unknown = g_file_new_for_path (unknown_path);
  g_autoptr(GFile) mount = g_file_new_for_path (mount_path);
  FakePortal fake = { 0 };
  Seen seen = { window, 0 };
  Seen seen_gone = { gone, 0 };
  char *folder;
  guint registration, owner;

  tm_portal_forget ();
  g_test_dbus_up (bus);
  connection = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);

  fake.documents = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (fake.documents, "a1b2", home_file);
  g_hash_table_insert (fake.documents, "c3d4", home_run);
  node = g_dbus_node_info_new_for_xml (documents_xml, &error);
  g_assert_no_error (error);
  registration = g_dbus_connection_register_object (connection, "/org/freedesktop/portal/documents",
                                                    node->interfaces[0], &fake_vtable, &fake, NULL, &error);
  g_assert_no_error (error);
  owner = g_bus_own_name_on_connection (connection, "org.freedesktop.portal.Documents",
                                        G_BUS_NAME_OWNER_FLAGS_NONE, NULL, NULL, NULL, NULL);
  g_object_set_data (window, "seen", &seen);
  g_object_set_data (gone, "seen", &seen_gone);

  /* Before the portal answers: no folder, and never the portal's path. */
  folder = tm_portal_display_folder (file, count_notify, window);
  g_assert_null (folder);
  /* Asked again while the question is out: still one question, and one
   * call back. */
  folder = tm_portal_display_folder (file, count_notify, window);
  g_assert_null (folder);
  /* One who waits and is gone before the answer is not called. */
  folder = tm_portal_display_folder (file, count_notify, gone);
  g_assert_null (folder);
  g_clear_object (&gone);
  iterate_until_seen (&seen, 1);
  g_assert_cmpuint (seen_gone.count, ==, 0);

  /* Then the folder the user chose it in. */
  folder = tm_portal_display_folder (file, count_notify, window);
  g_assert_cmpstr (folder, ==, "~/logs");
  g_free (folder);
  folder = tm_portal_display_path (file);
  g_assert_cmpstr (folder, ==, "~/logs/h1.xplane.pb");
  g_free (folder);

  /* A file in a run folder that came through the portal, and the folder. */
  folder = tm_portal_display_folder (in_run, count_notify, window);
  g_assert_null (folder);
  iterate_until_seen (&seen, 2);
  folder = tm_portal_display_folder (in_run, count_notify, window);
  g_assert_cmpstr (folder, ==, "~/logs/run-7/plugins/profile");
  g_free (folder);
  folder = tm_portal_display_folder (run, count_notify, window);
  g_assert_cmpstr (folder, ==, "~/logs");
  g_free (folder);

  /* A document the portal does not know: no folder, asked once. */
  folder = tm_portal_display_folder (unknown, count_notify, window);
  g_assert_null (folder);
  iterate_until_seen (&seen, 3);
  folder = tm_portal_display_folder (unknown, count_notify, window);
  g_assert_null (folder);
  folder = tm_portal_display_path (unknown);
  g_assert_cmpstr (folder, ==, "x.xplane.pb");
  g_free (folder);

  /* The mount's own folder has no document to ask about. */
  folder = tm_portal_display_folder (mount, count_notify, window);
  g_assert_null (folder);

  /* One question per document, whatever was asked after. */
  g_assert_cmpuint (fake.calls, ==, 3);
  g_assert_cmpuint (seen.count, ==, 3);

  /* No portal on the bus: no folder, and the caller still hears of it. */
  tm_portal_forget ();
  g_bus_unown_name (owner);
  g_dbus_connection_unregister_object (connection, registration);
  folder = tm_portal_display_folder (file, count_notify, window);
  g_assert_null (folder);
  iterate_until_seen (&seen, 4);
  folder = tm_portal_display_folder (file, count_notify, window);
  g_assert_null (folder);
  g_assert_cmpuint (fake.calls, ==, 3);

  tm_portal_forget ();
  g_hash_table_unref (fake.documents);
  g_clear_object (&connection);
  g_test_dbus_down (bus);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/portal/parse-document-path", test_parse_document_path);
  g_test_add_func ("/portal/folder-for-display", test_folder_for_display);
  g_test_add_func ("/portal/parse-host-paths", test_parse_host_paths);
  g_test_add_func ("/portal/display-folder/local", test_display_folder_local);
  g_test_add_func ("/portal/display-folder/portal", test_display_folder_portal);

  return g_test_run ();
}
