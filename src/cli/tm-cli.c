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
#include "tm-cli-memory-viewer.h"
#include "tm-cli-private.h"
#include "tm-cli-torch.h"
#include "tm-error.h"
#include "tm-allocations.h"
#include "tm-chart-axes.h"
#include "tm-chart-export.h"
#include "tm-export.h"
#include "tm-format.h"
#include "tm-input-picker.h"
#include "tm-output.h"
#include "tm-profile.h"
#include "tm-run.h"
#include "tm-scopes.h"
#include "tm-xspace-writer.h"

static const char * const cli_options[] = {
  "--summary", "--export", "--compare", "--json", "--memory-id", "--baseline-memory-id", "--output", "--at",
  "--never-freed",
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
  g_autofree char *safe_display = tm_format_for_terminal (display, NULL);
  /* A message may quote a name from the file (docs/formats.md, section 5). */
  g_autofree char *message = tm_format_for_terminal (error->message, NULL);

  g_printerr ("tidemark: %s: %s\n", safe_display, message);
  return 1;
}

/* A failed output: its message names the path (tm-output.h). */
static int
fail_output (const GError *error)
{
  g_autofree char *message = tm_format_for_terminal (error->message, NULL);

  g_printerr ("tidemark: %s\n", message);
  return 1;
}

/* A writer failed: nothing is left of a file it was writing. */
static int
fail_write (TmOutput *output,
            GError   *error)
{
  g_autoptr(GError) reworded = g_error_copy (error);

  tm_output_finish (output, FALSE, &reworded);
  return fail_output (reworded);
}

static int
usage (GOptionContext *context,
       const char     *message)
{
  g_printerr ("tidemark: %s\n", message);
  g_printerr ("%s\n", _("Try “tidemark --help” for the options."));
  return 2;
}

/* The name ending of a host's export written into a folder. */
static const char *
export_suffix (const char *format)
{
  if (g_str_equal (format, "xprof-json"))
    return ".memory_profile.json";
  if (g_str_equal (format, "csv"))
    return ".breakdown.csv";
  if (g_str_equal (format, "allocations"))
    return ".allocations.csv";
  if (g_str_equal (format, "collapsed"))
    return ".collapsed.txt";
  if (g_str_equal (format, "svg"))
    return ".timeline.svg";
  if (g_str_equal (format, "memory-map-svg"))
    return ".memory-map.svg";
  return ".out";
}

/* Whether the profile's format has what the export writes (tm-input's
 * features); --at needs a time axis, --never-freed every allocation with
 * its deallocation (not XProf's sampled points). */
static gboolean
export_allowed (TmProfile   *profile,
                const char  *format,
                gboolean     at,
                gboolean     never_freed,
                GError     **error)
{
  TmInputFeatures features = tm_profile_get_features (profile);
  TmInputFeatures needs = 0;

  if (g_str_equal (format, "xprof-json"))
    needs = TM_INPUT_HAS_XPROF_JSON_EXPORT;
  else if (g_str_equal (format, "allocations"))
    needs = TM_INPUT_HAS_ALLOCATIONS;
  else if (g_str_equal (format, "collapsed"))
    needs = TM_INPUT_HAS_SCOPES | (at ? TM_INPUT_HAS_TIME_AXIS : 0) |
            (never_freed ? TM_INPUT_HAS_ALLOCATIONS | TM_INPUT_COMPLETE : 0);
  if ((features & needs) == needs)
    return TRUE;

  g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
               /* TRANSLATORS: the first %s is a file format, the second an export (--export=...) */
               _("is %s, which has no %s export"),
               _(tm_input_format_get_info (tm_profile_get_format (profile))->name),
               never_freed ? "collapsed --never-freed" : format);
  return FALSE;
}

/* --export=memory-xplane (docs/formats.md, section 4): binary, so only to a file,
 * or to standard output when "-o -" says so and it is not a terminal. */
