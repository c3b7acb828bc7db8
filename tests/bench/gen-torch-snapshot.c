/* gen-torch-snapshot.c — a large PyTorch snapshot from a real one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   gen-torch-snapshot --size-mib N IN.pickle OUT.pickle
 *
 * Reads IN with tm-pickle and writes a protocol-4 pickle whose device
 * traces repeat IN's traces until OUT is about N MiB: copy k shifts every
 * address by k × 2^40 and every time by k × (the trace's span + 1 µs).
 * Everything else (segments, frames, settings) is written once. It is
 * written as Python's pickler writes protocol 4: shared values once and
 * then referenced through the memo, every dict, list, tuple and string
 * memoized as it is made (so the memo grows by one per trace entry), in
 * FRAMEs of about 64 KiB. docs/performance.md, "PyTorch snapshots".
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm-pickle.h"
#include "tm-source.h"

typedef struct
{
  FILE       *out;
  TmPickle   *p;
  GHashTable *memo;    /* TmPickleValue → memo index + 1 */
  guint       n_memo;
  guint64     written;
  GByteArray *frame;   /* the FRAME being filled */
} Writer;

/* Python's pickler starts a new FRAME before an object once the current
 * one holds 64 KiB. */
#define FRAME_TARGET 65536

static void
write_out (Writer     *w,
           const void *data,
           gsize       n)
{
  if (fwrite (data, 1, n, w->out) != n)
    g_error ("cannot write: %s", g_strerror (errno));
}

static void
commit_frame (Writer *w)
{
  guint8 head[9] = { 0x95 };

  if (w->frame->len == 0)
    return;
  for (guint i = 0; i < 8; i++)
    head[1 + i] = (guint8) ((guint64) w->frame->len >> (8 * i));
  write_out (w, head, sizeof head);
  write_out (w, w->frame->data, w->frame->len);
  w->written += sizeof head;
  g_byte_array_set_size (w->frame, 0);
}

static void
maybe_commit_frame (Writer *w)
{
  if (w->frame->len >= FRAME_TARGET)
    commit_frame (w);
}

static void
put (Writer     *w,
     const void *data,
     gsize       n)
{
  g_byte_array_append (w->frame, data, (guint) n);
  w->written += n;
}

static void
put_op (Writer *w,
        guint8  op)
{
  put (w, &op, 1);
}

static void
put_le (Writer  *w,
        guint64  v,
        guint    n)
{
  guint8 b[8];

  for (guint i = 0; i < n; i++)
    b[i] = (guint8) (v >> (8 * i));
  put (w, b, n);
}

/* An int the way Python writes it: BININT1, BININT2, BININT or LONG1. */
static void
put_int (Writer *w,
         gint64  v)
{
  guint8 b[8];
  guint n;

  if (v >= 0 && v < 256)
    {
      put_op (w, 'K');
      put_le (w, (guint64) v, 1);
      return;
    }
  if (v >= 0 && v < 65536)
    {
      put_op (w, 'M');
      put_le (w, (guint64) v, 2);
      return;
    }
  if (v >= G_MININT32 && v <= G_MAXINT32)
    {
      put_op (w, 'J');
      put_le (w, (guint32) (gint32) v, 4);
      return;
    }
  /* Two's complement in the fewest bytes that sign-extend back to v. */
  for (n = 1; n < 8; n++)
    {
      guint shift = 64 - 8 * n;

      if ((gint64) ((guint64) v << shift) >> shift == v)
        break;
    }
  for (guint k = 0; k < n; k++)
    b[k] = (guint8) ((guint64) v >> (8 * k));
  put_op (w, 0x8a);
  put_le (w, n, 1);
  put (w, b, n);
}

static void
put_uint (Writer  *w,
          guint64  v)
{
  if (v <= G_MAXINT64)
    {
      put_int (w, (gint64) v);
      return;
    }
  put_op (w, 0x8a);
  put_le (w, 9, 1);
  put_le (w, v, 8);
  put_le (w, 0, 1);
}

static void
memoize (Writer        *w,
         TmPickleValue  v)
{
  put_op (w, 0x94);
  g_hash_table_insert (w->memo, g_memdup2 (&v, sizeof v), GUINT_TO_POINTER (++w->n_memo));
}

/* A new value that nothing refers to again: only its memo slot. */
static void
memoize_new (Writer *w)
{
  put_op (w, 0x94);
  w->n_memo++;
}

