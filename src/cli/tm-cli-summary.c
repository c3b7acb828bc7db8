/* tm-cli-summary.c — the text of --summary: one profile, and the table of
 * a run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <gio/gunixoutputstream.h>

#include "tm-alloc-stats.h"
#include "tm-cli-private.h"
#include "tm-error.h"
#include "tm-format.h"
#include "tm-input-picker.h"

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

void
tm_cli_print_row (const char *label,
                  const char *value,
                  glong       width)
{
  /* Pad by what the terminal shows, not by bytes, so translated labels
   * line up too. */
  glong pad = MAX (width - display_width (label), 0);

  g_print ("  %s%*s %s\n", label, (int) pad, "", value);
}

static void
print_row (const char *label,
           const char *value)
{
  tm_cli_print_row (label, value, 24);
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

/* What was never freed, the temporary allocations and the steps, per
 * memory id (tm_alloc_stats_new_for_store, without the sizes of what was
 * freed): each a walk over its snapshots, shared by two threads (this one
 * takes the even ids). */
typedef struct
{
  TmProfile     *profile;
  guint          first;
  TmAllocStats **stats;
  GError       **errors;
} StatsJob;

static gpointer
stats_job (gpointer data)
{
  StatsJob *job = data;

  for (guint i = job->first; i < tm_profile_get_n_memory_ids (job->profile); i += 2)
    job->stats[i] = tm_alloc_stats_new_for_store (tm_profile_get_memory_store (job->profile, i),
                                                  TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS,
                                                  NULL, &job->errors[i]);
  return NULL;
}

/* "2, 3.1 % of the allocations" */
static char *
format_share (guint count,
              guint total)
{
  g_autofree char *n = tm_format_count (count);
  g_autofree char *share = tm_format_percent (total > 0 ? (double) count / total : 0.0);

  /* TRANSLATORS: a count of allocations and its share of all of them */
  return g_strdup_printf (_("%s, %s of the allocations"), n, share);
}

/* The temporary allocations and the rate per step (docs/analysis.md,
 * "Temporary allocations and the rate per step"). */
static void
print_stats (const TmAllocStats *stats)
{
  g_autofree char *threshold = tm_format_time_ms (stats->temporary_ps);
  /* TRANSLATORS: a label of the summary; %s is a time such as "1.000 ms" */
  g_autofree char *temporary_label = g_strdup_printf (_("temporary (≤ %s)"), threshold);
  g_autofree char *temporary = format_share (stats->n_temporary, stats->n_allocations);
  g_autofree char *same_step = format_share (stats->n_same_step, stats->n_allocations);
  g_autofree char *per_step = NULL;
  g_autofree char *steps = NULL;

  print_row (temporary_label, temporary);
  print_row (_("freed in the same step"), same_step);
  if (stats->busiest_step == G_MAXUINT)
    return;
  {
    const TmStepStats *busiest = &g_array_index (stats->steps, TmStepStats, stats->busiest_step);
    g_autofree char *mean = g_strdup_printf ("%.1f", tm_alloc_stats_get_allocations_per_step (stats));
    g_autofree char *most = tm_format_count (busiest->n_allocations);

    steps = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u step", "%u steps", stats->steps->len),
                             stats->steps->len);
    /* TRANSLATORS: the allocation rate: allocations per step on average,
     * over N steps, and the busiest step's id and allocations */
    per_step = g_strdup_printf (_("%s per step over %s (most: step %" PRId64 ", %s)"),
                                mean, steps, busiest->step_id, most);
  }
  print_row (_("allocations per step"), per_step);
}

