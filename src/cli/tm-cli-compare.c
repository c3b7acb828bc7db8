/* tm-cli-compare.c — tidemark --compare: two profiles' differences, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tidemark --compare [--json] [--memory-id=ID] [--baseline-memory-id=ID]
 * BASELINE FILE prints, per pair of memory ids, the difference of every
 * summary figure, the time shifts of the three alignments and the ops
 * whose bytes at the peaks changed most (docs/compare.md). Without
 * --memory-id the memory ids are paired by name, and those on one side
 * only are named.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <gio/gio.h>
#include <gio/gunixoutputstream.h>

#include "tm-cli-compare.h"
#include "tm-compare.h"
#include "tm-error.h"
#include "tm-export.h"
#include "tm-format.h"
#include "tm-profile.h"

/* How many ops the text output lists per pair. */
#define TOP_OPS 10

typedef struct
{
  TmMemoryStore *baseline;
  TmMemoryStore *current;
} Pair;

static int
compare_fail (const char   *path,
              const GError *error)
{
  g_autofree char *display = g_filename_display_name (path);
  g_autofree char *safe_display = tm_format_for_terminal (display, NULL);
  g_autofree char *message = tm_format_for_terminal (error->message, NULL);

  g_printerr ("tidemark: %s: %s\n", safe_display, message);
  return 1;
}

static int
compare_usage (const char *message)
{
  g_printerr ("tidemark: %s\n", message);
  g_printerr ("%s\n", _("Try “tidemark --help” for the options."));
  return 2;
}