static gboolean
put_memo_ref (Writer        *w,
              TmPickleValue  v)
{
  guint k = GPOINTER_TO_UINT (g_hash_table_lookup (w->memo, &v));

  if (k == 0)
    return FALSE;
  if (k - 1 < 256)
    {
      put_op (w, 'h');
      put_le (w, k - 1, 1);
    }
  else
    {
      put_op (w, 'j');
      put_le (w, k - 1, 4);
    }
  return TRUE;
}

static void put_value (Writer *w, TmPickleValue v);

static void
put_items (Writer              *w,
           const TmPickleValue *items,
           gsize                n,
           guint8               op)
{
  for (gsize i = 0; i < n; i += 1000)
    {
      gsize end = MIN (n, i + 1000);

      put_op (w, '(');
      for (gsize k = i; k < end; k++)
        put_value (w, items[k]);
      put_op (w, op);
    }
}

static void
put_value (Writer        *w,
           TmPickleValue  v)
{
  TmPickle *p = w->p;
  const TmPickleValue *items;
  const char *s;
  gint64 i;
  guint64 u;
  double d;
  gsize n;

  maybe_commit_frame (w);
  switch (tm_pickle_kind (p, v))
    {
    case TM_PICKLE_NONE:
      put_op (w, 'N');
      return;
    case TM_PICKLE_BOOL:
      tm_pickle_get_int (p, v, &i);
      put_op (w, i ? 0x88 : 0x89);
      return;
    case TM_PICKLE_INT:
      tm_pickle_get_int (p, v, &i);
      put_int (w, i);
      return;
    case TM_PICKLE_UINT:
      tm_pickle_get_uint (p, v, &u);
      put_uint (w, u);
      return;
    case TM_PICKLE_FLOAT:
      {
        union { double d; guint64 u; } bits;

        tm_pickle_get_double (p, v, &d);
        bits.d = d;
        put_op (w, 'G');
        bits.u = GUINT64_TO_BE (bits.u);
        put (w, &bits.u, 8);
      }
      return;
    default:
      break;
    }

  if (put_memo_ref (w, v))
    return;
  switch (tm_pickle_kind (p, v))
    {
    case TM_PICKLE_STRING:
    case TM_PICKLE_BYTES:
      s = tm_pickle_get_string (p, v, &n);
      if (tm_pickle_kind (p, v) == TM_PICKLE_BYTES)
        {
          put_op (w, 'B');
          put_le (w, n, 4);
        }
      else if (n < 256)
        {
          put_op (w, 0x8c);
          put_le (w, n, 1);
        }
      else
        {
          put_op (w, 'X');
          put_le (w, n, 4);
        }
      put (w, s, n);
      memoize (w, v);
      return;
    case TM_PICKLE_TUPLE:
      items = tm_pickle_get_items (p, v, &n);
      /* TUPLE1 to TUPLE3 for short ones, as Python writes them. */
      if (n == 0 || n > 3)
        put_op (w, '(');
      for (gsize k = 0; k < n; k++)
        put_value (w, items[k]);
      put_op (w, n == 0 || n > 3 ? 't' : 0x84 + n);
      memoize (w, v);
      return;
    case TM_PICKLE_LIST:
      put_op (w, ']');
      memoize (w, v);
      items = tm_pickle_get_items (p, v, &n);
      put_items (w, items, n, 'e');
      return;
    case TM_PICKLE_DICT:
      put_op (w, '}');
      memoize (w, v);
      n = tm_pickle_dict_size (p, v);
      for (gsize b = 0; b < n; b += 1000)
        {
          put_op (w, '(');
          for (gsize k = b; k < MIN (n, b + 1000); k++)
            {
              TmPickleValue key, value;

              tm_pickle_dict_item (p, v, k, &key, &value);
              put_value (w, key);
              put_value (w, value);
            }
          put_op (w, 'u');
        }
      return;
    default:
      g_assert_not_reached ();
    }
}

