/* test-allocations.c — the allocation index: pairing, never freed, queries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tm-alloc-raster.h"
#include "tm-allocations.h"
#include "tm-export.h"
#include "tm-test-util.h"

typedef struct
{
  gboolean    alloc;
  gint64      time;
  gint64      heap;
  gint64      bytes;
  guint64     addr;
  const char *op;
} Ev;

static void
fill_memory (gconstpointer    data,
             TmFixtureMemory *m,
             gboolean        *allocation,
             gint64          *time_ps)
{
  const Ev *ev = data;

  *allocation = ev->alloc;
  *time_ps = ev->time;
  m->bytes_allocated = ev->heap;
  m->bytes_available = 1000000 - ev->heap;
  m->peak_bytes_in_use = ev->heap;
  m->requested_bytes = ev->bytes - 1;
  m->allocation_bytes = ev->bytes;
  m->addr = ev->addr;
  m->tf_op = ev->op;
  m->region_type = "output";
  m->data_type = 1;
  m->shape = "[4]";
}

static TmProfile *
load_events (const Ev *evs,
             guint     n)
{
  return tm_test_load_memory_events (evs, sizeof *evs, n, fill_memory);
}

/* A free before any allocation, a free, address reuse after a free, a new
 * allocation at a live address (it ends the old one, as in the breakdown at
 * any time) and two allocations never freed. */
static const Ev pairing_events[] = {
  { FALSE, 10,  0,  8, 100, NULL },  /* 0: allocated before the profile */
  { TRUE,  20, 16, 16, 200, "a" },   /* 1: freed by 3 */
  { TRUE,  30, 48, 32, 300, "b" },   /* 2: ended by 5 */
  { FALSE, 40, 32, 16, 200, NULL },  /* 3 */
  { TRUE,  50, 48, 16, 200, "c" },   /* 4: reuses 200, never freed */
  { TRUE,  60, 80, 32, 300, "d" },   /* 5: at live 300, never freed */
};

/* Two allocations at one address before its deallocation: the first is
 * ended by the second, the second by the deallocation, and the
 * deallocation's partner is the first (docs/analysis.md step 4); after it,
 * the address starts afresh. */
static const Ev replaced_events[] = {
  { TRUE,  10, 16, 16, 300, "a" },   /* 0: ended by 1 */
  { TRUE,  20, 32, 16, 300, "b" },   /* 1: freed by 2 */
  { FALSE, 30, 16, 16, 300, NULL },  /* 2: copies 0 */
  { TRUE,  40, 32, 16, 300, "c" },   /* 3: freed by 4 */
  { FALSE, 50, 16, 16, 300, NULL },  /* 4: copies 3 */
};