static const char *
figure_label (const char *key)
{
  static const struct { const char *key; const char *label; } labels[] = {
    { "num_snapshots", N_("snapshots") },
    { "num_allocations", N_("allocations") },
    { "num_deallocations", N_("deallocations") },
    { "num_never_freed", N_("never freed") },
    { "never_freed_bytes", N_("never freed bytes") },
    { "num_sampled_timeline_snapshots", N_("sampled snapshots") },
    { "memory_capacity", N_("memory capacity") },
    { "peak_bytes_usage_lifetime", N_("lifetime peak heap") },
    { "xprof_reported_lifetime_peak_last_in_file_order", N_("last lifetime peak") },
    { "peak_bytes_in_use", N_("window peak") },
    { "peak_stats_time_ps", N_("  time of the peak") },
    { "peak_stack_reserved_bytes", N_("  stack at peak") },
    { "peak_heap_allocated_bytes", N_("  heap at peak") },
    { "peak_free_memory_bytes", N_("  free at peak") },
    { "peak_fragmentation", N_("  fragmentation at peak") },
    { "peak_step_id", N_("  peak step") },
    { "num_breakdown_rows", N_("breakdown rows at peak") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (g_str_equal (labels[i].key, key))
      return _(labels[i].label);
  return key;
}

/* Characters that take no column of their own (as tm-cli.c). */
static glong
width_of (const char *text)
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
print_cells (const char *a,
             const char *b,
             const char *c,
             const char *d)
{
  const char *cells[] = { a, b, c };
  const int widths[] = { 26, 16, 16 };

  g_print ("  ");
  for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      glong pad = MAX (widths[i] - width_of (cells[i]), 1);

      /* Labels left, figures right. */
      if (i == 0)
        g_print ("%s%*s", cells[i], (int) pad, "");
      else
        g_print ("%*s%s ", (int) pad - 1, "", cells[i]);
    }
  g_print (" %s\n", d);
}

static char *
format_value (const TmCompareFigure *f,
              gboolean               baseline)
{
  gint64 v = baseline ? f->baseline : f->current;

  switch (f->kind)
    {
    case TM_COMPARE_FIGURE_BYTES:
      return tm_format_bytes (v);
    case TM_COMPARE_FIGURE_TIME:
      return tm_format_time_ms (v);
    case TM_COMPARE_FIGURE_FRACTION:
      return tm_format_percent (baseline ? f->baseline_fraction : f->current_fraction);
    case TM_COMPARE_FIGURE_STEP:
      return g_strdup_printf ("%" G_GINT64_FORMAT, v);
    case TM_COMPARE_FIGURE_COUNT:
    default:
      return tm_format_count ((guint64) v);
    }
}

static char *
format_signed_duration (gint64 ps)
{
  g_autofree char *text = tm_format_duration (ps < 0 ? -ps : ps);

  return ps == 0 ? g_steal_pointer (&text) : g_strconcat (ps > 0 ? "+" : "−", text, NULL);
}

static char *
format_delta (const TmCompareFigure *f)
{
  g_autofree char *change = NULL;
  g_autofree char *delta = NULL;

  switch (f->kind)
    {
    case TM_COMPARE_FIGURE_BYTES:
      delta = tm_format_bytes_delta (f->delta);
      change = tm_format_percent_change (f->delta, f->baseline);
      break;
    case TM_COMPARE_FIGURE_TIME:
      delta = format_signed_duration (f->delta);
      break;
    case TM_COMPARE_FIGURE_FRACTION:
      {
        g_autofree char *pct = tm_format_percent (f->delta_fraction < 0 ? -f->delta_fraction : f->delta_fraction);

        /* Translators: a change of a percentage, in percentage points */
        delta = g_strdup_printf (_("%s%s points"), f->delta_fraction > 0 ? "+" : f->delta_fraction < 0 ? "−" : "", pct);
      }
      break;
    case TM_COMPARE_FIGURE_STEP:
      delta = g_strdup_printf ("%+" G_GINT64_FORMAT, f->delta);
      break;
    case TM_COMPARE_FIGURE_COUNT:
    default:
      {
        g_autofree char *count = tm_format_count (f->delta < 0 ? (guint64) 0 - (guint64) f->delta : (guint64) f->delta);

        delta = f->delta == 0 ? g_strdup ("0") : g_strconcat (f->delta > 0 ? "+" : "−", count, NULL);
        change = tm_format_percent_change (f->delta, f->baseline);
      }
      break;
    }
  return change != NULL ? g_strdup_printf ("%s (%s)", delta, change) : g_steal_pointer (&delta);
}

static const char *
status_label (const TmCompareEntry *e)
{
  /* Translators: the mark of an op matched by its position, its name
   * differing only in numeric suffixes; keep it one character */
  if (e->renumbered)
    return C_("compare", "≈");
  switch (e->status)
    {
    case TM_COMPARE_NEW:
      return _("new");
    case TM_COMPARE_GONE:
      return _("gone");
    case TM_COMPARE_CHANGED:
    default:
      return "";
    }
}

static void
print_pair (TmCompare     *compare,
            TmMemoryStore *baseline,
            TmMemoryStore *current)
{
  guint n;
  const TmCompareFigure *figures = tm_compare_get_figures (compare, &n);
  GPtrArray *ops = tm_compare_get_op_diff (compare);
  const char *shift_labels[] = { N_("start"), N_("peak"), N_("first step") };
  guint shown = 0;
  guint n_renumbered = 0;
  /* Names from the files, made safe for a terminal (docs/formats.md, section 5). */
  g_autofree char *current_id = tm_format_for_terminal (tm_memory_store_get_id (current), NULL);
  g_autofree char *baseline_id = tm_format_for_terminal (tm_memory_store_get_id (baseline), NULL);

  if (g_str_equal (tm_memory_store_get_id (baseline), tm_memory_store_get_id (current)))
    g_print ("\n%s\n", current_id);
  else
    /* Translators: the heading of a comparison of two memory ids: current, then baseline */
    g_print ("\n%s %s %s\n", current_id, _("against"), baseline_id);

  print_cells ("", _("baseline"), _("current"), _("difference"));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *before = format_value (&figures[i], TRUE);
      g_autofree char *after = format_value (&figures[i], FALSE);
      g_autofree char *delta = format_delta (&figures[i]);

      print_cells (figure_label (figures[i].key), before, after, delta);
    }

  g_print ("  %s\n", _("time shift of the baseline, aligned at:"));
  for (guint a = 0; a < TM_COMPARE_N_ALIGNMENTS; a++)
    {
      g_autofree char *shift = format_signed_duration (tm_compare_get_shift (compare, a));

      g_print ("    %-12s %s\n", _(shift_labels[a]), shift);
    }

  /* Translators: a heading; the ops sorted by how much their bytes changed */
  g_print ("  %s\n", _("ops whose bytes at the peaks changed most:"));
  for (guint i = 0; i < ops->len && shown < TOP_OPS; i++)
    {
      const TmCompareEntry *e = g_ptr_array_index (ops, i);
      g_autofree char *delta = NULL;
      g_autofree char *before = NULL;
      g_autofree char *after = NULL;
      g_autofree char *was = NULL;
      g_autofree char *name = NULL;

      if (e->delta == 0)
        break;
      name = tm_format_for_terminal (e->name, NULL);
      delta = tm_format_bytes_delta (e->delta);
      before = tm_format_bytes (e->baseline_bytes);
      after = tm_format_bytes (e->current_bytes);
      if (e->renumbered)
        /* Translators: after an op's name, what the baseline calls it */
        {
          g_autofree char *baseline_name = tm_format_for_terminal (e->baseline_name, NULL);

          was = g_strdup_printf (_(" (baseline: %s)"), baseline_name);
        }
      g_print ("    %*s%s  %*s%s → %s%*s %s%*s %s%s\n",
               (int) MAX (12 - width_of (delta), 0), "", delta,
               (int) MAX (10 - width_of (before), 0), "", before,
               after, (int) MAX (10 - width_of (after), 0), "",
               status_label (e), (int) MAX (5 - width_of (status_label (e)), 0), "",
               name, was != NULL ? was : "");
      shown++;
    }
  if (shown == 0)
    g_print ("    %s\n", _("none"));

  for (guint i = 0; i < ops->len; i++)
    n_renumbered += ((const TmCompareEntry *) g_ptr_array_index (ops, i))->renumbered;
  if (n_renumbered > 0)
    {
      g_print ("  ");
      g_print (g_dngettext (GETTEXT_PACKAGE,
                            "≈ %u op was matched by its position among its siblings: its names differ only in numeric suffixes\n",
                            "≈ %u ops were matched by their position among their siblings: their names differ only in numeric suffixes\n",
                            n_renumbered),
               n_renumbered);
    }
}

