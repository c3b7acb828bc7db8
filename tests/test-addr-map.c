/* test-addr-map.c — the address → snapshot index map against a GHashTable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-addr-map.h"

static void
test_basic (void)
{
  g_autoptr(TmAddrMap) map = tm_addr_map_new ();
  guint32 value = 0;

  g_assert_false (tm_addr_map_lookup (map, 0, &value));
  g_assert_false (tm_addr_map_remove (map, 0, &value));

  /* Address 0 and the largest address are ordinary keys. */
  tm_addr_map_insert (map, 0, 7);
  tm_addr_map_insert (map, G_MAXUINT64, 8);
  g_assert_true (tm_addr_map_lookup (map, 0, &value));
  g_assert_cmpuint (value, ==, 7);
  g_assert_true (tm_addr_map_lookup (map, G_MAXUINT64, &value));
  g_assert_cmpuint (value, ==, 8);

  /* Inserting again replaces. */
  tm_addr_map_insert (map, 0, 9);
  g_assert_true (tm_addr_map_lookup (map, 0, &value));
  g_assert_cmpuint (value, ==, 9);

  g_assert_true (tm_addr_map_remove (map, 0, &value));
  g_assert_cmpuint (value, ==, 9);
  g_assert_false (tm_addr_map_lookup (map, 0, &value));
  g_assert_true (tm_addr_map_lookup (map, G_MAXUINT64, &value));
}

/* Many keys that collide in the low bits (addresses of one allocator are
 * aligned), inserted, exchanged (insert or replace, returning the old
 * value) and removed at random: the map agrees with
 * a hash table after every step, and the walk visits each entry once. */
static void
test_random (void)
{
  g_autoptr(TmAddrMap) map = tm_addr_map_new ();
  g_autoptr(GHashTable) want = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  guint64 addr, got_addr;
  guint32 value, got;
  gsize pos = 0;
  guint n = 0;

  for (guint i = 0; i < 200000; i++)
    {
      gpointer found;
      gboolean present;

      addr = G_GUINT64_CONSTANT (0x7f0000000000) + ((guint64) g_rand_int_range (rand, 0, 20000) << 8);
      present = g_hash_table_lookup_extended (want, &addr, NULL, &found);

      if (g_rand_int_range (rand, 0, 3) == 0)
        {
          g_assert_cmpint (tm_addr_map_remove (map, addr, &got), ==, present);
          if (present)
            {
              g_assert_cmpuint (got, ==, GPOINTER_TO_UINT (found));
              g_hash_table_remove (want, &addr);
            }
        }
      else
        {
          value = i;
          if (i % 2 == 0)
            tm_addr_map_insert (map, addr, value);
          else
            {
              guint32 old = G_MAXUINT32;

              g_assert_cmpint (tm_addr_map_exchange (map, addr, value, &old), ==, present);
              if (present)
                g_assert_cmpuint (old, ==, GPOINTER_TO_UINT (found));
              else
                g_assert_cmpuint (old, ==, G_MAXUINT32);
            }
          g_hash_table_replace (want, g_memdup2 (&addr, sizeof addr), GUINT_TO_POINTER (value));
        }

      g_assert_cmpint (tm_addr_map_lookup (map, addr, &got), ==, g_hash_table_contains (want, &addr));
    }

  while (tm_addr_map_iter_next (map, &pos, &got_addr, &got))
    {
      gpointer found;

      g_assert_true (g_hash_table_lookup_extended (want, &got_addr, NULL, &found));
      g_assert_cmpuint (got, ==, GPOINTER_TO_UINT (found));
      n++;
    }
  g_assert_cmpuint (n, ==, g_hash_table_size (want));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/addr-map/basic", test_basic);
  g_test_add_func ("/addr-map/random", test_random);

  return g_test_run ();
}