static void
test_partners_replaced (void)
{
  static const guint32 expected[] = { 1, 2, 0, 4, 3 };
  g_autoptr(TmProfile) profile = load_events (replaced_events, G_N_ELEMENTS (replaced_events));
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  const guint32 *partners = tm_memory_store_get_partners (store);

  g_assert_cmpuint (tm_memory_store_get_n_snapshots (store), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpuint (partners[i], ==, expected[i]);
}

static void
test_pairing (void)
{
  static const struct { guint32 start, end; guint64 addr; gint64 bytes; const char *op; } expected[] = {
    { TM_ALLOCATIONS_OPEN, 0, 100, 8, "" },
    { 1, 3, 200, 16, "a" },
    { 2, 5, 300, 32, "b" },
    { 4, TM_ALLOCATIONS_OPEN, 200, 16, "c" },
    { 5, TM_ALLOCATIONS_OPEN, 300, 32, "d" },
  };
  g_autoptr(TmProfile) profile = load_events (pairing_events, G_N_ELEMENTS (pairing_events));
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  TmAllocations *allocs = tm_profile_lookup_allocations (profile, store);
  g_autoptr(GArray) never = NULL;
  g_autoptr(GError) error = NULL;
  guint count = 0;
  gint64 bytes = 0;

  g_assert_nonnull (allocs);
  g_assert_cmpuint (tm_allocations_get_n (allocs), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const TmAllocation *a = tm_allocations_get (allocs, i);

      g_assert_cmpuint (a->start, ==, expected[i].start);
      g_assert_cmpuint (a->end, ==, expected[i].end);
      g_assert_cmpuint (a->address, ==, expected[i].addr);
      g_assert_cmpint (TM_ALLOCATION_BYTES (a), ==, expected[i].bytes);
      g_assert_cmpstr (tm_allocations_get_label (allocs, TM_ALLOCATION_LABEL (a))->op_name, ==, expected[i].op);
    }

  /* Open edges run from the first to the last snapshot. */
  g_assert_cmpint (tm_allocations_get_start_time (allocs, 0), ==, 10);
  g_assert_cmpint (tm_allocations_get_end_time (allocs, 0), ==, 10);
  g_assert_cmpint (tm_allocations_get_end_time (allocs, 2), ==, 60);
  g_assert_cmpint (tm_allocations_get_end_time (allocs, 3), ==, 60);
  g_assert_cmpuint (tm_allocations_get_event (allocs, 0), ==, 0);
  g_assert_cmpuint (tm_allocations_find_by_snapshot (allocs, 4), ==, 3);
  g_assert_cmpuint (tm_allocations_find_by_snapshot (allocs, 3), ==, TM_ALLOCATIONS_NONE);

  g_assert_cmpuint (tm_allocations_get_n_never_freed (allocs), ==, 2);
  g_assert_cmpint (tm_allocations_get_never_freed_bytes (allocs), ==, 48);
  never = tm_allocations_query_never_freed (allocs);
  g_assert_cmpuint (never->len, ==, 2);
  g_assert_cmpuint (g_array_index (never, guint, 0), ==, 3);
  g_assert_cmpuint (g_array_index (never, guint, 1), ==, 4);
  {
    g_autoptr(GArray) events = tm_allocations_query_never_freed_events (allocs);

    /* Their allocation events: snapshots 4 and 5. */
    g_assert_cmpuint (events->len, ==, 2);
    g_assert_cmpuint (g_array_index (events, guint, 0), ==, 4);
    g_assert_cmpuint (g_array_index (events, guint, 1), ==, 5);
  }
  g_assert_true (tm_allocations_count_never_freed (store, &count, &bytes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count, ==, 2);
  g_assert_cmpint (bytes, ==, 48);

  /* Points: 300 at time 45 is "b"; at 60 both "b" (ends) and "d" (starts)
   * touch it, and the later wins a tie of sizes. */
  g_assert_cmpuint (tm_allocations_pick (allocs, 45, 45, 310, 310), ==, 2);
  g_assert_cmpuint (tm_allocations_pick (allocs, 60, 60, 300, 300), ==, 4);
  g_assert_cmpuint (tm_allocations_pick (allocs, 45, 45, 250, 250), ==, TM_ALLOCATIONS_NONE);
  g_assert_cmpuint (tm_allocations_pick (allocs, 35, 35, 200, 400), ==, 2);  /* the larger */

  /* Addresses 100..332 are one span (no gap is long enough to cut). */
  {
    guint n_spans;
    const TmAddressSpan *spans = tm_allocations_get_spans (allocs, &n_spans);

    g_assert_cmpuint (n_spans, ==, 1);
    g_assert_cmpuint (spans[0].address, ==, 100);
    g_assert_cmpuint (spans[0].end, ==, 332);
    g_assert_cmpfloat (tm_allocations_address_to_axis (allocs, 200), ==, 100.0);
    g_assert_cmpuint (tm_allocations_axis_to_address (allocs, 100.0), ==, 200);
  }
}

static void
lookup_ready_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static TmAllocations *
lookup_and_wait (TmProfile     *profile,
                 TmMemoryStore *store,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tm_profile_lookup_allocations_async (profile, store, cancellable, lookup_ready_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return tm_profile_lookup_allocations_finish (profile, result, error);
}

/* The window's way to an index: peeking never builds one; the worker
 * builds it once (two asking at once get the same), and a request
 * cancelled before it starts builds nothing. */
static void
test_lookup_async (void)
{
  g_autoptr(TmProfile) profile = load_events (pairing_events, G_N_ELEMENTS (pairing_events));
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  g_autoptr(GAsyncResult) first = NULL, second = NULL;
  g_autoptr(TmAllocations) a = NULL, b = NULL, c = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_null (tm_profile_peek_allocations (profile, store));

  g_cancellable_cancel (cancelled);
  g_assert_null (lookup_and_wait (profile, store, cancelled, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_null (tm_profile_peek_allocations (profile, store));

  tm_profile_lookup_allocations_async (profile, store, NULL, lookup_ready_cb, &first);
  tm_profile_lookup_allocations_async (profile, store, NULL, lookup_ready_cb, &second);
  while (first == NULL || second == NULL)
    g_main_context_iteration (NULL, TRUE);
  a = tm_profile_lookup_allocations_finish (profile, first, &error);
  g_assert_no_error (error);
  b = tm_profile_lookup_allocations_finish (profile, second, &error);
  g_assert_no_error (error);
  g_assert_nonnull (a);
  g_assert_true (a == b);
  g_assert_cmpuint (tm_allocations_get_n (a), ==, 5);
  g_assert_true (tm_profile_peek_allocations (profile, store) == a);
  g_assert_true (tm_profile_lookup_allocations (profile, store) == a);

  /* Built, it is there at once. */
  c = lookup_and_wait (profile, store, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (c == a);
}

static void
test_csv (void)
{
  g_autoptr(TmProfile) profile = load_events (pairing_events, G_N_ELEMENTS (pairing_events));
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (tm_export_allocations_csv (store, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
  g_assert_cmpstr (text, ==,
                   "address,allocation_bytes,requested_bytes,allocated_at_ps,freed_at_ps,op_name,region_type,data_type,shape\r\n"
                   "100,8,7,,10,,output,float,[4]\r\n"
                   "200,16,15,20,40,a,output,float,[4]\r\n"
                   "300,32,31,30,60,b,output,float,[4]\r\n"
                   "200,16,15,50,,c,output,float,[4]\r\n"
                   "300,32,31,60,,d,output,float,[4]\r\n");
}

/* Long gaps are cut to a break; short ones stay. */
static void
test_spans (void)
{
  static const Ev evs[] = {
    { TRUE, 10, 0, 1024, 0x10000, "a" },
    { TRUE, 20, 0, 1024, 0x10800, "b" },              /* a 1 KiB hole: kept */
    { TRUE, 30, 0, 4096, 0x7f0000000000, "c" },       /* far away: cut */
  };
  g_autoptr(TmProfile) profile = load_events (evs, G_N_ELEMENTS (evs));
  TmAllocations *allocs = tm_profile_lookup_allocations (profile, tm_profile_get_memory_store (profile, 0));
  guint n_spans;
  const TmAddressSpan *spans = tm_allocations_get_spans (allocs, &n_spans);

  g_assert_cmpuint (n_spans, ==, 2);
  g_assert_cmpuint (spans[0].address, ==, 0x10000);
  g_assert_cmpuint (spans[0].end, ==, 0x10c00);
  g_assert_cmpuint (spans[1].address, ==, 0x7f0000000000);
  g_assert_cmpuint (spans[1].offset, >, 0xc00);       /* a break between */
  g_assert_cmpuint (spans[1].offset, <, 0xc00 + 4096);
  g_assert_cmpuint (tm_allocations_get_axis_length (allocs), ==, spans[1].offset + 4096);
  g_assert_cmpuint (tm_allocations_axis_to_address (allocs, (double) spans[1].offset + 10), ==, 0x7f000000000a);
}

/* Many allocations, addresses in no order and often the same (the index
 * sorts them by address to find the spans): the spans are in address
 * order, apart, and hold every allocation. */
static void
test_spans_many (void)
{
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(TmProfile) profile = NULL;
  TmAllocations *allocs;
  const TmAddressSpan *spans;
  guint n_spans;

  for (guint i = 0; i < 3000; i++)
    {
      /* 40 places in 3 regions far apart, blocks of 1 KiB to 64 KiB */
      guint64 base = (guint64) g_rand_int_range (rand, 0, 3) << 36;
      Ev ev = { TRUE, 10 + i, 0, 1024 * g_rand_int_range (rand, 1, 65),
                base + 0x100000 * (guint64) g_rand_int_range (rand, 0, 40), "op" };

      g_array_append_val (evs, ev);
    }
  profile = load_events ((const Ev *) evs->data, evs->len);
  allocs = tm_profile_lookup_allocations (profile, tm_profile_get_memory_store (profile, 0));
  spans = tm_allocations_get_spans (allocs, &n_spans);
  g_assert_cmpuint (n_spans, >=, 3);
  for (guint i = 1; i < n_spans; i++)
    {
      g_assert_cmpuint (spans[i - 1].address, <, spans[i - 1].end);
      g_assert_cmpuint (spans[i - 1].end, <, spans[i].address);
      g_assert_cmpuint (spans[i - 1].offset, <, spans[i].offset);
    }
  for (guint i = 0; i < tm_allocations_get_n (allocs); i++)
    {
      const TmAllocation *a = tm_allocations_get (allocs, i);
      guint k = 0;

      while (k < n_spans && spans[k].end <= a->address)
        k++;
      g_assert_cmpuint (k, <, n_spans);
      g_assert_cmpuint (spans[k].address, <=, a->address);
      g_assert_cmpuint (spans[k].end, >=, a->address + (guint64) TM_ALLOCATION_BYTES (a));
    }
}

/* A store of random points (the XProf JSON path pairs them itself), with
 * deallocations before any allocation too; its last time in *t_end. */
static TmAllocations *
random_allocations (GRand  *rand,
                    gint64 *t_end)
{
  g_autoptr(TmMemoryStore) store = tm_memory_store_new ("r", NULL);
  TmAllocations *allocs;
  g_autoptr(GError) error = NULL;
  guint64 addrs[64];
  gboolean live[64] = { FALSE };
  gint64 t = 0;

  for (guint i = 0; i < G_N_ELEMENTS (addrs); i++)
    addrs[i] = 4096 * (guint64) i + (i % 3) * 100;

  for (guint i = 0; i < 3000; i++)
    {
      TmActivity act = { 0 };
      guint k = g_rand_int_range (rand, 0, G_N_ELEMENTS (addrs));

      t += g_rand_int_range (rand, 0, 3);   /* ties too */
      act.kind = live[k] && g_rand_boolean (rand) ? TM_ACTIVITY_DEALLOCATION
                 : g_rand_int_range (rand, 0, 10) == 0 ? TM_ACTIVITY_DEALLOCATION : TM_ACTIVITY_ALLOCATION;
      live[k] = act.kind == TM_ACTIVITY_ALLOCATION;
      act.time_ps = t;
      act.address = addrs[k];
      act.allocation_bytes = g_rand_int_range (rand, 0, 4000);
      act.requested_bytes = act.allocation_bytes;
      act.op_name = g_strdup_printf ("op%u", k % 7);
      act.region_type = g_strdup ("");
      act.data_type = g_strdup ("float");
      act.shape = g_strdup ("");
      tm_memory_store_add_activity (store, &act);
    }
  g_assert_true (tm_memory_store_finish (store, NULL, &error));
  allocs = tm_allocations_new (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_allocations_get_n (allocs), >, 1000);
  *t_end = t;
  return allocs;
}

/* The rectangle query and picking against brute force. */
static void
test_query_brute_force (void)
{
  GRand *rand = g_rand_new_with_seed (42);
  gint64 t;
  g_autoptr(TmAllocations) allocs = random_allocations (rand, &t);

  for (guint q = 0; q < 500; q++)
    {
      gint64 t0 = g_rand_int_range (rand, -10, (gint32) t + 10);
      gint64 t1 = t0 + g_rand_int_range (rand, 0, q % 2 ? 5 : 2000);
      guint64 a0 = g_rand_int_range (rand, 0, 64 * 4096);
      guint64 a1 = a0 + g_rand_int_range (rand, 0, q % 3 ? 10 : 50000);
      g_autoptr(GArray) got = tm_allocations_query (allocs, t0, t1, a0, a1);
      g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (guint));
      guint best = TM_ALLOCATIONS_NONE;

      for (guint i = 0; i < tm_allocations_get_n (allocs); i++)
        {
          const TmAllocation *a = tm_allocations_get (allocs, i);
          guint64 end = a->address + MAX (TM_ALLOCATION_BYTES (a), 1);

          if (tm_allocations_get_start_time (allocs, i) <= t1 && tm_allocations_get_end_time (allocs, i) >= t0 &&
              a->address <= a1 && end > a0)
            {
              g_array_append_val (want, i);
              if (best == TM_ALLOCATIONS_NONE ||
                  TM_ALLOCATION_BYTES (a) >= TM_ALLOCATION_BYTES (tm_allocations_get (allocs, best)))
                best = i;
            }
        }
      g_assert_cmpuint (got->len, ==, want->len);
      for (guint i = 0; i < got->len; i++)
        g_assert_cmpuint (g_array_index (got, guint, i), ==, g_array_index (want, guint, i));
      g_assert_cmpuint (tm_allocations_pick (allocs, t0, t1, a0, a1), ==, best);
    }
  g_rand_free (rand);
}

/* A subset (the memory map's never-freed filter) holds the chosen
 * allocations on the parent's address axis, knows their parents' indices,
 * and its picking and picture see only them: against brute force over
 * the parent. */
static void
test_subset (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  gint64 t;
  g_autoptr(TmAllocations) allocs = random_allocations (rand, &t);
  g_autoptr(TmAllocations) sub = NULL;
  g_autoptr(TmAllocations) never = NULL;
  g_autoptr(GArray) chosen = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) never_freed = tm_allocations_query_never_freed (allocs);
  g_autofree guint32 *cells = g_new (guint32, 200 * 100);
  g_autofree gboolean *in = g_new0 (gboolean, tm_allocations_get_n (allocs));
  double len = (double) tm_allocations_get_axis_length (allocs);
  guint owned = 0;

  for (guint i = 0; i < tm_allocations_get_n (allocs); i++)
    if (g_rand_int_range (rand, 0, 3) == 0)
      {
        g_array_append_val (chosen, i);
        in[i] = TRUE;
      }
  /* Some of those from the profile's start are among them. */
  g_assert_true (in[0] || in[1] || in[2] || in[3]);
  sub = tm_allocations_new_subset (allocs, (guint *) chosen->data, chosen->len);

  g_assert_cmpuint (tm_allocations_get_n (sub), ==, chosen->len);
  g_assert_cmpuint (tm_allocations_get_axis_length (sub), ==, tm_allocations_get_axis_length (allocs));
  g_assert_cmpuint (tm_allocations_get_n_labels (sub), ==, tm_allocations_get_n_labels (allocs));
  for (guint i = 0; i < chosen->len; i++)
    {
      guint p = g_array_index (chosen, guint, i);

      g_assert_cmpuint (tm_allocations_get_parent_index (sub, i), ==, p);
      g_assert_cmpuint (tm_allocations_find_parent_index (sub, p), ==, i);
      g_assert_true (memcmp (tm_allocations_get (sub, i), tm_allocations_get (allocs, p), sizeof (TmAllocation)) == 0);
      g_assert_cmpint (tm_allocations_get_start_time (sub, i), ==, tm_allocations_get_start_time (allocs, p));
      g_assert_cmpint (tm_allocations_get_end_time (sub, i), ==, tm_allocations_get_end_time (allocs, p));
      g_assert_cmpuint (tm_allocations_get_event (sub, i), ==, tm_allocations_get_event (allocs, p));
    }
  for (guint p = 0; p < tm_allocations_get_n (allocs); p++)
    if (!in[p])
      g_assert_cmpuint (tm_allocations_find_parent_index (sub, p), ==, TM_ALLOCATIONS_NONE);

  for (guint q = 0; q < 300; q++)
    {
      gint64 t0 = g_rand_int_range (rand, -10, (gint32) t + 10);
      gint64 t1 = t0 + g_rand_int_range (rand, 0, q % 2 ? 5 : 2000);
      guint64 a0 = g_rand_int_range (rand, 0, 64 * 4096);
      guint64 a1 = a0 + g_rand_int_range (rand, 0, q % 3 ? 10 : 50000);
      g_autoptr(GArray) got = tm_allocations_query (sub, t0, t1, a0, a1);
      g_autoptr(GArray) all = tm_allocations_query (allocs, t0, t1, a0, a1);
      guint picked = tm_allocations_pick (sub, t0, t1, a0, a1);
      guint best = TM_ALLOCATIONS_NONE, k = 0;

      for (guint i = 0; i < all->len; i++)
        {
          guint p = g_array_index (all, guint, i);

          if (!in[p])
            continue;
          g_assert_cmpuint (k, <, got->len);
          g_assert_cmpuint (tm_allocations_get_parent_index (sub, g_array_index (got, guint, k++)), ==, p);
          if (best == TM_ALLOCATIONS_NONE ||
              TM_ALLOCATION_BYTES (tm_allocations_get (allocs, p)) >= TM_ALLOCATION_BYTES (tm_allocations_get (allocs, best)))
            best = p;
        }
      g_assert_cmpuint (k, ==, got->len);
      g_assert_cmpuint (picked == TM_ALLOCATIONS_NONE ? TM_ALLOCATIONS_NONE : tm_allocations_get_parent_index (sub, picked), ==, best);
    }

  /* The picture: every pixel is one of the subset's. */
  tm_alloc_raster_render (sub, 0, t, 0, len, 200, 100, cells);
  for (guint p = 0; p < 200 * 100; p++)
    if (cells[p] != TM_ALLOCATIONS_NONE)
      {
        g_assert_cmpuint (cells[p], <, chosen->len);
        owned++;
      }
  g_assert_cmpuint (owned, >, 0);

  /* Those never freed: all of the subset is. */
  never = tm_allocations_new_subset (allocs, (guint *) never_freed->data, never_freed->len);
  g_assert_cmpuint (tm_allocations_get_n_never_freed (never), ==, never_freed->len);
  g_assert_cmpint (tm_allocations_get_never_freed_bytes (never), ==, tm_allocations_get_never_freed_bytes (allocs));
  g_assert_cmpuint (tm_allocations_get_n_never_freed (sub), <=, tm_allocations_get_n_never_freed (allocs));
  g_rand_free (rand);
}

/* Per-pixel aggregation: a one-byte allocation among large ones still owns
 * a pixel, and each allocation is drawn where its time and address are. */
static void
test_render (void)
{
  static const Ev evs[] = {
    { TRUE,  0,  0, 1000000, 0,       "big" },
    { TRUE,  50, 0, 1,       2000000, "tiny" },
    { FALSE, 100, 0, 1000000, 0,      NULL },
  };
  g_autoptr(TmProfile) profile = load_events (evs, G_N_ELEMENTS (evs));
  TmAllocations *allocs = tm_profile_lookup_allocations (profile, tm_profile_get_memory_store (profile, 0));
  g_autofree guint32 *cells = g_new (guint32, 100 * 100);
  double len = (double) tm_allocations_get_axis_length (allocs);
  guint big = 0, tiny = 0;

  g_assert_cmpuint (tm_alloc_raster_render (allocs, 0, 100, 0, len, 100, 100, cells), ==, 2);
  for (guint p = 0; p < 100 * 100; p++)
    {
      big += cells[p] == 0;
      tiny += cells[p] == 1;
    }
  g_assert_cmpuint (tiny, >=, 1);
  g_assert_cmpuint (big, >, 100 * 100 / 3);
  /* "big" covers the bottom left, from time 0 at address offset 0. */
  g_assert_cmpuint (cells[99 * 100 + 0], ==, 0);
  /* "tiny" is at the top (the last address), from time 50 on. */
  g_assert_cmpuint (cells[0 * 100 + 50], ==, 1);
  g_assert_cmpuint (cells[0 * 100 + 40], ==, TM_ALLOCATIONS_NONE);
}

/* The real GPU profile: an allocation per allocation event (plus those
 * made before the profile), and the never-freed bytes account for the heap
 * at the end. */
static void
test_real_gpu (void)
{
  g_autofree char *path = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  guint checked = 0;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }
  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  for (guint m = 0; m < tm_profile_get_n_memory_ids (profile); m++)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (profile, m);
      const TmSummary *s = tm_memory_store_get_summary (store);
      TmAllocations *allocs = tm_profile_lookup_allocations (profile, store);
      guint n = tm_memory_store_get_n_snapshots (store);
      const gint64 *heap = tm_memory_store_get_heap (store);
      guint from_events = 0, open_start = 0;
      gint64 open_start_bytes = 0, heap_before, first_bytes;
      guint64 first_addr;
      gsize label_bytes;

      g_assert_nonnull (allocs);
      for (guint i = 0; i < tm_allocations_get_n (allocs); i++)
        {
          const TmAllocation *a = tm_allocations_get (allocs, i);

          if (a->start != TM_ALLOCATIONS_OPEN)
            from_events++;
          else
            {
              open_start++;
              open_start_bytes += TM_ALLOCATION_BYTES (a);
            }
        }
      g_assert_cmpuint (from_events, ==, s->n_allocations);
      g_assert_cmpuint (tm_allocations_get_n (allocs), ==, s->n_allocations + open_start);
      /* 24 bytes per allocation; beyond that only the label table (its
       * strings and three pointers each) and a little fixed overhead. */
      label_bytes = 0;
      for (guint l = 0; l < tm_allocations_get_n_labels (allocs); l++)
        {
          const TmAllocationLabel *label = tm_allocations_get_label (allocs, l);

          label_bytes += strlen (label->op_name) + strlen (label->region_type) + strlen (label->data_type) + 3 +
                         sizeof (TmAllocationLabel);
        }
      g_assert_cmpuint (tm_allocations_get_memory_size (allocs), <=,
                        24 * (gsize) tm_allocations_get_n (allocs) + label_bytes + 4096);

      /* The heap before the first event is memory allocated before the
       * profile. Of it, the allocations freed in the profile are the open
       * starts; the rest stays. So the heap at the end is exactly the
       * never-freed bytes plus what was allocated before and never freed:
       *   heap[last] = never_freed + heap_before − open_start_bytes. */
      g_assert_true (tm_memory_store_get_event_sizes (store, 0, &first_addr, &first_bytes, &error));
      heap_before = heap[0] - (tm_memory_store_get_kind (store, 0) == TM_ACTIVITY_ALLOCATION ? first_bytes : -first_bytes);
      g_assert_cmpint (heap[n - 1], ==,
                       tm_allocations_get_never_freed_bytes (allocs) + heap_before - open_start_bytes);
      g_assert_cmpint (heap_before - open_start_bytes, >=, 0);
      g_test_message ("%s: %u allocations (%u from before), never freed %u = %" G_GINT64_FORMAT
                      " bytes, heap at end %" G_GINT64_FORMAT,
                      tm_memory_store_get_id (store), tm_allocations_get_n (allocs), open_start,
                      tm_allocations_get_n_never_freed (allocs),
                      tm_allocations_get_never_freed_bytes (allocs), heap[n - 1]);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 3);
  g_assert_nonnull (tm_profile_lookup_memory_store (profile, "GPU_4_bfc"));
  g_assert_nonnull (tm_profile_lookup_memory_store (profile, "GPU_6_bfc"));
}

/* The per-pixel rule, pixel by pixel: an allocation touches the pixels
 * from the floor of its left (top) edge to the ceiling of its right
 * (bottom) edge less one, at least one, clamped to the frame. */
static void
brute_extent (double  f0,
              double  f1,
              gint    n,
              gint   *p0,
              gint   *p1)
{
  gint a = f0 <= 0 ? 0 : f0 >= n ? n - 1 : (gint) floor (f0);
  gint b = f1 <= 0 ? 0 : f1 >= n ? n - 1 : (gint) ceil (f1) - 1;

  *p0 = a;
  *p1 = MAX (a, b);
}

static guint
bit_length (gint64 bytes)
{
  guint k = 0;

  for (; bytes > 0; bytes >>= 1)
    k++;
  return k;
}

static void
brute_render (TmAllocations *allocs,
              gint64         t0,
              gint64         t1,
              double         y0,
              double         y1,
              gint           w,
              gint           h,
              guint32       *cells)
{
  g_autofree guint *rank = g_new0 (guint, (gsize) w * h);
  double sx = w / (double) (t1 - t0), sy = h / (y1 - y0);

  for (gsize p = 0; p < (gsize) w * h; p++)
    cells[p] = TM_ALLOCATIONS_NONE;
  for (guint i = 0; i < tm_allocations_get_n (allocs); i++)
    {
      const TmAllocation *a = tm_allocations_get (allocs, i);
      gint64 ts = tm_allocations_get_start_time (allocs, i), te = tm_allocations_get_end_time (allocs, i);
      double ya = tm_allocations_address_to_axis (allocs, a->address);
      double yb = ya + MAX (TM_ALLOCATION_BYTES (a), 1);
      guint rk = bit_length (TM_ALLOCATION_BYTES (a)) + 1;
      gint x0, x1, r0, r1;

      if (te < t0 || ts > t1 || yb < y0 || ya > y1)
        continue;
      brute_extent ((ts - t0) * sx, (te - t0) * sx, w, &x0, &x1);
      brute_extent ((y1 - yb) * sy, (y1 - ya) * sy, h, &r0, &r1);
      for (gint r = r0; r <= r1; r++)
        for (gint x = x0; x <= x1; x++)
          if (rk >= rank[(gsize) r * w + x])
            {
              rank[(gsize) r * w + x] = rk;
              cells[(gsize) r * w + x] = i;
            }
    }
}

/* The frame, drawn in bands of columns and over many allocations by two
 * threads, equals the per-pixel rule applied allocation by allocation, on
 * random data: whole range and zooms, frames of one band and of many, and
 * address ranges cut by breaks. */
static void
test_render_brute_force (void)
{
  g_autoptr(TmMemoryStore) store = tm_memory_store_new ("r", NULL);
  g_autoptr(TmAllocations) allocs = NULL;
  g_autoptr(GError) error = NULL;
  GRand *rand = g_rand_new_with_seed (7);
  guint64 addrs[400];
  gboolean live[400] = { FALSE };
  gint64 t = 0;
  double len;
  struct { double f0, f1, a0, a1; gint w, h; } views[] = {
    { 0, 1, 0, 1, 301, 200 },       /* everything, one band */
    { 0, 1, 0, 1, 97, 3000 },       /* everything, many narrow bands */
    { 0.4, 0.45, 0, 1, 500, 700 },
    { 0.3, 0.3001, 0.2, 0.6, 211, 1500 },
    { -0.1, 1.2, 0.45, 0.55, 640, 400 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (addrs); i++)
    addrs[i] = (i < 350 ? 0 : G_GUINT64_CONSTANT (1) << 36) + 65536 * (guint64) i + (i % 5) * 100;

  for (guint i = 0; i < 140000; i++)
    {
      TmActivity act = { 0 };
      guint k = g_rand_int_range (rand, 0, G_N_ELEMENTS (addrs));

      t += g_rand_int_range (rand, 0, 4);   /* ties too */
      act.kind = live[k] && g_rand_int_range (rand, 0, 3) > 0 ? TM_ACTIVITY_DEALLOCATION
                 : g_rand_int_range (rand, 0, 20) == 0 ? TM_ACTIVITY_DEALLOCATION : TM_ACTIVITY_ALLOCATION;
      live[k] = act.kind == TM_ACTIVITY_ALLOCATION;
      act.time_ps = t;
      act.address = addrs[k];
      act.allocation_bytes = g_rand_int_range (rand, 0, 3) == 0 ? g_rand_int_range (rand, 0, 60000)
                                                                  : g_rand_int_range (rand, 0, 300);
      act.requested_bytes = act.allocation_bytes;
      act.op_name = g_strdup ("op");
      act.region_type = g_strdup ("");
      act.data_type = g_strdup ("");
      act.shape = g_strdup ("");
      tm_memory_store_add_activity (store, &act);
    }
  g_assert_true (tm_memory_store_finish (store, NULL, &error));
  allocs = tm_allocations_new (store, NULL, &error);
  g_assert_no_error (error);
  /* Enough for two threads over the whole range. */
  g_assert_cmpuint (tm_allocations_get_n (allocs), >, 60000);
  len = (double) tm_allocations_get_axis_length (allocs);

  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      gint w = views[v].w, h = views[v].h;
      gint64 t0 = (gint64) (views[v].f0 * t), t1 = (gint64) (views[v].f1 * t) + 1;
      g_autofree guint32 *got = g_new (guint32, (gsize) w * h);
      g_autofree guint32 *want = g_new (guint32, (gsize) w * h);
      guint differ = 0, owned = 0;

      tm_alloc_raster_render (allocs, t0, t1, views[v].a0 * len, views[v].a1 * len, w, h, got);
      brute_render (allocs, t0, t1, views[v].a0 * len, views[v].a1 * len, w, h, want);
      for (gsize p = 0; p < (gsize) w * h; p++)
        {
          differ += got[p] != want[p];
          owned += want[p] != TM_ALLOCATIONS_NONE;
        }
      g_assert_cmpuint (differ, ==, 0);
      g_assert_cmpuint (owned, >, 0);
    }
  g_rand_free (rand);
}

static int
compare_rect_x0 (gconstpointer a,
                 gconstpointer b)
{
  double x = ((const TmRasterRect *) a)->x0, y = ((const TmRasterRect *) b)->x0;

  return x < y ? -1 : x > y;
}

/* What the painter over rectangles tells of its bands: each column once,
 * already final. */
typedef struct
{
  const guint32 *want;
  guint8        *told;       /* per column */
  gint           wrong;      /* pixels not final when told (atomic) */
} ColumnsSeen;

static void
columns_seen (guint          x0,
              guint          n_columns,
              const guint32 *cells,
              guint          width,
              guint          height,
              gpointer       user_data)
{
  ColumnsSeen *seen = user_data;
  gint wrong = 0;

  for (guint x = x0; x < x0 + n_columns; x++)
    {
      seen->told[x]++;
      for (guint r = 0; r < height; r++)
        wrong += cells[(gsize) r * width + x] != seen->want[(gsize) r * width + x];
    }
  g_atomic_int_add (&seen->wrong, wrong);
}

/* The same painter over a plain list of rectangles (the Memory Viewer's
 * allocation chart): the same per-pixel rule as brute force, with one
 * thread and with two (the list is long enough), zoomed and not; each
 * band told once it is final; an empty list gives an empty frame. */
static void
test_render_rects_brute_force (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (TmRasterRect));
  struct { double x0, x1, y0, y1; gint w, h; } views[] = {
    { 0, 5000, 0, 1 << 24, 301, 200 },
    { 0, 5000, 0, 1 << 24, 1920, 600 },
    { 1200.5, 1300, 1 << 20, 1 << 22, 333, 777 },
    { -10, 40, 0, 1 << 24, 97, 1500 },
  };

  for (guint i = 0; i < 70000; i++)
    {
      TmRasterRect r;
      double start = g_rand_int_range (rand, 0, 5000);

      r.x0 = start;
      r.x1 = start + g_rand_int_range (rand, 1, g_rand_int_range (rand, 0, 8) == 0 ? 2000 : 20);
      r.y0 = g_rand_int_range (rand, 0, 1 << 24);
      r.bytes = g_rand_int_range (rand, 0, 3) == 0 ? g_rand_int_range (rand, 1, 1 << 20) : g_rand_int_range (rand, 0, 4096);
      r.y1 = r.y0 + MAX (r.bytes, 1);
      g_array_append_val (rects, r);
    }
  g_array_sort (rects, compare_rect_x0);

  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      gint w = views[v].w, h = views[v].h;
      double sx = w / (views[v].x1 - views[v].x0), sy = h / (views[v].y1 - views[v].y0);
      g_autofree guint32 *got = g_new (guint32, (gsize) w * h);
      g_autofree guint32 *want = g_new (guint32, (gsize) w * h);
      g_autofree guint *rank = g_new0 (guint, (gsize) w * h);
      guint differ = 0, owned = 0, in_view = 0;

      for (gsize p = 0; p < (gsize) w * h; p++)
        want[p] = TM_ALLOCATIONS_NONE;
      for (guint i = 0; i < rects->len; i++)
        {
          const TmRasterRect *r = &g_array_index (rects, TmRasterRect, i);
          guint rk = bit_length ((gint64) r->bytes) + 1;
          gint x0, x1, r0, r1;

          if (r->x1 < views[v].x0 || r->x0 > views[v].x1 || r->y1 < views[v].y0 || r->y0 > views[v].y1)
            continue;
          in_view++;
          brute_extent ((r->x0 - views[v].x0) * sx, (r->x1 - views[v].x0) * sx, w, &x0, &x1);
          brute_extent ((views[v].y1 - r->y1) * sy, (views[v].y1 - r->y0) * sy, h, &r0, &r1);
          for (gint row = r0; row <= r1; row++)
            for (gint x = x0; x <= x1; x++)
              if (rk >= rank[(gsize) row * w + x])
                {
                  rank[(gsize) row * w + x] = rk;
                  want[(gsize) row * w + x] = i;
                }
        }

      g_assert_cmpuint (tm_alloc_raster_render_rects ((const TmRasterRect *) (gpointer) rects->data, rects->len,
                                                      views[v].x0, views[v].x1, views[v].y0, views[v].y1,
                                                      w, h, got, NULL, NULL), ==, in_view);
      for (gsize p = 0; p < (gsize) w * h; p++)
        {
          differ += got[p] != want[p];
          owned += want[p] != TM_ALLOCATIONS_NONE;
        }
      g_assert_cmpuint (differ, ==, 0);
      g_assert_cmpuint (owned, >, 0);

      {
        g_autofree guint8 *told = g_new0 (guint8, w);
        ColumnsSeen seen = { want, told, 0 };

        memset (got, 0, (gsize) w * h * sizeof (guint32));
        tm_alloc_raster_render_rects ((const TmRasterRect *) (gpointer) rects->data, rects->len,
                                      views[v].x0, views[v].x1, views[v].y0, views[v].y1,
                                      w, h, got, columns_seen, &seen);
        g_assert_cmpint (seen.wrong, ==, 0);
        for (gint x = 0; x < w; x++)
          g_assert_cmpuint (told[x], ==, 1);
      }
    }

  {
    guint32 cells[6 * 4];

    memset (cells, 0, sizeof cells);
    g_assert_cmpuint (tm_alloc_raster_render_rects (NULL, 0, 0, 10, 0, 10, 6, 4, cells, NULL, NULL), ==, 0);
    for (guint p = 0; p < G_N_ELEMENTS (cells); p++)
      g_assert_cmphex (cells[p], ==, TM_ALLOCATIONS_NONE);
  }
  g_rand_free (rand);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/allocations/pairing", test_pairing);
  g_test_add_func ("/allocations/partners-of-a-replaced-allocation", test_partners_replaced);
  g_test_add_func ("/allocations/lookup-async", test_lookup_async);
  g_test_add_func ("/allocations/csv", test_csv);
  g_test_add_func ("/allocations/spans", test_spans);
  g_test_add_func ("/allocations/spans-many", test_spans_many);
  g_test_add_func ("/allocations/query-brute-force", test_query_brute_force);
  g_test_add_func ("/allocations/subset", test_subset);
  g_test_add_func ("/allocations/render", test_render);
  g_test_add_func ("/allocations/render-brute-force", test_render_brute_force);
  g_test_add_func ("/allocations/render-rects-brute-force", test_render_rects_brute_force);
  g_test_add_func ("/allocations/real-gpu", test_real_gpu);

  return g_test_run ();
}
