/* tm-column.c — the columns of a memory store: arrays that grow, move and sort cheaply
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE  /* mremap */
#include "config.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tm-column.h"

#define CANCEL_CHECK_INTERVAL 65536

static gsize
page_bytes (void)
{
  static gsize page = 0;

  if (g_once_init_enter (&page))
    g_once_init_leave (&page, (gsize) sysconf (_SC_PAGESIZE));
  return page;
}

/* The mapping of a column of count elements of es bytes: whole pages, at
 * least one. */
static inline gsize
column_bytes (gsize count,
              gsize es)
{
  gsize page = page_bytes ();

  return (MAX (count, 1) * es + page - 1) / page * page;
}

static gpointer
map_bytes (gsize bytes)
{
  void *p = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  /* As g_malloc() does when memory runs out. */
  if (p == MAP_FAILED)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, bytes);
  return p;
}

static gpointer
remap_bytes (gpointer p,
             gsize    old_bytes,
             gsize    new_bytes)
{
  void *q;

  if (p == NULL)
    return map_bytes (new_bytes);
  if (old_bytes == new_bytes)
    return p;
  q = mremap (p, old_bytes, new_bytes, MREMAP_MAYMOVE);
  if (q == MAP_FAILED)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, new_bytes);
  return q;
}

gpointer
tm_column_new (gsize count,
               gsize es)
{
  return map_bytes (column_bytes (count, es));
}

gpointer
tm_column_resize (gpointer column,
                  gsize    old_count,
                  gsize    new_count,
                  gsize    es)
{
  return remap_bytes (column, column_bytes (old_count, es), column_bytes (new_count, es));
}

void
tm_column_free (gpointer column,
                gsize    count,
                gsize    es)
{
  if (column != NULL)
    munmap (column, column_bytes (count, es));
}

/* Where an appended column lands: the first element after a's na at which
 * columns of 4 and 8 bytes alike start a page. */
static guint
append_offset (guint na)
{
  guint align = (guint) (page_bytes () / sizeof (guint32));

  return (na + align - 1) / align * align;
}

guint
tm_column_append_capacity (guint n,
                           guint a_count,
                           guint b_count)
{
  guint64 capacity = MAX ((guint64) append_offset (n) + MAX (b_count, 1), a_count);

  return capacity > G_MAXUINT ? G_MAXUINT : (guint) capacity;
}

gpointer
tm_column_append (gpointer a,
                  guint    na,
                  guint    a_count,
                  gpointer b,
                  guint    nb,
                  guint    b_count,
                  gsize    es)
{
  gsize off = (gsize) append_offset (na) * es;
  gsize b_bytes = column_bytes (b_count, es);
  guint8 *moved;

  /* b's pages go to a page boundary at or after a's end; then its
   * elements slide down onto a's end, within pages already there. a is
   * never made smaller: the room made for more appends stays. */
  if (a == NULL || off + b_bytes > column_bytes (a_count, es))
    a = remap_bytes (a, column_bytes (a_count, es), off + b_bytes);
  moved = (guint8 *) a + off;
  if (mremap (b, b_bytes, b_bytes, MREMAP_MAYMOVE | MREMAP_FIXED, moved) == MAP_FAILED)
    {
      memcpy ((guint8 *) a + (gsize) na * es, b, (gsize) nb * es);
      munmap (b, b_bytes);
      return a;
    }
  memmove ((guint8 *) a + (gsize) na * es, moved, (gsize) nb * es);
  return a;
}

typedef struct
{
  guint pos;   /* next index of the run */
  guint end;   /* one past its last index */
} Run;

guint32 *
tm_column_sort_permutation (const gint64  *times,
                            guint          n,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (Run));
  guint32 *perm = g_new (guint32, n);
  guint *heap;
  guint n_heap;
  Run *r;
  guint out = 0;

  {
    Run run = { 0, 0 };

    for (guint i = 1; i <= n; i++)
      if (i == n || times[i] < times[i - 1])
        {
          run.end = i;
          g_array_append_val (runs, run);
          run.pos = i;
        }
  }

  r = (Run *) (gpointer) runs->data;
  heap = g_new (guint, runs->len);
  n_heap = 0;

#define RUN_LESS(a, b) (times[r[a].pos] < times[r[b].pos] || \
                        (times[r[a].pos] == times[r[b].pos] && (a) < (b)))

  for (guint i = 0; i < runs->len; i++)
    {
      guint k = n_heap++;

      heap[k] = i;
      while (k > 0 && RUN_LESS (heap[k], heap[(k - 1) / 2]))
        {
          guint t = heap[k];
          heap[k] = heap[(k - 1) / 2];
          heap[(k - 1) / 2] = t;
          k = (k - 1) / 2;
        }
    }

  while (n_heap > 0)
    {
      guint top = heap[0];
      guint k = 0;

      if ((out % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          g_free (heap);
          g_free (perm);
          return NULL;
        }

      perm[out++] = r[top].pos++;
      if (r[top].pos == r[top].end)
        heap[0] = heap[--n_heap];

      for (;;)
        {
          guint l = 2 * k + 1, rr = l + 1, m = k;

          if (l < n_heap && RUN_LESS (heap[l], heap[m]))
            m = l;
          if (rr < n_heap && RUN_LESS (heap[rr], heap[m]))
            m = rr;
          if (m == k)
            break;
          {
            guint t = heap[k];
            heap[k] = heap[m];
            heap[m] = t;
          }
          k = m;
        }
    }

#undef RUN_LESS

  g_free (heap);
  g_assert (out == n);
  return perm;
}

