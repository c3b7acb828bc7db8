/* tm-cli.c — the command line: --summary and --export, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <gio/gio.h>
#include <gio/gunixoutputstream.h>

#include "tm-cli.h"
#include "tm-error.h"
#include "tm-export.h"
#include "tm-format.h"
#include "tm-profile.h"

static const char * const cli_options[] = {
  "--summary", "--export", "--json", "--memory-id", "--output",
};

gboolean
tm_cli_wants (int    argc,
              char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--"))
        break;
      if (g_str_has_prefix (argv[i], "-o"))
        return TRUE;
      for (guint k = 0; k < G_N_ELEMENTS (cli_options); k++)
        {
          gsize len = strlen (cli_options[k]);

          if (strncmp (argv[i], cli_options[k], len) == 0 &&
              (argv[i][len] == '\0' || argv[i][len] == '='))
            return TRUE;
        }
    }
  return FALSE;
}

static int
fail (const char   *path,
      const GError *error)
{
  g_autofree char *display = g_filename_display_name (path);

  g_printerr ("tidemark: %s: %s\n", display, error->message);
  return 1;
}

static int
usage (GOptionContext *context,
       const char     *message)
{
  g_printerr ("tidemark: %s\n", message);
  g_printerr ("%s\n", _("Try “tidemark --help” for the options."));
  return 2;
}

/* Characters that take no column of their own (Thai vowel and tone marks
 * above and below the line, and other combining marks). */
static glong
display_width (const char *text)
{
  glong width = 0;

  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!g_unichar_ismark (c) && !g_unichar_iszerowidth (c))
        width += g_unichar_iswide (c) ? 2 : 1;
    }
  return width;
}

static void
print_row (const char *label,
           const char *value)
{
  /* Pad by what the terminal shows, not by bytes, so translated labels
   * line up too. */
  glong pad = MAX (24 - display_width (label), 0);

  g_print ("  %s%*s %s\n", label, (int) pad, "", value);
}

static void
print_bytes (const char *label,
             gint64      bytes)
{
  g_autofree char *human = tm_format_bytes (bytes);
  g_autofree char *exact = tm_format_bytes_exact (bytes);
  g_autofree char *text = g_strdup_printf ("%s (%s)", human, exact);

  print_row (label, text);
}

/* Names from a file may be any bytes: each byte that starts no valid UTF-8
 * sequence becomes U+FFFD, counted in *n_replaced. */
static char *
make_valid (const char *text,
            guint      *n_replaced)
{
  GString *str = g_string_new (NULL);

  for (const char *p = text; *p != '\0';)
    {
      const char *end;

      if (g_utf8_validate (p, -1, &end))
        {
          g_string_append (str, p);
          break;
        }
      g_string_append_len (str, p, end - p);
      if (*end == '\0')
        break;
      g_string_append (str, "\xef\xbf\xbd");
      (*n_replaced)++;
      p = end + 1;
    }
  return g_string_free (str, FALSE);
}

static void
warn_replaced (const char *path,
               guint       n_replaced)
{
  g_autofree char *display = NULL;

  if (n_replaced == 0)
    return;
  display = g_filename_display_name (path);
  g_printerr (g_dngettext (GETTEXT_PACKAGE,
                           "tidemark: %s: warning: %u byte of names was not valid UTF-8 and is written as U+FFFD\n",
                           "tidemark: %s: warning: %u bytes of names were not valid UTF-8 and are written as U+FFFD\n",
                           n_replaced),
              display, n_replaced);
}

static void
print_summary (TmProfile *profile,
               guint     *n_replaced)
{
  g_autofree char *raw_basename = g_file_get_basename (tm_profile_get_file (profile));
  g_autofree char *basename = make_valid (raw_basename, n_replaced);
  g_autofree char *size = tm_format_bytes ((gint64) tm_profile_get_file_size (profile));
  guint n = tm_profile_get_n_memory_ids (profile);

  g_autofree char *ids = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u memory id", "%u memory ids", n), n);

  g_print ("%s — %s, %s, %s\n", basename,
           tm_profile_get_format (profile) == TM_PROFILE_FORMAT_XSPACE
           ? "XSpace" : _("XProf memory-profile JSON (sampled points only)"),
           size, ids);

  if (n == 0)
    {
      if (tm_profile_get_format (profile) == TM_PROFILE_FORMAT_XSPACE && !tm_profile_has_host_plane (profile))
        g_print ("%s\n", _("No memory data: the profile has no host plane (/host:CPU)."));
      else
        g_print ("%s\n", _("No memory data: the host plane has no MemoryAllocation or MemoryDeallocation events. "
                           "Capture with host_tracer_level 2 or higher on a BFC allocator."));
    }

  for (guint i = 0; i < n; i++)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (profile, i);
      TmAnalysis *analysis = tm_profile_get_analysis (profile, i);
      const TmSummary *s = tm_memory_store_get_summary (store);
      GPtrArray *rows = tm_analysis_get_peak_breakdown (analysis);
      g_autofree char *allocs = tm_format_count (s->n_allocations);
      g_autofree char *deallocs = tm_format_count (s->n_deallocations);
      g_autofree char *when = tm_format_time_ms (s->peak_time_ps);
      g_autofree char *peak = tm_format_bytes (s->peak_bytes_in_use);
      g_autofree char *peak_exact = tm_format_bytes_exact (s->peak_bytes_in_use);
      g_autofree char *peak_text = g_strdup_printf (_("%s (%s) at %s, step %" PRId64),
                                                    peak, peak_exact, when,
                                                    tm_analysis_get_peak_step_id (analysis));
      g_autofree char *frag = tm_format_percent (s->peak_fragmentation);
      g_autofree char *nrows = g_strdup_printf ("%u", rows->len);
      g_autofree char *id = make_valid (tm_memory_store_get_id (store), n_replaced);

      g_print ("\n%s\n", id);
      print_row (_("allocations"), allocs);
      print_row (_("deallocations"), deallocs);
      print_bytes (_("memory capacity"), s->memory_capacity);
      print_bytes (_("lifetime peak heap"), s->peak_bytes_usage_lifetime);
      print_row (_("window peak"), peak_text);
      print_bytes (_("  stack at peak"), s->peak_stack_bytes);
      print_bytes (_("  heap at peak"), s->peak_heap_bytes);
      print_bytes (_("  free at peak"), s->peak_free_bytes);
      print_row (_("  fragmentation at peak"), frag);
      print_row (_("breakdown rows at peak"), nrows);
    }
}

