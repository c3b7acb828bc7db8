/* tm-cli.c — the command line: --summary and --export, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <gio/gio.h>
#include <gio/gunixoutputstream.h>

#include "tm-cli.h"
#include "tm-cli-compare.h"
#include "tm-error.h"
#include "tm-allocations.h"
#include "tm-export.h"
#include "tm-format.h"
#include "tm-profile.h"
#include "tm-scopes.h"
#include "tm-xspace-writer.h"

static const char * const cli_options[] = {
  "--summary", "--export", "--compare", "--json", "--memory-id", "--output", "--at",
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

static void
print_summary (TmProfile *profile)
{
  g_autofree char *basename = g_file_get_basename (tm_profile_get_file (profile));
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
      g_autoptr(GError) error = NULL;
      guint n_never_freed = 0;
      gint64 never_freed_bytes = 0;
      g_autofree char *never_freed = NULL;

      g_print ("\n%s\n", tm_memory_store_get_id (store));
      print_row (_("allocations"), allocs);
      print_row (_("deallocations"), deallocs);
      if (tm_allocations_count_never_freed (store, &n_never_freed, &never_freed_bytes, &error))
        {
          g_autofree char *count = tm_format_count (n_never_freed);
          g_autofree char *human = tm_format_bytes (never_freed_bytes);
          g_autofree char *exact = tm_format_bytes_exact (never_freed_bytes);

          /* TRANSLATORS: never freed: count of allocations, then their bytes */
          never_freed = g_strdup_printf (_("%s, %s (%s)"), count, human, exact);
        }
      else
        never_freed = g_strdup (error->message);
      print_row (_("never freed"), never_freed);
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

/* --export=memory-xplane (docs/formats.md §4): binary, so only to a file,
 * or to standard output when "-o -" says so and it is not a terminal. */
static int
export_memory_xplane (const char *path,
                      const char *output)
{
  g_autoptr(GFile) input = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;

  if (g_str_equal (output, "-"))
    {
      g_autoptr(TmSource) source = NULL;
      g_autoptr(GOutputStream) out = NULL;
      g_autofree char *local = g_file_get_path (input);

      if (isatty (STDOUT_FILENO))
        {
          g_printerr ("tidemark: %s\n", _("will not write a binary profile to a terminal"));
          return 2;
        }
      source = local != NULL ? tm_source_open (local, &error) : NULL;
      if (source == NULL)
        {
          if (error == NULL)
            g_set_error (&error, TM_ERROR, TM_ERROR_READ, _("cannot be read: only local files can be opened"));
          return fail (path, error);
        }
      out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
      if (!tm_xspace_write_memory_only (source, out, NULL, NULL, NULL, &error) ||
          !g_output_stream_close (out, NULL, &error))
        return fail (error->domain == G_IO_ERROR ? "-" : path, error);
      return 0;
    }

  {
    g_autoptr(GFile) dest = g_file_new_for_commandline_arg (output);

    if (!tm_xspace_save_memory_only (input, dest, NULL, NULL, NULL, &error))
      return fail (error->domain == G_IO_ERROR ? output : path, error);
  }
  return 0;
}

/* A time in milliseconds ("2587", "2587.25") to picoseconds, exactly for
 * up to nine decimals. */