static void
append_pair_json (GString       *str,
                  TmCompare     *compare,
                  TmMemoryStore *baseline,
                  TmMemoryStore *current)
{
  guint n;
  const TmCompareFigure *figures = tm_compare_get_figures (compare, &n);
  GPtrArray *ops = tm_compare_get_op_diff (compare);
  const char *status_names[] = { "changed", "new", "gone" };

  g_string_append (str, "\n  {\"baseline_memory_id\": ");
  tm_export_append_string (str, tm_memory_store_get_id (baseline));
  g_string_append (str, ", \"memory_id\": ");
  tm_export_append_string (str, tm_memory_store_get_id (current));
  g_string_append (str, ",\n   \"summary\": {");
  for (guint i = 0; i < n; i++)
    {
      g_string_append (str, i > 0 ? ",\n    " : "\n    ");
      tm_export_append_string (str, figures[i].key);
      if (figures[i].kind == TM_COMPARE_FIGURE_FRACTION)
        {
          g_string_append (str, ": {\"baseline\": ");
          tm_export_append_double (str, figures[i].baseline_fraction);
          g_string_append (str, ", \"current\": ");
          tm_export_append_double (str, figures[i].current_fraction);
          g_string_append (str, ", \"delta\": ");
          tm_export_append_double (str, figures[i].delta_fraction);
          g_string_append_c (str, '}');
        }
      else
        g_string_append_printf (str, ": {\"baseline\": %" G_GINT64_FORMAT ", \"current\": %" G_GINT64_FORMAT
                                ", \"delta\": %" G_GINT64_FORMAT "}",
                                figures[i].baseline, figures[i].current, figures[i].delta);
    }
  g_string_append (str, "\n   },\n   \"time_shift_ps\": {");
  for (guint a = 0; a < TM_COMPARE_N_ALIGNMENTS; a++)
    g_string_append_printf (str, "%s\"%s\": %" G_GINT64_FORMAT, a > 0 ? ", " : "",
                            tm_compare_alignment_to_string (a), tm_compare_get_shift (compare, a));
  g_string_append (str, "},\n   \"anchors_ps\": {");
  for (guint a = 0; a < TM_COMPARE_N_ALIGNMENTS; a++)
    g_string_append_printf (str, "%s\"%s\": [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]", a > 0 ? ", " : "",
                            tm_compare_alignment_to_string (a),
                            tm_compare_get_anchor (compare, a, TRUE), tm_compare_get_anchor (compare, a, FALSE));
  g_string_append_printf (str, "},\n   \"num_ops\": %u,\n   \"ops\": [", ops->len);
  for (guint i = 0; i < ops->len; i++)
    {
      const TmCompareEntry *e = g_ptr_array_index (ops, i);

      g_string_append (str, i > 0 ? ",\n    {\"op_name\": " : "\n    {\"op_name\": ");
      tm_export_append_string (str, e->name);
      if (e->renumbered)
        {
          g_string_append (str, ", \"baseline_op_name\": ");
          tm_export_append_string (str, e->baseline_name);
        }
      g_string_append_printf (str, ", \"renumbered\": %s", e->renumbered ? "true" : "false");
      g_string_append_printf (str, ", \"special\": %s, \"status\": \"%s\", \"baseline_bytes\": %" G_GINT64_FORMAT
                              ", \"current_bytes\": %" G_GINT64_FORMAT ", \"delta\": %" G_GINT64_FORMAT
                              ", \"baseline_occurrences\": %" G_GUINT64_FORMAT ", \"current_occurrences\": %" G_GUINT64_FORMAT "}",
                              e->special ? "true" : "false", status_names[e->status],
                              e->baseline_bytes, e->current_bytes, e->delta,
                              e->baseline_occurrences, e->current_occurrences);
    }
  g_string_append (str, ops->len > 0 ? "\n   ]\n  }" : "]\n  }");
}

