/* tm-alloc-list.c — the allocations of a time range, filtered and sorted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sorting makes one 64-bit key per kept allocation (strings by their rank
 * among the distinct strings, byte-wise), then sorts (key, index) pairs
 * with a radix sort, whatever the column.
 */
#include "config.h"

#include <string.h>

#include "tm-alloc-list.h"
#include "tm-alloc-stats.h"

#define CANCEL_CHECK_INTERVAL 65536

/* ------------------------------------------------------------------ */
/* Shapes                                                               */

struct _TmAllocShapes
{
  guint32      *ids;      /* per allocation, into strings */
  GPtrArray    *strings;  /* distinct shapes, in order of first use */
  GStringChunk *chunk;
};

void
tm_alloc_shapes_free (TmAllocShapes *shapes)
{
  if (shapes == NULL)
    return;
  g_free (shapes->ids);
  g_ptr_array_unref (shapes->strings);
  g_string_chunk_free (shapes->chunk);
  g_free (shapes);
}

TmAllocShapes *
tm_alloc_shapes_new (TmAllocations  *allocations,
                     GCancellable   *cancellable,
                     GError        **error)
{
  g_autoptr(TmAllocShapes) shapes = g_new0 (TmAllocShapes, 1);
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  TmMemoryStore *store;
  guint n;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (allocations), NULL);

  store = tm_allocations_get_store (allocations);
  n = tm_allocations_get_n (allocations);
  shapes->ids = g_new (guint32, MAX (n, 1));
  shapes->strings = g_ptr_array_new ();
  shapes->chunk = g_string_chunk_new (4096);
  for (guint i = 0; i < n; i++)
    {
      TmActivity act;
      gpointer id;

      if ((i % 16384) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (!tm_memory_store_get_activity (store, tm_allocations_get_event (allocations, i), &act, error))
        return NULL;
      if (!g_hash_table_lookup_extended (ids, act.shape, NULL, &id))
        {
          char *kept = g_string_chunk_insert_const (shapes->chunk, act.shape);

          id = GUINT_TO_POINTER (shapes->strings->len);
          g_ptr_array_add (shapes->strings, kept);
          g_hash_table_insert (ids, kept, id);
        }
      shapes->ids[i] = GPOINTER_TO_UINT (id);
      tm_activity_clear (&act);
    }
  return g_steal_pointer (&shapes);
}

const char *
tm_alloc_shapes_get (TmAllocShapes *shapes,
                     guint          index)
{
  g_return_val_if_fail (shapes != NULL, "");
  return g_ptr_array_index (shapes->strings, shapes->ids[index]);
}

/* ------------------------------------------------------------------ */
/* Filtering                                                            */

gboolean
tm_alloc_list_needs_shapes (const TmAllocListQuery *query)
{
  g_return_val_if_fail (query != NULL, FALSE);
  return query->sort == TM_ALLOC_LIST_SORT_SHAPE || (query->text != NULL && query->text[0] != '\0');
}

static gboolean
holds (const char *haystack,
       const char *folded_needle)
{
  g_autofree char *folded = g_utf8_casefold (haystack, -1);

  return strstr (folded, folded_needle) != NULL;
}

/* "0x7f3a00000000": the address as the list shows it. */
static void
format_address (guint64  address,
                char    *out,
                gsize    size)
{
  g_snprintf (out, size, "0x%" G_GINT64_MODIFIER "x", address);
}

/* What a text decides per label and per shape, once. */
typedef struct
{
  char     *folded;   /* the text, case-folded */
  gboolean *labels;   /* per label: its op, region or data type holds it */
  gboolean *shapes;   /* per distinct shape */
} TextFilter;

static void
text_filter_init (TextFilter    *filter,
                  TmAllocations *allocations,
                  TmAllocShapes *shapes,
                  const char    *text)
{
  guint n_labels = tm_allocations_get_n_labels (allocations);

  filter->folded = g_utf8_casefold (text, -1);
  filter->labels = g_new0 (gboolean, n_labels + 1);
  for (guint l = 0; l < n_labels; l++)
    {
      const TmAllocationLabel *label = tm_allocations_get_label (allocations, l);

      filter->labels[l] = holds (label->op_name, filter->folded) || holds (label->region_type, filter->folded) ||
                          holds (label->data_type, filter->folded);
    }
  filter->shapes = g_new0 (gboolean, shapes->strings->len + 1);
  for (guint s = 0; s < shapes->strings->len; s++)
    filter->shapes[s] = holds (g_ptr_array_index (shapes->strings, s), filter->folded);
}

static void
text_filter_clear (TextFilter *filter)
{
  g_free (filter->folded);
  g_free (filter->labels);
  g_free (filter->shapes);
}

