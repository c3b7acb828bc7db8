/* tm-cli-memory-viewer.c — XProf's Memory Viewer on the command line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The JSON contract is docs/buffer-assignment.md, section 5. The
 * modules come from the profile (tm_profile_list_hlo_entries: the ones it
 * holds, then sidecars beside it) or from one sidecar given directly; each
 * is decoded and computed in turn, and dropped before the next.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <gio/gio.h>
#include <gio/gunixoutputstream.h>

#include "tm-buffer-assignment.h"
#include "tm-cli-memory-viewer.h"
#include "tm-cli-private.h"
#include "tm-error.h"
#include "tm-format.h"
#include "tm-hlo.h"
#include "tm-memory-viewer-json.h"

#define FORMAT "memory-viewer-json"

gboolean
tm_cli_memory_viewer_wants (int    argc,
                            char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--"))
        break;
      if (g_str_equal (argv[i], "--export=" FORMAT) ||
          (g_str_equal (argv[i], "--export") && i + 1 < argc && g_str_equal (argv[i + 1], FORMAT)))
        return TRUE;
    }
  return FALSE;
}

static int
mv_fail (const char   *path,
         const GError *error)
{
  g_autofree char *display = g_filename_display_name (path);

  g_printerr ("tidemark: %s: %s\n", display, error->message);
  return 1;
}

static int
mv_usage (const char *message)
{
  g_printerr ("tidemark: %s\n", message);
  g_printerr ("%s\n", _("Try “tidemark --help” for the options."));
  return 2;
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (((const TmHloEntry *) a)->name, ((const TmHloEntry *) b)->name);
}

/* The modules of path: a sidecar's one, or a profile's. */
static GArray *
list_entries (const char  *path,
              GError     **error)
{
  g_autoptr(GArray) entries = tm_hlo_entries_new ();

  if (g_str_has_suffix (path, TM_HLO_SIDECAR_SUFFIX))
    {
      TmHloEntry entry;

      if (!tm_hlo_open_sidecar (path, &entry, error))
        return NULL;
      g_array_append_val (entries, entry);
    }
  else
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
      g_autoptr(TmProfile) profile = tm_profile_load (file, NULL, NULL, NULL, error);

      if (profile == NULL)
        return NULL;
      g_clear_pointer (&entries, g_array_unref);
      entries = tm_profile_list_hlo_entries (profile);
    }
  return g_steal_pointer (&entries);
}