/* One trace entry of copy k: addr and time_us shifted, the rest as is. */
static void
put_entry (Writer        *w,
           TmPickleValue  entry,
           guint64        addr_shift,
           gint64         time_shift)
{
  TmPickle *p = w->p;
  gsize n = tm_pickle_dict_size (p, entry);

  maybe_commit_frame (w);
  put_op (w, '}');
  memoize_new (w);
  put_op (w, '(');
  for (gsize i = 0; i < n; i++)
    {
      TmPickleValue key, value;
      guint64 u;
      gint64 t;

      tm_pickle_dict_item (p, entry, i, &key, &value);
      put_value (w, key);
      if (tm_pickle_string_equal (p, key, "addr") && tm_pickle_get_uint (p, value, &u) && u != 0)
        put_uint (w, u + addr_shift);
      else if (tm_pickle_string_equal (p, key, "time_us") && tm_pickle_get_int (p, value, &t))
        put_int (w, t + time_shift);
      else
        put_value (w, value);
    }
  put_op (w, 'u');
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmSource) source = NULL;
  g_autoptr(TmPickle) p = NULL;
  guint64 target;
  TmPickleValue root, traces = TM_PICKLE_VALUE_NONE;
  const TmPickleValue *lists;
  gsize n_pairs, n_lists;
  Writer w = { 0 };
  guint copies;

  if (argc != 5 || !g_str_equal (argv[1], "--size-mib"))
    {
      g_printerr ("usage: gen-torch-snapshot --size-mib N IN.pickle OUT.pickle\n");
      return 2;
    }
  target = g_ascii_strtoull (argv[2], NULL, 10) << 20;
  source = tm_source_open (argv[3], &error);
  if (source == NULL || (p = tm_pickle_read (tm_source_get_data (source), tm_source_get_size (source), &error)) == NULL)
    g_error ("%s: %s", argv[3], error->message);
  root = tm_pickle_get_root (p);
  if (!tm_pickle_dict_lookup (p, root, "device_traces", &traces))
    g_error ("%s has no device_traces", argv[3]);
  copies = target > 0 ? G_MAXUINT : 1;

  w.out = fopen (argv[4], "wb");
  if (w.out == NULL)
    g_error ("%s: %s", argv[4], g_strerror (errno));
  w.p = p;
  w.memo = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  w.frame = g_byte_array_sized_new (2 * FRAME_TARGET);

  /* PROTO comes before the first FRAME. */
  write_out (&w, "\x80\x04", 2);
  w.written = 2;
  put_op (&w, '}');
  memoize_new (&w);
  put_op (&w, '(');
  n_pairs = tm_pickle_dict_size (p, root);
  for (gsize i = 0; i < n_pairs; i++)
    {
      TmPickleValue key, value;

      tm_pickle_dict_item (p, root, i, &key, &value);
      if (value != traces)
        {
          put_value (&w, key);
          put_value (&w, value);
          continue;
        }
      put_value (&w, key);
      put_op (&w, ']');
      memoize_new (&w);
      lists = tm_pickle_get_items (p, traces, &n_lists);
      for (gsize d = 0; d < n_lists; d++)
        {
          gsize n;
          const TmPickleValue *entries = tm_pickle_get_items (p, lists[d], &n);
          gint64 first = 0, last = 0, span;
          TmPickleValue t;

          put_op (&w, ']');
          memoize_new (&w);
          if (n > 0)
            {
              if (tm_pickle_dict_lookup (p, entries[0], "time_us", &t))
                tm_pickle_get_int (p, t, &first);
              if (tm_pickle_dict_lookup (p, entries[n - 1], "time_us", &t))
                tm_pickle_get_int (p, t, &last);
            }
          span = last - first + 1;
          /* Copies stop once the file reaches the size (the last device
           * with a trace takes the rest). */
          for (guint k = 0; k < copies && n > 0 && (k == 0 || w.written < target); k++)
            for (gsize e = 0; e < n; e += 1000)
              {
                put_op (&w, '(');
                for (gsize x = e; x < MIN (n, e + 1000); x++)
                  put_entry (&w, entries[x], (guint64) k << 40, (gint64) k * span);
                put_op (&w, 'e');
              }
          put_op (&w, 'a');
        }
    }
  put_op (&w, 'u');
  put_op (&w, '.');
  commit_frame (&w);
  if (fclose (w.out) != 0)
    g_error ("%s: %s", argv[4], g_strerror (errno));
  g_print ("%s: %" G_GUINT64_FORMAT " bytes\n", argv[4], w.written);
  g_hash_table_unref (w.memo);
  g_byte_array_unref (w.frame);
  return 0;
}
