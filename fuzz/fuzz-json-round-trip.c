/* fuzz-json-round-trip.c — what we export as XProf JSON, we read back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Any profile that loads (XSpace or JSON) is exported as XProf's
 * memory-profile JSON and read again: the export must load, and, when no
 * name had to be replaced (docs/formats.md, section 1.10), with the same memory
 * ids, summaries, peak steps and breakdown rows.
 */
#include "config.h"

#include <string.h>

#include "tm-analysis.h"
#include "tm-fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static gboolean
same_double (double a,
             double b)
{
  return (a != a && b != b) || memcmp (&a, &b, sizeof a) == 0 || a == b;
}

static void
compare (TmProfile *a,
         TmProfile *b)
{
  tm_fuzz_check (tm_profile_get_n_memory_ids (a) == tm_profile_get_n_memory_ids (b));
  for (guint i = 0; i < tm_profile_get_n_memory_ids (a); i++)
    {
      TmMemoryStore *sa = tm_profile_get_memory_store (a, i);
      TmMemoryStore *sb = tm_profile_get_memory_store (b, i);
      const TmSummary *x = tm_memory_store_get_summary (sa);
      const TmSummary *y = tm_memory_store_get_summary (sb);
      GPtrArray *ra = tm_analysis_get_peak_breakdown (tm_profile_get_analysis (a, i));
      GPtrArray *rb = tm_analysis_get_peak_breakdown (tm_profile_get_analysis (b, i));

      tm_fuzz_check (strcmp (tm_memory_store_get_id (sa), tm_memory_store_get_id (sb)) == 0);
      tm_fuzz_check (x->peak_bytes_in_use == y->peak_bytes_in_use);
      tm_fuzz_check (x->peak_time_ps == y->peak_time_ps);
      tm_fuzz_check (x->memory_capacity == y->memory_capacity);
      tm_fuzz_check (x->peak_bytes_usage_lifetime == y->peak_bytes_usage_lifetime);
      tm_fuzz_check (x->peak_stack_bytes == y->peak_stack_bytes);
      tm_fuzz_check (x->peak_heap_bytes == y->peak_heap_bytes);
      tm_fuzz_check (x->peak_free_bytes == y->peak_free_bytes);
      tm_fuzz_check (same_double (x->peak_fragmentation, y->peak_fragmentation));
      tm_fuzz_check (ra->len == rb->len);
      for (guint r = 0; r < ra->len; r++)
        {
          const TmBreakdownRow *p = g_ptr_array_index (ra, r);
          const TmBreakdownRow *q = g_ptr_array_index (rb, r);

          tm_fuzz_check (strcmp (p->op_name, q->op_name) == 0);
          tm_fuzz_check (p->allocation_bytes == q->allocation_bytes);
          tm_fuzz_check (p->requested_bytes == q->requested_bytes);
          tm_fuzz_check (p->n_occurrences == q->n_occurrences);
          tm_fuzz_check (p->special == q->special);
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(TmProfile) profile = tm_fuzz_load (data, size);
  g_autoptr(TmProfile) again = NULL;
  g_autofree char *json = NULL;
  guint n_replaced = 0;

  if (profile == NULL)
    return 0;

  json = tm_fuzz_exercise (profile, &n_replaced);
  again = tm_fuzz_load ((const uint8_t *) json, strlen (json));
  tm_fuzz_check (again != NULL);
  if (n_replaced == 0)
    compare (profile, again);
  return 0;
}