static void
append_ids_json (GString    *str,
                 const char *key,
                 GPtrArray  *ids)
{
  g_string_append_printf (str, ",\n \"%s\": [", key);
  for (guint i = 0; i < ids->len; i++)
    {
      g_string_append (str, i > 0 ? ", " : "");
      tm_export_append_string (str, g_ptr_array_index (ids, i));
    }
  g_string_append_c (str, ']');
}

/* The pairs to compare, and the memory ids of one side only. Returns
 * FALSE with error when a memory id asked for is missing. */
static gboolean
pair_memory_ids (TmProfile   *baseline,
                 TmProfile   *current,
                 const char  *baseline_id,
                 const char  *current_id,
                 GArray      *pairs,
                 GPtrArray   *only_baseline,
                 GPtrArray   *only_current,
                 gboolean    *baseline_failed,
                 GError     **error)
{
  if (current_id != NULL)
    {
      Pair pair = {
        tm_profile_lookup_memory_store (baseline, baseline_id != NULL ? baseline_id : current_id),
        tm_profile_lookup_memory_store (current, current_id),
      };

      *baseline_failed = pair.baseline == NULL;
      if (pair.baseline == NULL || pair.current == NULL)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_NO_MEMORY_ID, _("has no memory id “%s”"),
                       pair.baseline == NULL && baseline_id != NULL ? baseline_id : current_id);
          return FALSE;
        }
      g_array_append_val (pairs, pair);
      return TRUE;
    }

  /* Both lists are sorted byte-wise (tm-profile): merge them. */
  for (guint i = 0, j = 0; i < tm_profile_get_n_memory_ids (baseline) || j < tm_profile_get_n_memory_ids (current);)
    {
      TmMemoryStore *b = i < tm_profile_get_n_memory_ids (baseline) ? tm_profile_get_memory_store (baseline, i) : NULL;
      TmMemoryStore *c = j < tm_profile_get_n_memory_ids (current) ? tm_profile_get_memory_store (current, j) : NULL;
      int order = b == NULL ? 1 : c == NULL ? -1 : strcmp (tm_memory_store_get_id (b), tm_memory_store_get_id (c));

      if (order == 0)
        {
          Pair pair = { b, c };

          g_array_append_val (pairs, pair);
          i++, j++;
        }
      else if (order < 0)
        {
          g_ptr_array_add (only_baseline, (gpointer) tm_memory_store_get_id (b));
          i++;
        }
      else
        {
          g_ptr_array_add (only_current, (gpointer) tm_memory_store_get_id (c));
          j++;
        }
    }
  return TRUE;
}

static void
print_only (const char *label,
            GPtrArray  *ids)
{
  g_autoptr(GString) list = g_string_new (NULL);

  if (ids->len == 0)
    return;
  for (guint i = 0; i < ids->len; i++)
    {
      g_autofree char *id = tm_format_for_terminal (g_ptr_array_index (ids, i), NULL);

      if (i > 0)
        g_string_append (list, ", ");
      g_string_append (list, id);
    }
  g_print ("\n%s %s\n", label, list->str);
}

gboolean
tm_cli_compare_wants (int    argc,
                      char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--"))
        break;
      if (g_str_equal (argv[i], "--compare"))
        return TRUE;
    }
  return FALSE;
}

