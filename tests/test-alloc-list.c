/* test-alloc-list.c — the allocations of a range, filtered and sorted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-alloc-list on a fixture whose every order is worked out below.
 */
#include "config.h"

#include "tm-alloc-list.h"
#include "tm-alloc-stats.h"
#include "tm-test-util.h"

#define US G_GINT64_CONSTANT (1000000)

typedef struct
{
  gboolean    alloc;
  gint64      time;    /* µs */
  guint64     addr;
  gint64      bytes;
  const char *op;
  const char *region;
  gint64      dtype;
  const char *shape;
  gint64      step;
} Ev;

/* In the index (tm-allocations: those from the profile's start first, then
 * by allocation time):
 *
 *   index  made   ends        addr    bytes  op         region   dtype  shape     lifetime
 *   0      open   1 µs        0x900   64     ""         ""       -      ""        0
 *   1      2 µs   4 µs        0x100   300    b/MatMul   output   float  [4, 8]    2 µs, step 1 → 1
 *   2      3 µs   never       0x200   100    a/Conv     temp     half   [2]       6 µs (to the end)
 *   3      5 µs   8 µs        0x7f00  200    c/Add      temp     float  [16, 16]  3 µs, step 2 → 2
 *   4      9 µs   never       0x300   50     A/lower    persist  int32  [1]       0
 */
static const Ev events[] = {
  { FALSE, 1, 0x900, 64, NULL, NULL, 0, NULL, 1 },
  { TRUE, 2, 0x100, 300, "b/MatMul", "output", 1, "[4, 8]", 1 },
  { TRUE, 3, 0x200, 100, "a/Conv", "temp", 19, "[2]", 1 },
  { FALSE, 4, 0x100, 300, NULL, NULL, 0, NULL, 1 },
  { TRUE, 5, 0x7f00, 200, "c/Add", "temp", 1, "[16, 16]", 2 },
  { FALSE, 8, 0x7f00, 200, NULL, NULL, 0, NULL, 2 },
  { TRUE, 9, 0x300, 50, "A/lower", "persist", 3, "[1]", 2 },
};

static void
fill_memory (gconstpointer    data,
             TmFixtureMemory *m,
             gboolean        *allocation,
             gint64          *time_ps)
{
  const Ev *ev = data;

  *allocation = ev->alloc;
  *time_ps = ev->time * US;
  m->bytes_allocated = 1000;
  m->bytes_available = 100000;
  m->peak_bytes_in_use = 1000;
  m->requested_bytes = ev->bytes;
  m->allocation_bytes = ev->bytes;
  m->addr = ev->addr;
  m->tf_op = ev->op;
  m->region_type = ev->region;
  m->data_type = ev->dtype;
  m->shape = ev->shape;
  m->has_group_id = TRUE;
  m->group_id = ev->step;
}

typedef struct
{
  TmProfile     *profile;
  TmAllocations *allocations;
  TmAllocShapes *shapes;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->profile = tm_test_load_memory_events (events, sizeof *events, G_N_ELEMENTS (events), fill_memory);
  f->allocations = tm_profile_lookup_allocations (f->profile, tm_profile_get_memory_store (f->profile, 0));
  g_assert_cmpuint (tm_allocations_get_n (f->allocations), ==, 5);
  f->shapes = tm_alloc_shapes_new (f->allocations, NULL, &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  tm_alloc_shapes_free (f->shapes);
  g_object_unref (f->profile);
}

/* Runs query with the given changes and checks the indices. */
static void
assert_query (Fixture                *f,
              const TmAllocListQuery *query,
              const guint            *expected,
              guint                   n_expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) got = tm_alloc_list_query (f->allocations, f->shapes, query, NULL, &error);
  g_autoptr(GString) text = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < got->len; i++)
    g_string_append_printf (text, "%u ", g_array_index (got, guint, i));
  g_test_message ("sort %d%s kind %d text %s: %s", query->sort, query->descending ? " desc" : "",
                  query->kind, query->text, text->str);
  g_assert_cmpuint (got->len, ==, n_expected);
  for (guint i = 0; i < n_expected; i++)
    g_assert_cmpuint (g_array_index (got, guint, i), ==, expected[i]);
}