static gboolean
text_filter_keeps (const TextFilter *filter,
                   TmAllocations    *allocations,
                   TmAllocShapes    *shapes,
                   guint             index)
{
  const TmAllocation *a = tm_allocations_get (allocations, index);
  guint label = TM_ALLOCATION_LABEL (a);
  char address[32];

  if (label < tm_allocations_get_n_labels (allocations) && filter->labels[label])
    return TRUE;
  if (filter->shapes[shapes->ids[index]])
    return TRUE;
  /* Hex digits and "0x" fold to themselves. */
  format_address (a->address, address, sizeof address);
  return strstr (address, filter->folded) != NULL;
}

gboolean
tm_alloc_list_matches_text (TmAllocations *allocations,
                            TmAllocShapes *shapes,
                            guint          index,
                            const char    *text)
{
  TextFilter filter;
  gboolean keeps;

  g_return_val_if_fail (TM_IS_ALLOCATIONS (allocations), FALSE);
  if (text == NULL || text[0] == '\0')
    return TRUE;
  g_return_val_if_fail (shapes != NULL, FALSE);

  text_filter_init (&filter, allocations, shapes, text);
  keeps = text_filter_keeps (&filter, allocations, shapes, index);
  text_filter_clear (&filter);
  return keeps;
}

/* steps: tm_alloc_stats_number_steps() for TM_ALLOC_LIST_SAME_STEP (the
 * rule of tm_alloc_stats_is_same_step, without its searches). */
static gboolean
kind_keeps (TmAllocations          *allocations,
            const TmAllocListQuery *query,
            const guint32          *steps,
            guint                   index)
{
  const TmAllocation *a;

  switch (query->kind)
    {
    case TM_ALLOC_LIST_NEVER_FREED:
      return tm_allocations_get (allocations, index)->end == TM_ALLOCATIONS_OPEN;
    case TM_ALLOC_LIST_TEMPORARY:
      return tm_alloc_stats_is_temporary (allocations, index, query->temporary_ps);
    case TM_ALLOC_LIST_SAME_STEP:
      a = tm_allocations_get (allocations, index);
      return a->start != TM_ALLOCATIONS_OPEN && a->end != TM_ALLOCATIONS_OPEN && steps[a->start] == steps[a->end];
    case TM_ALLOC_LIST_ALL:
    default:
      return TRUE;
    }
}

/* ------------------------------------------------------------------ */
/* Sorting                                                              */

typedef struct
{
  guint64 key;
  guint   index;
} Pair;

/* Sorts pairs by key, least significant byte first, eight bits a pass
 * (passes whose byte is the same in every key are skipped). Stable: pairs
 * of equal keys keep their order, the index order they come in. Four
 * times faster than a comparison sort on half a million rows. */
static void
radix_sort (Pair  *pairs,
            gsize  n)
{
  g_autofree Pair *spare = g_new (Pair, MAX (n, 1));
  Pair *from = pairs, *to = spare;

  for (guint shift = 0; shift < 64; shift += 8)
    {
      gsize count[256] = { 0 };
      gsize pos = 0;
      Pair *t;

      for (gsize i = 0; i < n; i++)
        count[(from[i].key >> shift) & 0xff]++;
      if (n == 0 || count[(from[0].key >> shift) & 0xff] == n)
        continue;
      for (guint b = 0; b < 256; b++)
        {
          gsize c = count[b];

          count[b] = pos;
          pos += c;
        }
      for (gsize i = 0; i < n; i++)
        to[count[(from[i].key >> shift) & 0xff]++] = from[i];
      t = from;
      from = to;
      to = t;
    }
  if (from != pairs)
    memcpy (pairs, from, n * sizeof (Pair));
}

/* A signed value as an unsigned key of the same order. */
static inline guint64
signed_key (gint64 v)
{
  return (guint64) v ^ (G_GUINT64_CONSTANT (1) << 63);
}

typedef struct
{
  const char * const *strings;
} RankSort;

static int
compare_ranked (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const RankSort *sort = user_data;

  return strcmp (sort->strings[*(const guint *) a], sort->strings[*(const guint *) b]);
}

/* The rank of each of n strings in byte-wise order (equal strings, equal
 * ranks). */
static guint *
ranks_of (const char * const *strings,
          guint               n)
{
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  guint *rank = g_new0 (guint, MAX (n, 1));
  RankSort sort = { strings };

  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint), compare_ranked, &sort);
  for (guint i = 1; i < n; i++)
    rank[order[i]] = rank[order[i - 1]] + (strcmp (strings[order[i]], strings[order[i - 1]]) != 0);
  return rank;
}

/* The ranks of the labels' op names, regions or data types. */
static guint *
label_ranks (TmAllocations   *allocations,
             TmAllocListSort  sort)
{
  guint n = tm_allocations_get_n_labels (allocations);
  g_autofree const char **strings = g_new (const char *, MAX (n, 1));

  for (guint l = 0; l < n; l++)
    {
      const TmAllocationLabel *label = tm_allocations_get_label (allocations, l);

      strings[l] = sort == TM_ALLOC_LIST_SORT_OP ? label->op_name
                   : sort == TM_ALLOC_LIST_SORT_REGION ? label->region_type : label->data_type;
    }
  return ranks_of (strings, n);
}