static int
export_memory_xplane (const char *path,
                      const char *output)
{
  g_autoptr(GFile) input = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmSource) source = NULL;
  g_autoptr(TmOutput) out = NULL;
  g_autofree char *local = g_file_get_path (input);
  gboolean ok;

  source = local != NULL ? tm_source_open (local, &error) : NULL;
  if (source == NULL)
    {
      if (error == NULL)
        g_set_error (&error, TM_ERROR, TM_ERROR_READ, _("cannot be read: only local files can be opened"));
      return fail (path, error);
    }
  out = tm_output_open (output, &error);
  if (out == NULL)
    return fail_output (error);
  if (tm_output_is_terminal (out))
    {
      g_printerr ("tidemark: %s\n", _("will not write a binary profile to a terminal"));
      return 2;
    }
  ok = tm_xspace_write_memory_only (source, tm_output_get_stream (out), NULL, NULL, NULL, &error);
  if (!ok && error->domain != G_IO_ERROR)
    {
      /* The profile's fault, not the output's. */
      tm_output_finish (out, FALSE, NULL);
      return fail (path, error);
    }
  if (!tm_output_finish (out, ok, &error))
    return fail_output (error);
  return 0;
}

/* --export=svg and --export=memory-map-svg: the timeline or the memory map
 * of store, whole, as a vector SVG in light colours (tm-chart-export.h). */
static gboolean
export_svg (TmProfile      *profile,
            TmMemoryStore  *store,
            const char     *path,
            gboolean        memory_map,
            GOutputStream  *out,
            GError        **error)
{
  g_autoptr(TmChart) chart = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *title = NULL;
  TmChartPalette palette;

  if (memory_map)
    {
      TmAllocations *allocations = tm_profile_lookup_allocations (profile, store);

      if (allocations == NULL)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_CHANGED, _("changed while reading: the file was modified by another program"));
          return FALSE;
        }
      chart = tm_chart_new_memory_map (allocations, 0, 0, 1200, 400);
    }
  else
    {
      TmTimelineChartOptions options;

      tm_timeline_chart_options_init (&options);
      options.modules = tm_profile_get_hlo_modules (profile);
      chart = tm_chart_new_timeline (store, &options);
    }

  {
    const TmChartGeometry *g = tm_chart_get_geometry (chart);
    g_autofree char *start = tm_chart_axes_format_time (g->start_ps, g->end_ps - g->start_ps);
    g_autofree char *end = tm_chart_axes_format_time (g->end_ps, g->end_ps - g->start_ps);

    /* "host1.xplane.pb · GPU_0_bfc · 2 100.000 ms – 2 588.000 ms" */
    title = g_strdup_printf ("%s · %s · %s – %s", base, tm_memory_store_get_id (store), start, end);
  }
  tm_chart_palette_init_default (&palette, FALSE);
  return tm_chart_write_svg (chart, title, &palette, NULL, out, NULL, error);
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

/* Picoseconds as milliseconds, exactly (the inverse of parse_ms). */
static char *
format_ms_exact (gint64 ps)
{
  guint64 mag = ps < 0 ? (guint64) 0 - (guint64) ps : (guint64) ps;
  g_autofree char *frac = g_strdup_printf ("%09" G_GUINT64_FORMAT, mag % 1000000000);
  gsize len = strlen (frac);

  while (len > 0 && frac[len - 1] == '0')
    frac[--len] = '\0';
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT "%s%s ms", ps < 0 ? "−" : "",
                          mag / 1000000000, len > 0 ? "." : "", frac);
}

/* --at must fall within the memory id's snapshots: before the first
 * nothing was recorded, after the last nothing is known (README.md,
 * "Command line"). Otherwise says so and returns FALSE. */