static gboolean
parse_ms (const char *text,
          gint64     *ps)
{
  const char *dot = strchr (text, '.');
  g_autofree char *whole = g_strndup (text, dot != NULL ? (gsize) (dot - text) : strlen (text));
  guint64 ms, frac = 0;
  guint digits = 0;

  if (!g_ascii_string_to_unsigned (whole, 10, 0, G_MAXINT64 / 1000000000, &ms, NULL))
    return FALSE;
  if (dot != NULL)
    {
      for (const char *p = dot + 1; *p != '\0'; p++, digits++)
        {
          if (!g_ascii_isdigit (*p) || digits == 9)
            return FALSE;
          frac = frac * 10 + (guint64) (*p - '0');
        }
      if (digits == 0)
        return FALSE;
    }
  for (; digits < 9; digits++)
    frac *= 10;
  *ps = (gint64) (ms * 1000000000 + frac);
  return TRUE;
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
  g_autofree char *at = NULL;
  g_auto(GStrv) files = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const GOptionEntry entries[] = {
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary, N_("Print the summary of every memory id and exit"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("With --summary: print it as JSON with exact integers"), NULL },
    { "export", 0, 0, G_OPTION_ARG_STRING, &export_format, N_("Write XProf's memory-profile JSON (xprof-json), the peak breakdown (csv), every allocation (allocations), the scopes as collapsed stacks (collapsed) or the memory-only profile (memory-xplane) and exit"), N_("FORMAT") },
    { "memory-id", 0, 0, G_OPTION_ARG_STRING, &memory_id, N_("With --export=csv, allocations or collapsed: the memory id (default: the one with the highest peak)"), N_("ID") },
    { "at", 0, 0, G_OPTION_ARG_STRING, &at, N_("With --export=collapsed: the time in milliseconds (default: the peak)"), N_("MS") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Where to write the export (default or “-”: standard output)"), N_("PATH") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE") },
    { NULL }
  };
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GOutputStream) out = NULL;
  gint64 at_ps = 0;

  /* --compare has options and arguments of its own (tm-cli-compare.c). */
  if (tm_cli_compare_wants (argc, argv))
    return tm_cli_compare_run (argc, argv);

  context = g_option_context_new (_("FILE — show or export a memory profile without a window"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (context, error->message);

  if (summary == (export_format != NULL))
    return usage (context, _("give either --summary or --export"));
  if (json && !summary)
    return usage (context, _("--json goes with --summary"));
  if (export_format != NULL && !g_str_equal (export_format, "xprof-json") && !g_str_equal (export_format, "csv") &&
      !g_str_equal (export_format, "allocations") && !g_str_equal (export_format, "collapsed") &&
      !g_str_equal (export_format, "memory-xplane"))
    return usage (context, _("--export takes xprof-json, csv, allocations, collapsed or memory-xplane"));
  if (memory_id != NULL && (export_format == NULL || g_str_equal (export_format, "xprof-json") ||
                            g_str_equal (export_format, "memory-xplane")))
    return usage (context, _("--memory-id goes with --export=csv, allocations or collapsed"));
  if (at != NULL && (export_format == NULL || !g_str_equal (export_format, "collapsed")))
    return usage (context, _("--at goes with --export=collapsed"));
  if (at != NULL && !parse_ms (at, &at_ps))
    return usage (context, _("--at takes a time in milliseconds"));
  if (output != NULL && export_format == NULL)
    return usage (context, _("--output goes with --export"));
  if (files == NULL || files[0] == NULL)
    return usage (context, _("no profile file given"));
  if (files[1] != NULL && (export_format != NULL || json))
    return usage (context, _("give exactly one profile file"));
  if (export_format != NULL && g_str_equal (export_format, "memory-xplane"))
    {
      if (output == NULL)
        return usage (context, _("--export=memory-xplane needs --output (“-o -” writes to standard output)"));
      return export_memory_xplane (files[0], output);
    }

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
          print_summary (profile);
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
          if (!tm_export_summary_json (profile, out, NULL, &error))
            return fail (output != NULL ? output : files[f], error);
        }
      else if (g_str_equal (export_format, "xprof-json"))
        {
          if (!tm_export_xprof_json (profile, out, NULL, &error))
            return fail (output != NULL ? output : "-", error);
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

          if (g_str_equal (export_format, "collapsed"))
            {
              g_autoptr(TmScopeTree) tree = tm_scope_tree_new_at (tm_profile_lookup_analysis (profile, store),
                                                                  at == NULL, at_ps, TM_SCOPE_GROUPING_NAME);

              if (!tm_scope_tree_write_collapsed (tree, out, NULL, &error))
                return fail (output != NULL ? output : "-", error);
            }
          else if (g_str_equal (export_format, "allocations"))
            {
              if (!tm_export_allocations_csv (store, out, NULL, &error))
                return fail (output != NULL ? output : "-", error);
            }
          else if (!tm_export_breakdown_csv (tm_analysis_get_peak_breakdown (tm_profile_lookup_analysis (profile, store)),
                                             out, NULL, &error))
            return fail (output != NULL ? output : "-", error);
        }

      if (!g_output_stream_close (out, NULL, &error))
        return fail (output != NULL ? output : "-", error);
    }

  return 0;
}