int
tm_cli_run (int    argc,
            char **argv)
{
  gboolean summary = FALSE;
  gboolean json = FALSE;
  g_autofree char *export_format = NULL;
  g_autofree char *memory_id = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) files = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const GOptionEntry entries[] = {
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary, N_("Print the summary of every memory id and exit"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("With --summary: print it as JSON with exact integers"), NULL },
    { "export", 0, 0, G_OPTION_ARG_STRING, &export_format, N_("Write XProf's memory-profile JSON (xprof-json) or the peak breakdown (csv) and exit"), N_("FORMAT") },
    { "memory-id", 0, 0, G_OPTION_ARG_STRING, &memory_id, N_("With --export=csv: the memory id (default: the one with the highest peak)"), N_("ID") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Where to write the export (default or “-”: standard output)"), N_("PATH") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE") },
    { NULL }
  };
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GOutputStream) out = NULL;
  guint n_replaced = 0;

  context = g_option_context_new (_("FILE — show or export a memory profile without a window"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (context, error->message);

  if (summary == (export_format != NULL))
    return usage (context, _("give either --summary or --export"));
  if (json && !summary)
    return usage (context, _("--json goes with --summary"));
  if (export_format != NULL && !g_str_equal (export_format, "xprof-json") && !g_str_equal (export_format, "csv"))
    return usage (context, _("--export takes xprof-json or csv"));
  if (memory_id != NULL && (export_format == NULL || !g_str_equal (export_format, "csv")))
    return usage (context, _("--memory-id goes with --export=csv"));
  if (output != NULL && export_format == NULL)
    return usage (context, _("--output goes with --export"));
  if (files == NULL || files[0] == NULL)
    return usage (context, _("no profile file given"));
  if (files[1] != NULL && (export_format != NULL || json))
    return usage (context, _("give exactly one profile file"));

  for (guint f = 0; files[f] != NULL; f++)
    {
      g_clear_object (&file);
      g_clear_object (&profile);

      file = g_file_new_for_commandline_arg (files[f]);
      profile = tm_profile_load (file, NULL, NULL, NULL, &error);
      if (profile == NULL)
        return fail (files[f], error);

      if (summary && !json)
        {
          if (f > 0)
            g_print ("\n");
          n_replaced = 0;
          print_summary (profile, &n_replaced);
          warn_replaced (files[f], n_replaced);
          continue;
        }

      if (output == NULL || g_str_equal (output, "-"))
        out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
      else
        {
          g_autoptr(GFile) dest = g_file_new_for_commandline_arg (output);
          GFileOutputStream *fout = g_file_replace (dest, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);

          if (fout == NULL)
            return fail (output, error);
          out = G_OUTPUT_STREAM (fout);
        }

      if (json)
        {
          if (!tm_export_summary_json_full (profile, out, &n_replaced, NULL, &error))
            return fail (output != NULL ? output : files[f], error);
          warn_replaced (files[f], n_replaced);
        }
      else if (g_str_equal (export_format, "xprof-json"))
        {
          if (!tm_export_xprof_json_full (profile, out, &n_replaced, NULL, &error))
            return fail (output != NULL ? output : "-", error);
          warn_replaced (files[f], n_replaced);
        }
      else
        {
          TmMemoryStore *store;

          if (memory_id != NULL)
            store = tm_profile_lookup_memory_store (profile, memory_id);
          else if (tm_profile_get_n_memory_ids (profile) > 0)
            store = tm_profile_get_memory_store (profile, tm_profile_get_busiest_index (profile));
          else
            store = NULL;

          if (store == NULL)
            {
              g_autoptr(GError) e = NULL;

              if (memory_id != NULL)
                g_set_error (&e, TM_ERROR, TM_ERROR_NO_MEMORY_ID,
                             _("has no memory id “%s”"), memory_id);
              else
                g_set_error (&e, TM_ERROR, TM_ERROR_NO_MEMORY_ID,
                             _("has no memory data to export"));
              return fail (files[f], e);
            }

          if (!tm_export_breakdown_csv (tm_analysis_get_peak_breakdown (tm_profile_lookup_analysis (profile, store)),
                                        out, NULL, &error))
            return fail (output != NULL ? output : "-", error);
        }

      if (!g_output_stream_close (out, NULL, &error))
        return fail (output != NULL ? output : "-", error);
    }

  return 0;
}