#define ASSERT_QUERY(f, q, ...) \
  G_STMT_START { \
    static const guint expected_[] = { __VA_ARGS__ }; \
    assert_query ((f), (q), expected_, G_N_ELEMENTS (expected_)); \
  } G_STMT_END

static TmAllocListQuery
whole (void)
{
  TmAllocListQuery q = { 1 * US, 9 * US, TM_ALLOC_LIST_ALL, 2 * US, NULL, TM_ALLOC_LIST_SORT_INDEX, FALSE };

  return q;
}

static void
test_shapes (Fixture       *f,
             gconstpointer  data)
{
  g_assert_cmpstr (tm_alloc_shapes_get (f->shapes, 0), ==, "");
  g_assert_cmpstr (tm_alloc_shapes_get (f->shapes, 1), ==, "[4, 8]");
  g_assert_cmpstr (tm_alloc_shapes_get (f->shapes, 3), ==, "[16, 16]");
  g_assert_cmpstr (tm_alloc_shapes_get (f->shapes, 4), ==, "[1]");
}

/* The range keeps what is live in it, ends included. */
static void
test_range (Fixture       *f,
            gconstpointer  data)
{
  TmAllocListQuery q = whole ();

  ASSERT_QUERY (f, &q, 0, 1, 2, 3, 4);
  q.start_ps = 4500000;
  q.end_ps = 7 * US;
  ASSERT_QUERY (f, &q, 2, 3);
  q.start_ps = q.end_ps = 4 * US;
  ASSERT_QUERY (f, &q, 1, 2);
  q.start_ps = q.end_ps = 9 * US;
  ASSERT_QUERY (f, &q, 2, 4);
}

/* Every column, both ways; ties in index order. */
static void
test_sort (Fixture       *f,
           gconstpointer  data)
{
  TmAllocListQuery q = whole ();

  q.sort = TM_ALLOC_LIST_SORT_SIZE;
  ASSERT_QUERY (f, &q, 4, 0, 2, 3, 1);
  q.descending = TRUE;
  ASSERT_QUERY (f, &q, 1, 3, 2, 0, 4);
  q.descending = FALSE;
  /* Byte-wise: "" < "A/lower" < "a/Conv" < "b/MatMul" < "c/Add". */
  q.sort = TM_ALLOC_LIST_SORT_OP;
  ASSERT_QUERY (f, &q, 0, 4, 2, 1, 3);
  q.sort = TM_ALLOC_LIST_SORT_REGION;
  ASSERT_QUERY (f, &q, 0, 1, 4, 2, 3);
  q.sort = TM_ALLOC_LIST_SORT_DATA_TYPE;
  ASSERT_QUERY (f, &q, 0, 1, 3, 2, 4);
  /* "[16, 16]" < "[1]": '6' before ']'. */
  q.sort = TM_ALLOC_LIST_SORT_SHAPE;
  ASSERT_QUERY (f, &q, 0, 3, 4, 2, 1);
  q.sort = TM_ALLOC_LIST_SORT_ADDRESS;
  ASSERT_QUERY (f, &q, 1, 2, 4, 0, 3);
  q.sort = TM_ALLOC_LIST_SORT_ALLOCATED_AT;
  ASSERT_QUERY (f, &q, 0, 1, 2, 3, 4);
  q.descending = TRUE;
  ASSERT_QUERY (f, &q, 4, 3, 2, 1, 0);
  q.sort = TM_ALLOC_LIST_SORT_FREED_AT;
  ASSERT_QUERY (f, &q, 2, 4, 3, 1, 0);
  q.descending = FALSE;
  ASSERT_QUERY (f, &q, 0, 1, 3, 2, 4);
  q.sort = TM_ALLOC_LIST_SORT_LIFETIME;
  ASSERT_QUERY (f, &q, 0, 4, 1, 3, 2);
  q.sort = TM_ALLOC_LIST_SORT_INDEX;
  q.descending = TRUE;
  ASSERT_QUERY (f, &q, 4, 3, 2, 1, 0);
}