int
tm_cli_compare_run (int    argc,
                    char **argv)
{
  gboolean compare = FALSE;
  gboolean json = FALSE;
  g_autofree char *memory_id = NULL;
  g_autofree char *baseline_memory_id = NULL;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "compare", 0, 0, G_OPTION_ARG_NONE, &compare, N_("Print how FILE differs from BASELINE and exit"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print it as JSON with exact integers"), NULL },
    { "memory-id", 0, 0, G_OPTION_ARG_STRING, &memory_id, N_("Compare this memory id only (default: every memory id both files have)"), N_("ID") },
    { "baseline-memory-id", 0, 0, G_OPTION_ARG_STRING, &baseline_memory_id, N_("With --memory-id: the baseline's memory id, when it is another one"), N_("ID") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("BASELINE FILE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) baseline_profile = NULL;
  g_autoptr(TmProfile) current_profile = NULL;
  TmProfile *profiles[2] = { NULL, NULL };
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  g_autoptr(GPtrArray) only_baseline = g_ptr_array_new ();
  g_autoptr(GPtrArray) only_current = g_ptr_array_new ();
  g_autoptr(GString) str = g_string_new (NULL);
  gboolean baseline_failed = FALSE;

  context = g_option_context_new (_("BASELINE FILE — compare two memory profiles without a window"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return compare_usage (error->message);
  if (baseline_memory_id != NULL && memory_id == NULL)
    return compare_usage (_("--baseline-memory-id goes with --memory-id"));
  if (files == NULL || g_strv_length (files) != 2)
    return compare_usage (_("--compare takes two profile files: BASELINE FILE"));

  for (guint f = 0; f < 2; f++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (files[f]);

      profiles[f] = tm_profile_load (file, NULL, NULL, NULL, &error);
      if (profiles[f] == NULL)
        return compare_fail (files[f], error);
      if (f == 0)
        baseline_profile = profiles[f];
      else
        current_profile = profiles[f];
    }

  if (!pair_memory_ids (profiles[0], profiles[1], baseline_memory_id, memory_id,
                        pairs, only_baseline, only_current, &baseline_failed, &error))
    return compare_fail (files[baseline_failed ? 0 : 1], error);

  if (json)
    {
      g_autofree char *b = g_file_get_basename (tm_profile_get_file (profiles[0]));
      g_autofree char *c = g_file_get_basename (tm_profile_get_file (profiles[1]));

      g_string_append (str, "{\n \"baseline\": ");
      tm_export_append_string (str, b);
      g_string_append (str, ",\n \"input\": ");
      tm_export_append_string (str, c);
      g_string_append (str, ",\n \"version\": 1");
      append_ids_json (str, "only_in_baseline", only_baseline);
      append_ids_json (str, "only_in_input", only_current);
      g_string_append (str, ",\n \"comparisons\": [");
    }
  else
    {
      g_autofree char *b_name = g_filename_display_name (files[0]);
      g_autofree char *c_name = g_filename_display_name (files[1]);
      g_autofree char *b = tm_format_for_terminal (b_name, NULL);
      g_autofree char *c = tm_format_for_terminal (c_name, NULL);

      g_print ("%s %s\n%s %s\n", _("baseline:"), b, _("current: "), c);
    }

  for (guint i = 0; i < pairs->len; i++)
    {
      Pair *pair = &g_array_index (pairs, Pair, i);
      g_autoptr(TmCompare) cmp = tm_compare_new (tm_profile_lookup_analysis (profiles[0], pair->baseline), NULL,
                                                 tm_profile_lookup_analysis (profiles[1], pair->current), NULL,
                                                 &error);

      if (cmp == NULL)
        return compare_fail (files[1], error);
      if (json)
        {
          if (i > 0)
            g_string_append_c (str, ',');
          append_pair_json (str, cmp, pair->baseline, pair->current);
        }
      else
        print_pair (cmp, pair->baseline, pair->current);
    }

  if (json)
    {
      g_autoptr(GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);

      g_string_append (str, pairs->len > 0 ? "\n ]\n}\n" : "]\n}\n");
      if (!g_output_stream_write_all (out, str->str, str->len, NULL, NULL, &error) ||
          !g_output_stream_close (out, NULL, &error))
        return compare_fail ("-", error);
      return 0;
    }

  if (pairs->len == 0)
    g_print ("\n%s\n", _("The two profiles have no memory id in common; give --memory-id and --baseline-memory-id to compare two of them."));
  print_only (_("only in the baseline:"), only_baseline);
  print_only (_("only in the current file:"), only_current);
  return 0;
}