static guint64
sort_key (TmAllocations   *allocations,
          TmAllocListSort  sort,
          const guint     *ranks,
          TmAllocShapes   *shapes,
          guint            index)
{
  const TmAllocation *a = tm_allocations_get (allocations, index);
  guint label = TM_ALLOCATION_LABEL (a);

  switch (sort)
    {
    case TM_ALLOC_LIST_SORT_OP:
    case TM_ALLOC_LIST_SORT_REGION:
    case TM_ALLOC_LIST_SORT_DATA_TYPE:
      /* The shared last label (more labels than the index keeps) last. */
      return label < tm_allocations_get_n_labels (allocations) ? ranks[label] : G_MAXUINT32;
    case TM_ALLOC_LIST_SORT_SHAPE:
      return ranks[shapes->ids[index]];
    case TM_ALLOC_LIST_SORT_SIZE:
      return (guint64) TM_ALLOCATION_BYTES (a);
    case TM_ALLOC_LIST_SORT_ADDRESS:
      return a->address;
    case TM_ALLOC_LIST_SORT_ALLOCATED_AT:
      return a->start == TM_ALLOCATIONS_OPEN ? 0 : signed_key (tm_allocations_get_start_time (allocations, index));
    case TM_ALLOC_LIST_SORT_FREED_AT:
      return a->end == TM_ALLOCATIONS_OPEN ? G_MAXUINT64 : signed_key (tm_allocations_get_end_time (allocations, index));
    case TM_ALLOC_LIST_SORT_LIFETIME:
      return signed_key (tm_allocations_get_end_time (allocations, index) -
                         tm_allocations_get_start_time (allocations, index));
    case TM_ALLOC_LIST_SORT_INDEX:
    default:
      return index;
    }
}

static gboolean
sort_indices (TmAllocations          *allocations,
              TmAllocShapes          *shapes,
              const TmAllocListQuery *query,
              GArray                 *indices,
              GCancellable           *cancellable,
              GError                **error)
{
  g_autofree guint *ranks = NULL;
  g_autofree Pair *pairs = NULL;
  guint n = indices->len;

  if (query->sort == TM_ALLOC_LIST_SORT_INDEX && !query->descending)
    return TRUE;  /* found in index order */

  if (query->sort == TM_ALLOC_LIST_SORT_OP || query->sort == TM_ALLOC_LIST_SORT_REGION ||
      query->sort == TM_ALLOC_LIST_SORT_DATA_TYPE)
    ranks = label_ranks (allocations, query->sort);
  else if (query->sort == TM_ALLOC_LIST_SORT_SHAPE)
    ranks = ranks_of ((const char * const *) shapes->strings->pdata, shapes->strings->len);

  pairs = g_new (Pair, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      guint index = g_array_index (indices, guint, i);
      guint64 key = sort_key (allocations, query->sort, ranks, shapes, index);

      pairs[i].key = query->descending ? G_MAXUINT64 - key : key;
      pairs[i].index = index;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  radix_sort (pairs, n);
  for (guint i = 0; i < n; i++)
    g_array_index (indices, guint, i) = pairs[i].index;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The query                                                            */

GArray *
tm_alloc_list_query (TmAllocations           *allocations,
                     TmAllocShapes           *shapes,
                     const TmAllocListQuery  *query,
                     GCancellable            *cancellable,
                     GError                 **error)
{
  g_autoptr(GArray) candidates = NULL;
  g_autoptr(GArray) kept = NULL;
  g_autofree guint32 *steps = NULL;
  gboolean text = FALSE;
  TextFilter filter = { NULL, NULL, NULL };

  g_return_val_if_fail (TM_IS_ALLOCATIONS (allocations), NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (shapes != NULL || !tm_alloc_list_needs_shapes (query), NULL);

  /* Every address: the allocations whose lifetime meets the range. */
  candidates = tm_allocations_query (allocations, query->start_ps, query->end_ps, 0, G_MAXUINT64);
  kept = g_array_sized_new (FALSE, FALSE, sizeof (guint), candidates->len);

  if (query->kind == TM_ALLOC_LIST_SAME_STEP)
    steps = tm_alloc_stats_number_steps (tm_allocations_get_store (allocations));
  if (query->text != NULL && query->text[0] != '\0')
    {
      text_filter_init (&filter, allocations, shapes, query->text);
      text = TRUE;
    }
  for (guint i = 0; i < candidates->len; i++)
    {
      guint index = g_array_index (candidates, guint, i);

      if ((i % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          if (text)
            text_filter_clear (&filter);
          return NULL;
        }
      if (kind_keeps (allocations, query, steps, index) &&
          (!text || text_filter_keeps (&filter, allocations, shapes, index)))
        g_array_append_val (kept, index);
    }
  if (text)
    text_filter_clear (&filter);

  if (!sort_indices (allocations, shapes, query, kept, cancellable, error))
    return NULL;
  return g_steal_pointer (&kept);
}