static gboolean
check_at (const char    *path,
          TmMemoryStore *store,
          gint64         at_ps)
{
  guint n = tm_memory_store_get_n_snapshots (store);
  const gint64 *times = tm_memory_store_get_times (store);
  g_autofree char *at = format_ms_exact (at_ps);
  g_autofree char *first = n > 0 ? format_ms_exact (times[0]) : NULL;
  g_autofree char *last = n > 0 ? format_ms_exact (times[n - 1]) : NULL;
  g_autoptr(GError) error = NULL;

  if (n > 0 && at_ps >= times[0] && at_ps <= times[n - 1])
    return TRUE;
  if (n == 0)
    g_set_error (&error, TM_ERROR, TM_ERROR_NO_MEMORY_ID, _("memory id “%s” has no snapshots"),
                 tm_memory_store_get_id (store));
  else
    g_set_error (&error, TM_ERROR, TM_ERROR_NO_MEMORY_ID,
                 at_ps < times[0]
                 ? _("--at=%s is before the first snapshot of memory id “%s”: its snapshots span %s to %s")
                 : _("--at=%s is after the last snapshot of memory id “%s”: its snapshots span %s to %s"),
                 at, tm_memory_store_get_id (store), first, last);
  fail (path, error);
  return FALSE;
}

/* --export=collapsed --never-freed (docs/scopes.md, "Never freed"); a
 * warning when there are none. */
static gboolean
export_never_freed (const char     *path,
                    TmProfile      *profile,
                    TmMemoryStore  *store,
                    GOutputStream  *out,
                    GError        **error)
{
  guint n = 0;

  if (!tm_export_never_freed_collapsed (profile, store, out, &n, NULL, error))
    return FALSE;
  if (n == 0)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_autofree char *safe_display = tm_format_for_terminal (display, NULL);
      g_autofree char *id = tm_format_for_terminal (tm_memory_store_get_id (store), NULL);

      g_printerr (_("tidemark: %s: warning: memory id “%s” freed every allocation it made: no stacks written\n"),
                  safe_display, id);
    }
  return TRUE;
}

#if defined(__SANITIZE_ADDRESS__)
#define TM_CLI_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define TM_CLI_SANITIZED 1
#endif
#endif

static TmProfile *last_profile;

#ifdef TM_CLI_SANITIZED
static gboolean free_last_profile = TRUE;
#else
static gboolean free_last_profile = FALSE;
#endif

int
tm_cli_run_freeing (int    argc,
                    char **argv)
{
  free_last_profile = TRUE;
  return tm_cli_run (argc, argv);
}