int
tm_cli_memory_viewer_run (int    argc,
                          char **argv)
{
  g_autofree char *export_format = NULL;
  g_autofree char *module = NULL;
  g_autofree char *memory_space_text = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) files = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const GOptionEntry entries[] = {
    { "export", 0, 0, G_OPTION_ARG_STRING, &export_format, N_("Write XProf's Memory Viewer result of every XLA module (memory-viewer-json) and exit"), N_("FORMAT") },
    { "module", 0, 0, G_OPTION_ARG_STRING, &module, N_("Only this module, named as XProf lists it: “name(program id)”"), N_("NAME") },
    { "memory-space", 0, 0, G_OPTION_ARG_STRING, &memory_space_text, N_("The memory space (XLA's colour; default 0, device memory)"), N_("N") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Where to write the JSON (default or “-”: standard output)"), N_("PATH") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE") },
    { NULL }
  };
  g_autoptr(GArray) hlo_entries = NULL;
  g_autoptr(GArray) results = NULL;
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_buffer_assignment_free);
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *base = NULL;
  g_autofree char *json = NULL;
  gint64 memory_space = 0;
  guint n_replaced = 0;

  context = g_option_context_new (_("FILE — write XProf's Memory Viewer result without a window"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return mv_usage (error->message);

  if (export_format == NULL || !g_str_equal (export_format, FORMAT))
    return mv_usage (_("give --export=memory-viewer-json once"));
  if (memory_space_text != NULL &&
      !g_ascii_string_to_signed (memory_space_text, 10, G_MININT64, G_MAXINT64, &memory_space, NULL))
    return mv_usage (_("--memory-space takes an integer"));
  if (files == NULL || files[0] == NULL)
    return mv_usage (_("no profile file given"));
  if (files[1] != NULL)
    return mv_usage (_("give exactly one profile file"));

  hlo_entries = list_entries (files[0], &error);
  if (hlo_entries == NULL)
    return mv_fail (files[0], error);
  g_array_sort (hlo_entries, compare_entries);

  results = g_array_new (FALSE, TRUE, sizeof (TmMemoryViewerModule));
  for (guint i = 0; i < hlo_entries->len; i++)
    {
      const TmHloEntry *entry = &g_array_index (hlo_entries, TmHloEntry, i);
      g_autoptr(TmHloProto) proto = NULL;
      g_autoptr(GError) local = NULL;
      TmMemoryViewerModule m = { entry->name, memory_space, NULL, NULL };
      TmBufferAssignment *ba = NULL;

      if (module != NULL && !g_str_equal (module, entry->name))
        continue;
      proto = tm_hlo_entry_decode (entry, &local);
      if (proto != NULL)
        ba = tm_buffer_assignment_compute (proto, entry->name, memory_space,
                                           TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE, NULL, &local);
      if (ba != NULL)
        {
          m.result = ba;
          g_ptr_array_add (keep, ba);
        }
      else
        {
          m.error = local->message;
          g_ptr_array_add (messages, g_steal_pointer (&local->message));
        }
      g_array_append_val (results, m);
    }

  if (module != NULL && results->len == 0)
    {
      g_set_error (&error, TM_ERROR, TM_ERROR_INVALID, _("has no XLA module “%s”"), module);
      return mv_fail (files[0], error);
    }

  base = g_path_get_basename (files[0]);
  json = tm_memory_viewer_json (base, (const TmMemoryViewerModule *) (gpointer) results->data,
                                results->len, &n_replaced);

  if (output == NULL || g_str_equal (output, "-"))
    {
      if (fputs (json, stdout) == EOF || fflush (stdout) != 0)
        {
          g_set_error (&error, TM_ERROR, TM_ERROR_READ, _("cannot be written"));
          return mv_fail ("-", error);
        }
    }
  else if (!g_file_set_contents (output, json, -1, &error))
    return mv_fail (output, error);

  /* The same words (and plural forms) as the other exports' warning. */
  tm_cli_warn_replaced (files[0], n_replaced);
  return 0;
}

void
tm_cli_memory_viewer_print_modules (TmProfile *profile)
{
  g_autoptr(GArray) entries = tm_profile_list_hlo_entries (profile);

  if (entries->len == 0)
    return;
  g_array_sort (entries, compare_entries);

  g_print ("\n%s\n", _("XLA modules (static plan, memory space 0)"));
  for (guint i = 0; i < entries->len; i++)
    {
      const TmHloEntry *entry = &g_array_index (entries, TmHloEntry, i);
      g_autoptr(TmHloProto) proto = NULL;
      g_autoptr(TmBufferAssignment) ba = NULL;
      g_autoptr(GError) local = NULL;
      g_autofree char *peak = NULL;
      g_autofree char *exact = NULL;

      proto = tm_hlo_entry_decode (entry, &local);
      if (proto != NULL)
        ba = tm_buffer_assignment_compute (proto, entry->name, 0, TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE,
                                           NULL, &local);
      if (ba == NULL)
        {
          g_print ("  %s\n    %s\n", entry->name, local->message);
          continue;
        }
      peak = tm_format_bytes (tm_buffer_assignment_get_peak (ba));
      exact = tm_format_bytes_exact (tm_buffer_assignment_get_peak (ba));
      g_print ("  %s\n", entry->name);
      if (ba->n_trace_events > 0)
        /* TRANSLATORS: the static peak, its exact bytes, the event of the heap trace that raised it (from 1) and the number of events */
        g_print (_("    static peak %s (%s), reached at event %" PRId64 " of %" PRId64 "\n"),
                 peak, exact, ba->peak_position + 1, ba->n_trace_events);
      else
        g_print (_("    static peak %s (%s), no heap trace\n"), peak, exact);
    }
}
