/* test-column.c — the columns of a memory store
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "tm-column.h"

/* A column filled with first, first + 1, … */
static gpointer
filled (guint   n,
        guint   count,
        gsize   es,
        guint64 first)
{
  guint8 *column = tm_column_new (count, es);

  for (guint i = 0; i < n; i++)
    {
      guint64 v = first + i;

      memcpy (column + (gsize) i * es, &v, es);  /* little-endian: the low bytes */
    }
  return column;
}

static void
check_sequence (const guint8 *column,
                guint         from,
                guint         to,
                gsize         es,
                guint64       first)
{
  for (guint i = from; i < to; i++)
    {
      guint64 v = 0;

      memcpy (&v, column + (gsize) i * es, es);
      g_assert_cmpuint (v, ==, (first + i - from) & (es == 8 ? G_MAXUINT64 : G_MAXUINT32));
    }
}

/* Appending moves the later column's pages after the earlier's elements,
 * whatever their counts and room: below, at and past a page boundary, for
 * 4- and 8-byte elements, and onto an empty column. */
static void
test_append (void)
{
  guint page_elements = (guint) (sysconf (_SC_PAGESIZE) / sizeof (guint32));
  const guint counts[] = { 0, 1, 3, page_elements - 1, page_elements, page_elements + 1, 3 * page_elements + 7 };
  const gsize sizes[] = { 4, 8 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
      for (guint j = 1; j < G_N_ELEMENTS (counts); j++)
        {
          gsize es = sizes[s];
          guint na = counts[i], nb = counts[j];
          guint a_room = na * 2 + 5, b_room = nb + 11;
          gpointer a = na > 0 ? filled (na, a_room, es, 1000) : NULL;
          gpointer b = filled (nb, b_room, es, 5000000);
          guint room = tm_column_append_capacity (na, a_room, b_room);
          guint8 *joined = tm_column_append (a, na, a_room, b, nb, b_room, es);

          g_assert_cmpuint (room, >=, na + nb);
          check_sequence (joined, 0, na, es, 1000);
          check_sequence (joined, na, na + nb, es, 5000000);
          /* The whole room is writable. */
          memset (joined + (gsize) (na + nb) * es, 0xab, (gsize) (room - na - nb) * es);
          tm_column_free (joined, room, es);
        }
}

/* Several columns appended in turn to one whose room was made for all of
 * them first, as the reader's parts of one memory id are: once one
 * column's pages are moved in, the column is two mappings and cannot be
 * remapped to another size, so no append may shrink or grow it. */
static void
test_append_several (void)
{
  guint page_elements = (guint) (sysconf (_SC_PAGESIZE) / sizeof (guint32));
  const guint counts[] = { 3 * page_elements + 7, 5, page_elements, 2 * page_elements + 1, 9 };
  const gsize sizes[] = { 4, 8 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      gsize es = sizes[s];
      guint na = 100, room = 100, n = na;
      guint8 *a = filled (na, room, es, 0);

      for (guint k = 0; k < G_N_ELEMENTS (counts); k++)
        room = tm_column_append_capacity (n, room, counts[k] + 3), n += counts[k];
      a = tm_column_resize (a, 100, room, es);

      n = na;
      for (guint k = 0; k < G_N_ELEMENTS (counts); k++)
        {
          gpointer b = filled (counts[k], counts[k] + 3, es, n);

          g_assert_cmpuint (tm_column_append_capacity (n, room, counts[k] + 3), ==, room);
          a = tm_column_append (a, n, room, b, counts[k], counts[k] + 3, es);
          n += counts[k];
          check_sequence (a, 0, n, es, 0);
        }
      memset (a + (gsize) n * es, 0xab, (gsize) (room - n) * es);
      tm_column_free (a, room, es);
    }
}

/* Growing and shrinking keep the first elements; new room reads zero. */
static void
test_resize (void)
{
  guint8 *column = filled (100, 100, 8, 7);

  column = tm_column_resize (column, 100, 100000, 8);
  check_sequence (column, 0, 100, 8, 7);
  for (guint i = 100; i < 100000; i++)
    g_assert_cmpuint (((guint64 *) column)[i], ==, 0);
  column = tm_column_resize (column, 100000, 50, 8);
  check_sequence (column, 0, 50, 8, 7);
  tm_column_free (column, 50, 8);

  column = tm_column_resize (NULL, 0, 10, 4);
  g_assert_cmpuint (((guint32 *) column)[9], ==, 0);
  tm_column_free (column, 10, 4);
}

/* Runs in time order merge into a stable permutation: equal times keep
 * the order of their runs, which is file order. */
static void
test_sort_permutation (void)
{
  static const gint64 times[] = { 10, 20, 30,  5, 20, 40,  1, 20 };
  static const guint32 expected[] = { 6, 3, 0, 1, 4, 7, 2, 5 };
  g_autoptr(GError) error = NULL;
  g_autofree guint32 *perm = tm_column_sort_permutation (times, G_N_ELEMENTS (times), NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (perm);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpuint (perm[i], ==, expected[i]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/column/append", test_append);
  g_test_add_func ("/column/append-several", test_append_several);
  g_test_add_func ("/column/resize", test_resize);
  g_test_add_func ("/column/sort-permutation", test_sort_permutation);

  return g_test_run ();
}