int
tm_cli_run (int    argc,
            char **argv)
{
  gboolean summary = FALSE;
  gboolean json = FALSE;
  g_autofree char *export_format = NULL;
  g_autofree char *memory_id = NULL;
  g_autofree char *baseline_memory_id = NULL;
  gboolean compare = FALSE;
  gboolean never_freed = FALSE;
  g_autofree char *output = NULL;
  g_autofree char *at = NULL;
  g_auto(GStrv) files = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const GOptionEntry entries[] = {
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary, N_("Print the summary of every memory id and exit"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("With --summary: print one line of JSON per host (JSON Lines), with exact integers"), NULL },
    { "export", 0, 0, G_OPTION_ARG_STRING, &export_format, N_("Write XProf's memory-profile JSON (xprof-json), the peak breakdown (csv), every allocation (allocations), the scopes as collapsed stacks (collapsed), the memory-only profile (memory-xplane), the timeline (svg) or the memory map (memory-map-svg) as a vector SVG, and exit"), N_("FORMAT") },
    { "memory-id", 0, 0, G_OPTION_ARG_STRING, &memory_id, N_("With --export=csv, allocations, collapsed, svg or memory-map-svg: the memory id (default: the one with the highest peak)"), N_("ID") },
    { "at", 0, 0, G_OPTION_ARG_STRING, &at, N_("With --export=collapsed: the time in milliseconds (default: the peak)"), N_("MS") },
    { "never-freed", 0, 0, G_OPTION_ARG_NONE, &never_freed, N_("With --export=collapsed: the scopes of the allocations never freed (a leak flame graph) instead of those live at a time"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Where to write the export (default or “-”: standard output)"), N_("PATH") },
    /* --compare goes to tm-cli-compare.c before this parser; listed so
     * that --help names it. */
    { "compare", 0, 0, G_OPTION_ARG_NONE, &compare, N_("Print how FILE differs from BASELINE (tidemark --compare [--json] [--memory-id=ID] BASELINE FILE) and exit"), NULL },
    { "baseline-memory-id", 0, 0, G_OPTION_ARG_STRING, &baseline_memory_id, N_("With --compare and --memory-id: the baseline’s memory id, when it is another one"), N_("ID") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE") },
    { NULL }
  };
  g_autoptr(GPtrArray) inputs = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) hosts = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  g_autoptr(GArray) gathered = NULL;
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(GFile) output_dir = NULL;
  g_autoptr(TmProfile) profile = NULL;
  gboolean several;
  gboolean any_gathered = FALSE;
  int status = 0;
  g_autoptr(TmOutput) output_file = NULL;
  GOutputStream *out;
  gint64 at_ps = 0;
  guint n_replaced = 0;

  /* --compare has options and arguments of its own (tm-cli-compare.c). */
  if (tm_cli_compare_wants (argc, argv))
    return tm_cli_compare_run (argc, argv);
  /* So does --export=memory-viewer-json (tm-cli-memory-viewer.c). */
  if (tm_cli_memory_viewer_wants (argc, argv))
    return tm_cli_memory_viewer_run (argc, argv);

  context = g_option_context_new (_("FILE — show or export a memory profile without a window"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (context, error->message);

  if (baseline_memory_id != NULL)
    return usage (context, _("--baseline-memory-id goes with --compare and --memory-id"));
  if (summary == (export_format != NULL))
    return usage (context, _("give either --summary or --export"));
  if (json && !summary)
    return usage (context, _("--json goes with --summary"));
  if (export_format != NULL && !g_str_equal (export_format, "xprof-json") && !g_str_equal (export_format, "csv") &&
      !g_str_equal (export_format, "allocations") && !g_str_equal (export_format, "collapsed") &&
      !g_str_equal (export_format, "memory-xplane") && !g_str_equal (export_format, "svg") &&
      !g_str_equal (export_format, "memory-map-svg"))
    return usage (context, _("--export takes xprof-json, csv, allocations, collapsed, memory-xplane, svg or memory-map-svg"));
  if (memory_id != NULL && (export_format == NULL || g_str_equal (export_format, "xprof-json") ||
                            g_str_equal (export_format, "memory-xplane")))
    return usage (context, _("--memory-id goes with --export=csv, allocations, collapsed, svg or memory-map-svg"));
  if (at != NULL && (export_format == NULL || !g_str_equal (export_format, "collapsed")))
    return usage (context, _("--at goes with --export=collapsed"));
  if (never_freed && (export_format == NULL || !g_str_equal (export_format, "collapsed")))
    return usage (context, _("--never-freed goes with --export=collapsed"));
  if (never_freed && at != NULL)
    return usage (context, _("--never-freed takes no --at: what was never freed is still live at the end"));
  if (at != NULL && !parse_ms (at, &at_ps))
    return usage (context, _("--at takes a time in milliseconds"));
  if (output != NULL && export_format == NULL)
    return usage (context, _("--output goes with --export"));
  if (files == NULL || files[0] == NULL)
    return usage (context, _("no profile file given"));
  /* A memory-only profile is binary: one input, one output. */
  if (export_format != NULL && g_str_equal (export_format, "memory-xplane"))
    {
      if (files[1] != NULL || g_file_test (files[0], G_FILE_TEST_IS_DIR))
        return usage (context, _("give exactly one profile file"));
      if (output == NULL)
        return usage (context, _("--export=memory-xplane needs --output (“-o -” writes to standard output)"));
      return export_memory_xplane (files[0], output);
    }

  inputs = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint f = 0; files[f] != NULL; f++)
    g_ptr_array_add (inputs, g_file_new_for_commandline_arg (files[f]));
  items = tm_run_expand ((GFile **) inputs->pdata, inputs->len, NULL, &error);
  g_assert (items != NULL);  /* only a cancellation fails */

  /* Every host of every input, in order; each named by the path as given
   * for a file, or by its path in a run folder. */
  hosts = g_ptr_array_new_with_free_func (g_object_unref);
  paths = g_ptr_array_new_with_free_func (g_free);
  /* Per host: a file of gathered summaries (by content: tm-run), a run of its own. */
  gathered = g_array_new (FALSE, TRUE, sizeof (gboolean));
  for (guint f = 0; f < items->len; f++)
    {
      TmRunItem *item = g_ptr_array_index (items, f);
      gboolean no = FALSE;

      if (item->file != NULL)
        {
          g_ptr_array_add (hosts, g_object_ref (item->file));
          g_ptr_array_add (paths, g_strdup (files[f]));
          g_array_append_val (gathered, item->summaries);
          any_gathered |= item->summaries;
        }
      for (guint h = 0; item->hosts != NULL && h < item->hosts->len; h++)
        {
          GFile *host = g_ptr_array_index (item->hosts, h);

          g_ptr_array_add (hosts, g_object_ref (host));
          g_ptr_array_add (paths, g_file_get_parse_name (host));
          g_array_append_val (gathered, no);
        }
    }

  several = hosts->len > 1;
  /* One document per host: back to back on standard output they would
   * make no valid CSV or JSON (README.md, "Command line"). */
  if (several && export_format != NULL && (output == NULL || g_str_equal (output, "-")))
    {
      g_autofree char *message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "--export writes one file per host, and %u host was given: give --output=FOLDER",
                                                               "--export writes one file per host, and %u hosts were given: give --output=FOLDER",
                                                               hosts->len),
                                                  hosts->len);

      return usage (context, message);
    }
  if (several && export_format != NULL && output != NULL && !g_str_equal (output, "-"))
    {
      output_dir = g_file_new_for_commandline_arg (output);
      if (g_file_query_file_type (output_dir, G_FILE_QUERY_INFO_NONE, NULL) != G_FILE_TYPE_DIRECTORY)
        return usage (context, _("with several profiles, --output is a folder"));
    }
  if (summary && !json && (several || any_gathered))
    summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_host_summary_free);

  for (guint f = 0; f < hosts->len; f++)
    {
      GFile *file = g_ptr_array_index (hosts, f);
      const char *path = g_ptr_array_index (paths, f);
      g_autofree char *host = tm_run_host_name (file);

      g_clear_object (&profile);
      g_clear_pointer (&output_file, tm_output_free);
      g_clear_error (&error);

      /* Gathered summaries have no profile to export; --summary reads
       * them back (the exports say why they cannot). */
      if (summary && g_array_index (gathered, gboolean, f))
        {
          if (!json && f > 0)
            g_print ("\n");
          if (tm_cli_summary_gathered (file, path, json, summaries) != 0)
            status = 1;
          continue;
        }

      /* PyTorch snapshots (as the picker tells them, by content) have
       * their own summary and exports, with PyTorch's figures. */
      if (tm_input_picker_sniff_file (file, NULL) == TM_INPUT_FORMAT_TORCH_SNAPSHOT)
        {
          g_autofree char *dest = NULL;
          int s;

          /* Its collapsed stacks are PyTorch's own (docs/pytorch.md). */
          if (never_freed)
            {
              g_autoptr(GError) e = g_error_new (TM_ERROR, TM_ERROR_INVALID,
                                                 _("is a PyTorch memory snapshot, whose collapsed stacks are PyTorch’s own: --never-freed applies to XSpace profiles"));

              status = fail (path, e);
              continue;
            }

          if (output_dir != NULL && export_format != NULL)
            {
              g_autofree char *name = g_strconcat (host, export_suffix (export_format), NULL);
              g_autoptr(GFile) child = g_file_get_child (output_dir, name);

              dest = g_file_get_path (child);
            }
          s = tm_cli_torch_run (file, path, json, export_format, memory_id,
                                output_dir != NULL ? dest : output, f == 0);

          status = s != 0 ? s : status;
          continue;
        }

      profile = tm_profile_load (file, NULL, NULL, NULL, &error);
      if (profile == NULL)
        {
          /* The others still go on; the status says one failed. */
          status = fail (path, error);
          if (summaries != NULL)
            g_ptr_array_add (summaries, tm_host_summary_new_error (host, path, error->message));
          if (json)
            {
              g_autoptr(GOutputStream) err_out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
              g_autoptr(GError) write_error = NULL;

              if (!tm_export_summary_json_error (file, host, error->message, err_out, NULL, &write_error))
                return fail ("-", write_error);
            }
          continue;
        }

      if (export_format != NULL && !export_allowed (profile, export_format, at != NULL, never_freed, &error))
        {
          status = fail (path, error);
          continue;
        }

      if (summary && !json)
        {
          if (f > 0)
            g_print ("\n");
          n_replaced = 0;
          tm_cli_print_summary (profile, &n_replaced);
          tm_cli_memory_viewer_print_modules (profile);
          tm_cli_warn_replaced (path, n_replaced);
          if (summaries != NULL)
            g_ptr_array_add (summaries, tm_host_summary_new_for_profile (profile, host));
          continue;
        }

      if (output_dir != NULL)
        {
          g_autofree char *name = g_strconcat (host, export_suffix (export_format), NULL);
          g_autoptr(GFile) dest = g_file_get_child (output_dir, name);

          output_file = tm_output_open_file (dest, &error);
        }
      else
        output_file = tm_output_open (output != NULL ? output : "-", &error);
      if (output_file == NULL)
        return fail_output (error);
      out = tm_output_get_stream (output_file);

      if (json)
        {
          n_replaced = 0;
          if (!tm_export_summary_json_full (profile, host, out, &n_replaced, NULL, &error))
            return fail_write (output_file, error);
          tm_cli_warn_replaced (path, n_replaced);
        }
      else if (g_str_equal (export_format, "xprof-json"))
        {
          n_replaced = 0;
          if (!tm_export_xprof_json_full (profile, out, &n_replaced, NULL, &error))
            return fail_write (output_file, error);
          tm_cli_warn_replaced (path, n_replaced);
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
              status = fail (path, e);
              continue;
            }

          /* (--never-freed goes only with --export=collapsed.) */
          if (never_freed || g_str_equal (export_format, "svg") || g_str_equal (export_format, "memory-map-svg"))
            {
              if (!(never_freed ? export_never_freed (path, profile, store, out, &error)
                                : export_svg (profile, store, path, g_str_equal (export_format, "memory-map-svg"), out, &error)))
                {
                  if (error->domain == G_IO_ERROR)
                    return fail_write (output_file, error);
                  tm_output_finish (output_file, FALSE, NULL);
                  g_clear_pointer (&output_file, tm_output_free);
                  status = fail (path, error);
                  continue;
                }
            }
          else if (g_str_equal (export_format, "collapsed"))
            {
              g_autoptr(TmScopeTree) tree = NULL;

              if (at != NULL && !check_at (path, store, at_ps))
                {
                  status = 1;
                  continue;
                }
              tree = tm_scope_tree_new_at (tm_profile_lookup_analysis (profile, store),
                                           at == NULL, at_ps, TM_SCOPE_GROUPING_NAME);
              if (!tm_scope_tree_write_collapsed (tree, out, NULL, &error))
                return fail_write (output_file, error);
              if (at != NULL && tm_scope_tree_get_root (tree)->n_children == 0)
                {
                  g_autofree char *display = g_filename_display_name (path);
                  g_autofree char *when = format_ms_exact (at_ps);

                  g_printerr (_("tidemark: %s: warning: nothing of memory id “%s” is live at %s: no stacks written\n"),
                              display, tm_memory_store_get_id (store), when);
                }
            }
          else if (g_str_equal (export_format, "allocations"))
            {
              if (!tm_export_allocations_csv (store, out, NULL, &error))
                return fail_write (output_file, error);
            }
          else if (!tm_export_breakdown_csv (tm_analysis_get_peak_breakdown (tm_profile_lookup_analysis (profile, store)),
                                             out, NULL, &error))
            return fail_write (output_file, error);
        }

      if (!tm_output_finish (output_file, TRUE, &error))
        return fail_output (error);
    }

  if (summaries != NULL)
    tm_cli_print_run_table (summaries);

  /* The last profile goes back to the system with the process: freeing its
   * columns one by one and unmapping the file first only adds time. It
   * stays reachable here. Sanitizer builds, and tm_cli_run_freeing(), free
   * it so leak checkers see every free. */
  if (!free_last_profile)
    {
      g_clear_object (&last_profile);
      last_profile = g_steal_pointer (&profile);
    }

  return status;
}
