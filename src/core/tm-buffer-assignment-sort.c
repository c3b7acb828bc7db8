/* tm-buffer-assignment-sort.c — the orders of the objects at the peak
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * XProf orders the objects live at the peak by size with libstdc++'s
 * std::sort, which is not stable beyond 16 elements: objects of equal size
 * come out in the order that algorithm leaves them, so it is reproduced
 * step by step here (introsort with a median of three, heap sort past the
 * depth limit, then insertion sort). The by-padding order is the page's:
 * a stable sort by size, then a stable sort by padding.
 */
#include "config.h"

#include <string.h>

#include "tm-buffer-assignment-private.h"

typedef struct
{
  guint              *v;
  const TmHeapObject *objects;
} Sorter;

static inline gboolean
bigger (const Sorter *s,
        guint         a,
        guint         b)
{
  return s->objects[a].size > s->objects[b].size;
}

static void
adjust_heap (const Sorter *s,
             guint        *first,
             gssize        hole,
             gssize        len,
             guint         value)
{
  gssize top = hole, child = hole, parent;

  while (child < (len - 1) / 2)
    {
      child = 2 * (child + 1);
      if (bigger (s, first[child], first[child - 1]))
        child--;
      first[hole] = first[child];
      hole = child;
    }
  if ((len & 1) == 0 && child == (len - 2) / 2)
    {
      child = 2 * (child + 1);
      first[hole] = first[child - 1];
      hole = child - 1;
    }
  parent = (hole - 1) / 2;
  while (hole > top && bigger (s, first[parent], value))
    {
      first[hole] = first[parent];
      hole = parent;
      parent = (hole - 1) / 2;
    }
  first[hole] = value;
}

static void
heap_sort (const Sorter *s,
           guint        *first,
           guint        *last)
{
  gssize len = last - first;

  if (len >= 2)
    for (gssize parent = (len - 2) / 2; ; parent--)
      {
        adjust_heap (s, first, parent, len, first[parent]);
        if (parent == 0)
          break;
      }
  while (last - first > 1)
    {
      guint value;

      last--;
      value = *last;
      *last = *first;
      adjust_heap (s, first, 0, last - first, value);
    }
}

static void
swap (guint *a,
      guint *b)
{
  guint t = *a;

  *a = *b;
  *b = t;
}

static void
introsort_loop (const Sorter *s,
                guint        *first,
                guint        *last,
                gint          depth)
{
  while (last - first > 16)
    {
      guint *a, *b, *c, *lo, *hi;

      if (depth == 0)
        {
          heap_sort (s, first, last);
          return;
        }
      depth--;
      /* The median of the second, middle and last to the front. */
      a = first + 1;
      b = first + (last - first) / 2;
      c = last - 1;
      if (bigger (s, *a, *b))
        {
          if (bigger (s, *b, *c))
            swap (first, b);
          else if (bigger (s, *a, *c))
            swap (first, c);
          else
            swap (first, a);
        }
      else if (bigger (s, *a, *c))
        swap (first, a);
      else if (bigger (s, *b, *c))
        swap (first, c);
      else
        swap (first, b);
      lo = first + 1;
      hi = last;
      for (;;)
        {
          while (bigger (s, *lo, *first))
            lo++;
          hi--;
          while (bigger (s, *first, *hi))
            hi--;
          if (!(lo < hi))
            break;
          swap (lo, hi);
          lo++;
        }
      introsort_loop (s, lo, last, depth);
      last = lo;
    }
}

static void
linear_insert (const Sorter *s,
               guint        *at)
{
  guint value = *at;

  while (bigger (s, value, at[-1]))
    {
      *at = at[-1];
      at--;
    }
  *at = value;
}

static void
insertion_sort (const Sorter *s,
                guint        *first,
                guint        *last)
{
  if (first == last)
    return;
  for (guint *i = first + 1; i != last; i++)
    {
      if (bigger (s, *i, *first))
        {
          guint value = *i;

          memmove (first + 1, first, (gsize) (i - first) * sizeof (guint));
          *first = value;
        }
      else
        linear_insert (s, i);
    }
}

static void
std_sort (const Sorter *s,
          guint        *first,
          guint        *last)
{
  gsize n = (gsize) (last - first);
  gint lg = 0;

  if (n == 0)
    return;
  while ((n >> (lg + 1)) != 0)
    lg++;
  introsort_loop (s, first, last, 2 * lg);
  if (n > 16)
    {
      insertion_sort (s, first, first + 16);
      for (guint *i = first + 16; i != last; i++)
        linear_insert (s, i);
    }
  else
    insertion_sort (s, first, last);
}

static gint64
padding_of (const TmHeapObject *o)
{
  /* In unsigned arithmetic: sizes from the file may be anything. */
  return o->size != 0 && o->unpadded_size != 0 ? (gint64) ((guint64) o->size - (guint64) o->unpadded_size) : 0;
}

static gint
by_size_stable (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  const TmHeapObject *objects = data;
  gint64 x = objects[*(const guint *) a].size, y = objects[*(const guint *) b].size;

  return x > y ? -1 : x < y;
}

static gint
by_padding_stable (gconstpointer a,
                   gconstpointer b,
                   gpointer      data)
{
  const TmHeapObject *objects = data;
  gint64 x = padding_of (&objects[*(const guint *) a]), y = padding_of (&objects[*(const guint *) b]);

  return x > y ? -1 : x < y;
}

void
tm_buffer_assignment_sort_orders (TmBufferAssignment *r)
{
  Sorter s = { NULL, (const TmHeapObject *) (gpointer) r->max_heap->data };
  guint n = r->max_heap->len;

  /* Nothing at the peak: the arrays have no data to point into. */
  if (n == 0)
    return;
  g_array_set_size (r->by_size, n);
  g_array_set_size (r->by_padding, n);
  for (guint i = 0; i < n; i++)
    {
      g_array_index (r->by_size, guint, i) = i;
      g_array_index (r->by_padding, guint, i) = i;
    }
  std_sort (&s, (guint *) (gpointer) r->by_size->data, (guint *) (gpointer) r->by_size->data + n);

  /* The page sorts again, stably, by size and then by padding. */
  g_qsort_with_data (r->by_padding->data, (gint) n, sizeof (guint), by_size_stable, r->max_heap->data);
  g_qsort_with_data (r->by_padding->data, (gint) n, sizeof (guint), by_padding_stable, r->max_heap->data);
}