/* The kinds, by the rules of tm-alloc-stats. */
static void
test_kind (Fixture       *f,
           gconstpointer  data)
{
  TmAllocListQuery q = whole ();
  g_autoptr(TmAllocStats) stats = NULL;
  g_autoptr(GError) error = NULL;

  q.kind = TM_ALLOC_LIST_NEVER_FREED;
  ASSERT_QUERY (f, &q, 2, 4);
  /* 2 µs: only 1 (exactly 2); 3 µs: 3 too; never the one from the start. */
  q.kind = TM_ALLOC_LIST_TEMPORARY;
  ASSERT_QUERY (f, &q, 1);
  q.temporary_ps = 3 * US;
  ASSERT_QUERY (f, &q, 1, 3);
  q.kind = TM_ALLOC_LIST_SAME_STEP;
  ASSERT_QUERY (f, &q, 1, 3);

  /* The same as the figures count. */
  stats = tm_alloc_stats_new (f->allocations, 1 * US, 9 * US, 3 * US, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stats->n_temporary, ==, 2);
  g_assert_cmpuint (stats->n_same_step, ==, 2);
  g_assert_cmpuint (stats->n_never_freed, ==, 2);
}

/* Text: op, region, data type, shape or the address in hex, ignoring case. */
static void
test_text (Fixture       *f,
           gconstpointer  data)
{
  TmAllocListQuery q = whole ();

  q.text = "conv";
  ASSERT_QUERY (f, &q, 2);
  q.text = "TEMP";
  ASSERT_QUERY (f, &q, 2, 3);
  q.text = "half";
  ASSERT_QUERY (f, &q, 2);
  q.text = "[16";
  ASSERT_QUERY (f, &q, 3);
  q.text = "0x7F";
  ASSERT_QUERY (f, &q, 3);
  q.text = "0x9";
  ASSERT_QUERY (f, &q, 0);
  q.text = "zzz";
  assert_query (f, &q, NULL, 0);
  /* With a kind and a sort. */
  q.text = "temp";
  q.kind = TM_ALLOC_LIST_NEVER_FREED;
  ASSERT_QUERY (f, &q, 2);
  q.text = "/";
  q.kind = TM_ALLOC_LIST_ALL;
  q.sort = TM_ALLOC_LIST_SORT_SIZE;
  q.descending = TRUE;
  ASSERT_QUERY (f, &q, 1, 3, 2, 4);

  g_assert_true (tm_alloc_list_matches_text (f->allocations, f->shapes, 4, "LOWER"));
  g_assert_false (tm_alloc_list_matches_text (f->allocations, f->shapes, 4, "upper"));
  g_assert_true (tm_alloc_list_matches_text (f->allocations, NULL, 4, ""));
  g_assert_true (tm_alloc_list_needs_shapes (&q));
  q.text = NULL;
  g_assert_false (tm_alloc_list_needs_shapes (&q));
}

static void
test_cancelled (Fixture       *f,
                gconstpointer  data)
{
  TmAllocListQuery q = whole ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_null (tm_alloc_list_query (f->allocations, f->shapes, &q, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_null (tm_alloc_shapes_new (f->allocations, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/alloc-list/shapes", Fixture, NULL, fixture_setup, test_shapes, fixture_teardown);
  g_test_add ("/alloc-list/range", Fixture, NULL, fixture_setup, test_range, fixture_teardown);
  g_test_add ("/alloc-list/sort", Fixture, NULL, fixture_setup, test_sort, fixture_teardown);
  g_test_add ("/alloc-list/kind", Fixture, NULL, fixture_setup, test_kind, fixture_teardown);
  g_test_add ("/alloc-list/text", Fixture, NULL, fixture_setup, test_text, fixture_teardown);
  g_test_add ("/alloc-list/cancelled", Fixture, NULL, fixture_setup, test_cancelled, fixture_teardown);

  return g_test_run ();
}