void
tm_cli_warn_replaced (const char *path,
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

void
tm_cli_print_summary (TmProfile *profile,
                      guint     *n_replaced)
{
  g_autofree char *raw_basename = g_file_get_basename (tm_profile_get_file (profile));
  g_autofree char *basename = tm_format_for_terminal (raw_basename, n_replaced);
  g_autofree char *size = tm_format_bytes ((gint64) tm_profile_get_file_size (profile));
  guint n = tm_profile_get_n_memory_ids (profile);

  g_autofree char *ids = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u memory id", "%u memory ids", n), n);

  g_print ("%s — %s, %s, %s\n", basename,
           _(tm_input_format_get_info (tm_profile_get_format (profile))->name),
           size, ids);

  if (n == 0)
    {
      if (!tm_profile_has_host_plane (profile))
        g_print ("%s\n", _("No memory data: the profile has no host plane (/host:CPU)."));
      else
        g_print ("%s\n", _("No memory data: the host plane has no MemoryAllocation or MemoryDeallocation events. "
                           "Capture with host_tracer_level 2 or higher on a BFC allocator."));
    }

  g_autofree TmAllocStats **stats = g_new0 (TmAllocStats *, MAX (n, 1));
  g_autofree GError **stats_errors = g_new0 (GError *, MAX (n, 1));
  StatsJob even = { profile, 0, stats, stats_errors };
  StatsJob odd = { profile, 1, stats, stats_errors };
  GThread *thread = n > 1 && g_get_num_processors () >= 2 ? g_thread_new ("tidemark-count", stats_job, &odd) : NULL;

  stats_job (&even);
  if (thread != NULL)
    g_thread_join (thread);
  else
    stats_job (&odd);

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
      g_autoptr(GError) error = g_steal_pointer (&stats_errors[i]);
      g_autoptr(TmAllocStats) figures = g_steal_pointer (&stats[i]);
      g_autofree char *never_freed = NULL;

      /* ESC, a line feed or U+202E in a memory id must not reach the
       * terminal as they are (docs/formats.md, section 5). */
      g_autofree char *id = tm_format_for_terminal (tm_memory_store_get_id (store), n_replaced);

      g_print ("\n%s\n", id);
      print_row (_("allocations"), allocs);
      print_row (_("deallocations"), deallocs);
      if (error == NULL)
        {
          g_autofree char *count = tm_format_count (figures->n_never_freed);
          g_autofree char *human = tm_format_bytes (figures->never_freed_bytes);
          g_autofree char *exact = tm_format_bytes_exact (figures->never_freed_bytes);

          /* TRANSLATORS: never freed: count of allocations, then their bytes */
          never_freed = g_strdup_printf (_("%s, %s (%s)"), count, human, exact);
        }
      else
        never_freed = g_strdup (error->message);
      print_row (_("never freed"), never_freed);
      if (figures != NULL)
        print_stats (figures);
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

/* A run's busiest memory id first: by the peak of each host's busiest
 * memory id; hosts without one (failed, no memory data) last, by name. */
static const TmRunDevice *
busiest_device (const TmHostSummary *summary)
{
  int busiest = tm_host_summary_get_busiest (summary);

  return busiest >= 0 ? g_ptr_array_index (summary->devices, busiest) : NULL;
}

static int
compare_busiest (gconstpointer a,
                 gconstpointer b)
{
  const TmHostSummary *host_a = *(TmHostSummary * const *) a;
  const TmHostSummary *host_b = *(TmHostSummary * const *) b;
  const TmRunDevice *device_a = busiest_device (host_a);
  const TmRunDevice *device_b = busiest_device (host_b);

  if (device_a != NULL && device_b != NULL && device_a->peak_bytes != device_b->peak_bytes)
    return device_a->peak_bytes > device_b->peak_bytes ? -1 : 1;
  if ((device_a == NULL) != (device_b == NULL))
    return device_a == NULL ? 1 : -1;
  return g_utf8_collate (host_a->host, host_b->host);
}

static void
print_cell (const char *text,
            glong       width,
            gboolean    right,
            gboolean    last)
{
  glong pad = MAX (width - display_width (text), 0);

  if (right)
    g_print ("%*s%s%s", (int) pad, "", text, last ? "\n" : "  ");
  else if (last)
    g_print ("%s\n", text);
  else
    g_print ("%s%*s  ", text, (int) pad, "");
}

void
tm_cli_print_run_table (GPtrArray *summaries)
{
  g_autoptr(GPtrArray) sorted = g_ptr_array_sized_new (summaries->len);
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  const char *headers[] = {
    _("host"), _("memory id"), _("peak"), _("capacity"), _("share"), _("peak at"),
  };
  glong widths[G_N_ELEMENTS (headers)];
  guint n_columns = G_N_ELEMENTS (headers);
  guint n_failed = 0;

  /* A copy that does not own them. */
  for (guint i = 0; i < summaries->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (summaries, i));
  g_ptr_array_sort (sorted, compare_busiest);

  for (guint c = 0; c < n_columns; c++)
    {
      widths[c] = display_width (headers[c]);
      g_ptr_array_add (cells, g_strdup (headers[c]));
    }

  for (guint i = 0; i < sorted->len; i++)
    {
      const TmHostSummary *summary = g_ptr_array_index (sorted, i);
      const TmRunDevice *device = busiest_device (summary);

      if (device == NULL)
        {
          n_failed++;
          continue;
        }
      g_ptr_array_add (cells, tm_format_for_terminal (summary->host, NULL));
      g_ptr_array_add (cells, tm_format_for_terminal (device->memory_id, NULL));
      g_ptr_array_add (cells, tm_format_bytes (device->peak_bytes));
      g_ptr_array_add (cells, tm_format_bytes (device->capacity));
      g_ptr_array_add (cells, device->capacity > 0
                              ? tm_format_percent ((double) device->peak_bytes / (double) device->capacity)
                              : g_strdup ("—"));
      g_ptr_array_add (cells, tm_format_time_ms (device->peak_time_ps));
    }

  for (guint i = 0; i < cells->len; i++)
    widths[i % n_columns] = MAX (widths[i % n_columns], display_width (g_ptr_array_index (cells, i)));

  g_print ("\n%s\n", _("Run: each host's busiest memory id, the busiest host first"));
  for (guint i = 0; i < cells->len; i++)
    {
      guint c = i % n_columns;

      if (c == 0)
        g_print ("  ");
      print_cell (g_ptr_array_index (cells, i), widths[c], c >= 2, c + 1 == n_columns);
    }

  for (guint i = 0; i < sorted->len && n_failed > 0; i++)
    {
      const TmHostSummary *summary = g_ptr_array_index (sorted, i);
      g_autofree char *host = NULL;
      g_autofree char *message = NULL;

      if (busiest_device (summary) != NULL)
        continue;
      host = tm_format_for_terminal (summary->host, NULL);
      message = tm_format_for_terminal (summary->error != NULL ? summary->error : _("no memory data"), NULL);
      g_print ("  %s: %s\n", host, message);
    }
}

/* ------------------------------------------------------------------ */
/* Gathered summaries                                                   */

typedef struct
{
  const char    *data;
  gsize          size;
  GPtrArray     *hosts;  /* TmHostSummary, in line order */
  GOutputStream *out;
} EchoJob;

/* Writes each host's line, without the white space around it. */
static gboolean
echo_job (gpointer   user_data,
          GError   **error)
{
  EchoJob *job = user_data;
  gsize at = 0;
  guint line = 1;

  for (guint i = 0; i < job->hosts->len; i++)
    {
      const TmHostSummary *host = g_ptr_array_index (job->hosts, i);
      const char *nl;
      gsize end;

      for (; line < host->line && at < job->size; line++)
        {
          nl = memchr (job->data + at, '\n', job->size - at);
          at = nl != NULL ? (gsize) (nl - job->data) + 1 : job->size;
        }
      nl = memchr (job->data + at, '\n', job->size - at);
      end = nl != NULL ? (gsize) (nl - job->data) : job->size;
      while (at < end && g_ascii_isspace (job->data[at]))
        at++;
      while (end > at && g_ascii_isspace (job->data[end - 1]))
        end--;
      if (!g_output_stream_write_all (job->out, job->data + at, end - at, NULL, NULL, error) ||
          !g_output_stream_write_all (job->out, "\n", 1, NULL, NULL, error))
        return FALSE;
      at = end;
    }
  return TRUE;
}

int
tm_cli_summary_gathered (GFile      *file,
                         const char *path,
                         gboolean    json,
                         GPtrArray  *summaries)
{
  g_autofree char *display = g_filename_display_name (path);
  g_autofree char *local = g_file_get_path (file);
  g_autoptr(TmSource) source = NULL;
  g_autoptr(GError) error = NULL;
  TmInput input;
  int status = 0;

  g_return_val_if_fail (json || summaries != NULL, 1);

  source = local != NULL ? tm_source_open (local, &error) : NULL;
  if (source == NULL && error == NULL)
    g_set_error (&error, TM_ERROR, TM_ERROR_READ, _("cannot be read: only local files can be opened"));
  if (source == NULL || !tm_input_picker_read (source, &input, NULL, NULL, NULL, &error))
    {
      g_printerr ("tidemark: %s: %s\n", display, error->message);
      return 1;
    }
  if (input.format != TM_INPUT_FORMAT_SUMMARIES)
    {
      /* It was replaced since it was looked at. */
      g_printerr ("tidemark: %s: %s\n", display, _("changed while reading: the file was modified by another program"));
      tm_input_clear (&input);
      return 1;
    }

  for (guint i = 0; i < input.problems->len; i++)
    {
      g_printerr ("tidemark: %s: %s\n", display, (const char *) g_ptr_array_index (input.problems, i));
      status = 1;
    }

  if (json)
    {
      g_autoptr(GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
      EchoJob job = { (const char *) tm_source_get_data (source), tm_source_get_size (source), input.hosts, out };
      gboolean ok;

      if (input.inflated != NULL)
        {
          job.data = g_bytes_get_data (input.inflated, &job.size);
          ok = echo_job (&job, &error);
        }
      else
        ok = tm_source_run_guarded (source, echo_job, &job, &error);
      if (!ok)
        {
          g_printerr ("tidemark: %s: %s\n", error->domain == G_IO_ERROR ? "-" : display, error->message);
          status = 1;
        }
    }
  else
    {
      g_autofree char *raw_basename = g_file_get_basename (file);
      g_autofree char *basename = tm_format_make_valid_utf8 (raw_basename, NULL);
      guint n = input.hosts->len;
      g_autofree char *hosts = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u host", "%u hosts", n), n);

      g_print ("%s — %s, %s\n", basename, _(tm_input_format_get_info (input.format)->name), hosts);
      /* The run table takes them. */
      g_ptr_array_set_free_func (input.hosts, NULL);
      for (guint i = 0; i < n; i++)
        g_ptr_array_add (summaries, g_ptr_array_index (input.hosts, i));
    }

  tm_input_clear (&input);
  return status;
}
