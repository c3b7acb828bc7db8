/* test-pickle.c — the plain-data pickle reader on pickles written by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each pickle is built byte by byte here, in the forms Python's pickle
 * module (protocols 2 to 5) and PyTorch's C++ pickler (protocol 2) write.
 */
#include "config.h"

#include <string.h>
#include <glib.h>

#include "tm-error.h"
#include "tm-pickle-private.h"

/* A pickle under construction. */
typedef GByteArray Pk;

static Pk *
pk_new (guint protocol)
{
  Pk *b = g_byte_array_new ();

  if (protocol >= 2)
    {
      guint8 head[] = { 0x80, (guint8) protocol };

      g_byte_array_append (b, head, 2);
    }
  return b;
}

static void
pk_op (Pk    *b,
       guint8 op)
{
  g_byte_array_append (b, &op, 1);
}

static void
pk_le (Pk      *b,
       guint64  v,
       guint    n)
{
  for (guint i = 0; i < n; i++)
    {
      guint8 c = (guint8) (v >> (8 * i));

      g_byte_array_append (b, &c, 1);
    }
}

static void
pk_raw (Pk         *b,
        const void *data,
        gsize       n)
{
  g_byte_array_append (b, data, (guint) n);
}

/* SHORT_BINUNICODE, as Python writes short strings. */
static void
pk_str (Pk         *b,
        const char *s)
{
  pk_op (b, 0x8c);
  pk_le (b, strlen (s), 1);
  pk_raw (b, s, strlen (s));
}

/* BINUNICODE, as protocol 2 (and the C++ pickler) writes every string. */
static void
pk_str4 (Pk         *b,
         const char *s)
{
  pk_op (b, 'X');
  pk_le (b, strlen (s), 4);
  pk_raw (b, s, strlen (s));
}

static void
pk_int1 (Pk   *b,
         guint v)
{
  pk_op (b, 'K');
  pk_le (b, v, 1);
}

static TmPickle *
read_ok (Pk *b)
{
  g_autoptr(GError) error = NULL;
  TmPickle *p = tm_pickle_read (b->data, b->len, &error);

  g_assert_no_error (error);
  g_assert_nonnull (p);
  return p;
}

static void
read_fails (Pk         *b,
            gint        code,
            const char *fragment)
{
  g_autoptr(GError) error = NULL;
  TmPickle *p = tm_pickle_read (b->data, b->len, &error);

  g_assert_null (p);
  g_assert_error (error, TM_ERROR, code);
  if (fragment != NULL && strstr (error->message, fragment) == NULL)
    g_error ("message “%s” lacks “%s”", error->message, fragment);
}

static gint64
int_of (TmPickle      *p,
        TmPickleValue  v)
{
  gint64 i = G_MININT64;

  g_assert_true (tm_pickle_get_int (p, v, &i));
  return i;
}

static void
assert_string (TmPickle      *p,
               TmPickleValue  v,
               const char    *s)
{
  gsize n = 0;
  const char *d = tm_pickle_get_string (p, v, &n);

  g_assert_nonnull (d);
  g_assert_cmpmem (d, n, s, strlen (s));
}

/* ------------------------------------------------------------------ */

static void
test_sniff (void)
{
  const guint8 p2[] = { 0x80, 2 }, p5[] = { 0x80, 5 }, p1[] = { 0x80, 1 }, p6[] = { 0x80, 6 };
  const guint8 pb[] = { 0x0a, 0x80 };

  g_assert_true (tm_pickle_sniff (p2, 2));
  g_assert_true (tm_pickle_sniff (p5, 2));
  g_assert_false (tm_pickle_sniff (p1, 2));
  g_assert_false (tm_pickle_sniff (p6, 2));
  g_assert_false (tm_pickle_sniff (pb, 2));
  g_assert_false (tm_pickle_sniff (p2, 1));
}

/* The scalar opcodes, each as the item of one list. */
static void
test_scalars (void)
{
  g_autoptr(GByteArray) b = pk_new (4);
  g_autoptr(TmPickle) p = NULL;
  const TmPickleValue *items;
  gsize n;
  double d = 0;
  guint64 u = 0;
  union { double d; guint64 u; } bits = { 1.5 };

  pk_op (b, ']');
  pk_op (b, '(');
  pk_op (b, 'N');                               /* 0 None */
  pk_op (b, 0x88);                              /* 1 True */
  pk_op (b, 0x89);                              /* 2 False */
  pk_int1 (b, 200);                             /* 3 */
  pk_op (b, 'M'); pk_le (b, 65000, 2);          /* 4 */
  pk_op (b, 'J'); pk_le (b, (guint32) -5, 4);   /* 5 */
  pk_op (b, 0x8a); pk_le (b, 0, 1);             /* 6 LONG1 of 0 bytes: 0 */
  pk_op (b, 0x8a); pk_le (b, 8, 1); pk_le (b, G_GUINT64_CONSTANT (0x7fffffffffffffff), 8); /* 7 */
  pk_op (b, 0x8b); pk_le (b, 2, 4); pk_le (b, 0xff00, 2);   /* 8 LONG4: -256 */
  pk_op (b, 'G');                               /* 9 BINFLOAT, big-endian */
  for (int i = 7; i >= 0; i--)
    pk_le (b, (guint8) (bits.u >> (8 * i)), 1);
  pk_str (b, "héllo");                          /* 10 */
  pk_str4 (b, "four");                          /* 11 */
  pk_op (b, 0x8d); pk_le (b, 5, 8); pk_raw (b, "eight", 5);  /* 12 BINUNICODE8 */
  pk_op (b, 'C'); pk_le (b, 2, 1); pk_raw (b, "\x00\xff", 2); /* 13 SHORT_BINBYTES */
  pk_op (b, 'B'); pk_le (b, 1, 4); pk_raw (b, "b", 1);        /* 14 BINBYTES */
  pk_op (b, 0x8e); pk_le (b, 1, 8); pk_raw (b, "c", 1);       /* 15 BINBYTES8 */
  pk_op (b, 0x96); pk_le (b, 3, 8); pk_raw (b, "arr", 3);     /* 16 BYTEARRAY8 */
  pk_op (b, 0x8a); pk_le (b, 2, 1); pk_le (b, 0xff7f, 2);     /* 17 LONG1: -129 */
  pk_op (b, 0x8a); pk_le (b, 5, 1); pk_le (b, G_GUINT64_CONSTANT (0x123456789a), 5); /* 18 */
  pk_op (b, 'e');
  pk_op (b, '.');

  p = read_ok (b);
  g_assert_cmpuint (tm_pickle_get_protocol (p), ==, 4);
  items = tm_pickle_get_items (p, tm_pickle_get_root (p), &n);
  g_assert_cmpuint (n, ==, 19);
  g_assert_cmpint (tm_pickle_kind (p, items[0]), ==, TM_PICKLE_NONE);
  g_assert_cmpint (tm_pickle_kind (p, items[1]), ==, TM_PICKLE_BOOL);
  g_assert_cmpint (int_of (p, items[1]), ==, 1);
  g_assert_cmpint (int_of (p, items[2]), ==, 0);
  g_assert_cmpint (int_of (p, items[3]), ==, 200);
  g_assert_cmpint (int_of (p, items[4]), ==, 65000);
  g_assert_cmpint (int_of (p, items[5]), ==, -5);
  g_assert_cmpint (int_of (p, items[6]), ==, 0);
  g_assert_cmpint (int_of (p, items[7]), ==, G_MAXINT64);
  g_assert_cmpint (tm_pickle_kind (p, items[7]), ==, TM_PICKLE_INT);
  g_assert_cmpint (int_of (p, items[8]), ==, -256);
  g_assert_true (tm_pickle_get_double (p, items[9], &d));
  g_assert_cmpfloat (d, ==, 1.5);
  g_assert_cmpint (tm_pickle_kind (p, items[9]), ==, TM_PICKLE_FLOAT);
  assert_string (p, items[10], "héllo");
  g_assert_true (tm_pickle_string_equal (p, items[10], "héllo"));
  g_assert_false (tm_pickle_string_equal (p, items[10], "hello"));
  assert_string (p, items[11], "four");
  assert_string (p, items[12], "eight");
  g_assert_cmpint (tm_pickle_kind (p, items[13]), ==, TM_PICKLE_BYTES);
  {
    const char *raw = tm_pickle_get_string (p, items[13], &n);

    g_assert_cmpmem (raw, n, "\x00\xff", 2);
  }
  g_assert_false (tm_pickle_string_equal (p, items[13], "\x00\xff"));
  assert_string (p, items[14], "b");
  assert_string (p, items[15], "c");
  assert_string (p, items[16], "arr");
  g_assert_cmpint (int_of (p, items[17]), ==, -129);
  g_assert_cmpint (int_of (p, items[18]), ==, G_GINT64_CONSTANT (0x123456789a));
  g_assert_true (tm_pickle_get_uint (p, items[18], &u));
  g_assert_false (tm_pickle_get_uint (p, items[17], &u));
  g_assert_null (tm_pickle_get_string (p, items[3], &n));
}

/* One LONG1 of n bytes as the whole pickle. */
static GByteArray *
long1 (const guint8 *bytes,
       guint         n)
{
  GByteArray *b = pk_new (4);

  pk_op (b, 0x8a);
  pk_le (b, n, 1);
  pk_raw (b, bytes, n);
  pk_op (b, '.');
  return b;
}

/* pytorch#115234: addresses above 2^63 come as LONG1 of 9 bytes. */
static void
test_long_nine_bytes (void)
{
  const guint8 max_u64[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00 };
  const guint8 two_63[] = { 0, 0, 0, 0, 0, 0, 0, 0x80, 0x00 };
  const guint8 min_i64[] = { 0, 0, 0, 0, 0, 0, 0, 0x80, 0xff };
  const guint8 five_wide[] = { 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  const guint8 two_64[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0x01 };
  const guint8 below_min[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xff };
  const guint8 minus_one_wide[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
  guint64 u = 0;
  gint64 i = 0;

  {
    g_autoptr(GByteArray) b = long1 (max_u64, 9);
    g_autoptr(TmPickle) p = read_ok (b);

    g_assert_cmpint (tm_pickle_kind (p, tm_pickle_get_root (p)), ==, TM_PICKLE_UINT);
    g_assert_true (tm_pickle_get_uint (p, tm_pickle_get_root (p), &u));
    g_assert_cmpuint (u, ==, G_MAXUINT64);
    g_assert_false (tm_pickle_get_int (p, tm_pickle_get_root (p), &i));
  }
  {
    g_autoptr(GByteArray) b = long1 (two_63, 9);
    g_autoptr(TmPickle) p = read_ok (b);

    g_assert_true (tm_pickle_get_uint (p, tm_pickle_get_root (p), &u));
    g_assert_cmpuint (u, ==, G_GUINT64_CONSTANT (1) << 63);
  }
  {
    g_autoptr(GByteArray) b = long1 (min_i64, 9);
    g_autoptr(TmPickle) p = read_ok (b);

    g_assert_cmpint (int_of (p, tm_pickle_get_root (p)), ==, G_MININT64);
  }
  {
    g_autoptr(GByteArray) b = long1 (five_wide, sizeof five_wide);
    g_autoptr(TmPickle) p = read_ok (b);

    g_assert_cmpint (int_of (p, tm_pickle_get_root (p)), ==, 5);
  }
  {
    g_autoptr(GByteArray) b = long1 (minus_one_wide, sizeof minus_one_wide);
    g_autoptr(TmPickle) p = read_ok (b);

    g_assert_cmpint (int_of (p, tm_pickle_get_root (p)), ==, -1);
  }
  {
    g_autoptr(GByteArray) b = long1 (two_64, 9);

    read_fails (b, TM_ERROR_PICKLE, "LONG1 of 9 bytes does not fit 64 bits");
  }
  {
    g_autoptr(GByteArray) b = long1 (below_min, 9);

    read_fails (b, TM_ERROR_PICKLE, "at byte 2");
  }
}

/* Containers: TUPLE1-3, TUPLE, EMPTY_TUPLE, LIST, DICT, SETITEM(S),
 * APPEND(S), and DUP, POP, POP_MARK. */
static void
test_containers (void)
{
  g_autoptr(GByteArray) b = pk_new (4);
  g_autoptr(TmPickle) p = NULL;
  TmPickleValue root, v, w;
  const TmPickleValue *items;
  gsize n;

  pk_op (b, '}');                           /* root dict */
  pk_str (b, "t1"); pk_int1 (b, 1); pk_op (b, 0x85);
  pk_op (b, 's');
  pk_op (b, '(');
  pk_str (b, "t2"); pk_int1 (b, 1); pk_int1 (b, 2); pk_op (b, 0x86);
  pk_str (b, "t3"); pk_int1 (b, 1); pk_int1 (b, 2); pk_int1 (b, 3); pk_op (b, 0x87);
  pk_str (b, "t"); pk_op (b, '('); pk_int1 (b, 7); pk_int1 (b, 8); pk_int1 (b, 9); pk_int1 (b, 10); pk_op (b, 't');
  pk_str (b, "e"); pk_op (b, ')');
  pk_str (b, "l"); pk_op (b, '('); pk_int1 (b, 4); pk_int1 (b, 5); pk_op (b, 'l');
  pk_str (b, "d"); pk_op (b, '('); pk_str (b, "k"); pk_int1 (b, 6); pk_op (b, 'd');
  pk_str (b, "a"); pk_op (b, ']'); pk_int1 (b, 11); pk_op (b, 'a'); pk_op (b, 'N'); pk_op (b, 'a');
  pk_str (b, "dup"); pk_int1 (b, 12); pk_op (b, '2'); pk_op (b, '0');
  pk_op (b, 'u');
  /* Left on the stack and dropped: POP_MARK of a mark with values. */
  pk_op (b, '('); pk_int1 (b, 1); pk_int1 (b, 2); pk_op (b, '1');
  /* A key set twice: the later wins. */
  pk_str (b, "t1"); pk_int1 (b, 99); pk_op (b, 's');
  pk_op (b, '.');

  p = read_ok (b);
  root = tm_pickle_get_root (p);
  g_assert_cmpint (tm_pickle_kind (p, root), ==, TM_PICKLE_DICT);
  g_assert_cmpuint (tm_pickle_dict_size (p, root), ==, 10);
  g_assert_true (tm_pickle_dict_item (p, root, 9, &v, &w));
  assert_string (p, v, "t1");
  g_assert_cmpint (int_of (p, w), ==, 99);
  g_assert_false (tm_pickle_dict_item (p, root, 10, &v, &w));
  g_assert_true (tm_pickle_dict_lookup (p, root, "t1", &v));
  g_assert_cmpint (int_of (p, v), ==, 99);
  g_assert_true (tm_pickle_dict_lookup (p, root, "t2", &v));
  g_assert_cmpint (tm_pickle_kind (p, v), ==, TM_PICKLE_TUPLE);
  items = tm_pickle_get_items (p, v, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (int_of (p, items[1]), ==, 2);
  g_assert_true (tm_pickle_dict_lookup (p, root, "t3", &v));
  g_assert_cmpuint (tm_pickle_get_length (p, v), ==, 3);
  g_assert_true (tm_pickle_dict_lookup (p, root, "t", &v));
  items = tm_pickle_get_items (p, v, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpint (int_of (p, items[3]), ==, 10);
  g_assert_true (tm_pickle_dict_lookup (p, root, "e", &v));
  g_assert_cmpint (tm_pickle_kind (p, v), ==, TM_PICKLE_TUPLE);
  g_assert_cmpuint (tm_pickle_get_length (p, v), ==, 0);
  g_assert_true (tm_pickle_dict_lookup (p, root, "l", &v));
  g_assert_cmpint (tm_pickle_kind (p, v), ==, TM_PICKLE_LIST);
  g_assert_cmpuint (tm_pickle_get_length (p, v), ==, 2);
  g_assert_true (tm_pickle_dict_lookup (p, root, "d", &v));
  g_assert_true (tm_pickle_dict_lookup (p, v, "k", &w));
  g_assert_cmpint (int_of (p, w), ==, 6);
  g_assert_true (tm_pickle_dict_lookup (p, root, "a", &v));
  items = tm_pickle_get_items (p, v, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (int_of (p, items[0]), ==, 11);
  g_assert_cmpint (tm_pickle_kind (p, items[1]), ==, TM_PICKLE_NONE);
  g_assert_true (tm_pickle_dict_lookup (p, root, "dup", &v));
  g_assert_cmpint (int_of (p, v), ==, 12);
  g_assert_false (tm_pickle_dict_lookup (p, root, "missing", &v));
}

/* Lists filled in many batches (APPENDS of a thousand, as Python writes
 * them), interleaved with other containers, keep every item in order. */
static void
test_batches (void)
{
  g_autoptr(GByteArray) b = pk_new (4);
  g_autoptr(TmPickle) p = NULL;
  const TmPickleValue *outer, *inner;
  gsize n, m;

  pk_op (b, ']');
  pk_op (b, 0x94);
  for (guint batch = 0; batch < 5; batch++)
    {
      pk_op (b, '(');
      for (guint i = 0; i < 1000; i++)
        {
          pk_op (b, ']');
          pk_int1 (b, (batch * 1000 + i) % 256);
          pk_op (b, 'a');
        }
      pk_op (b, 'e');
    }
  pk_op (b, '.');

  p = read_ok (b);
  outer = tm_pickle_get_items (p, tm_pickle_get_root (p), &n);
  g_assert_cmpuint (n, ==, 5000);
  for (guint i = 0; i < n; i++)
    {
      inner = tm_pickle_get_items (p, outer[i], &m);
      g_assert_cmpuint (m, ==, 1);
      g_assert_cmpint (int_of (p, inner[0]), ==, i % 256);
    }
}

/* Dicts made by SETITEMS with the same keys share a shape; one that gets
 * more keys later keeps them all, in order. */
static void
test_shapes (void)
{
  g_autoptr(GByteArray) b = pk_new (4);
  g_autoptr(TmPickle) p = NULL;
  const TmPickleValue *items;
  TmPickleValue values[TM_PICKLE_MAX_SHAPE_KEYS];
  TmPickleValue k, v;
  guint shape;
  gsize n;

  pk_op (b, ']');
  pk_op (b, '(');
  /* {addr: 1, size: 2} */
  pk_op (b, '}'); pk_op (b, '(');
  pk_str (b, "addr"); pk_op (b, 0x94); pk_int1 (b, 1);
  pk_str (b, "size"); pk_op (b, 0x94); pk_int1 (b, 2);
  pk_op (b, 'u');
  /* {addr: 3, size: 4}, then one more key with SETITEM */
  pk_op (b, '}'); pk_op (b, '(');
  pk_op (b, 'h'); pk_le (b, 0, 1); pk_int1 (b, 3);
  pk_op (b, 'h'); pk_le (b, 1, 1); pk_int1 (b, 4);
  pk_op (b, 'u');
  pk_str (b, "extra"); pk_int1 (b, 5); pk_op (b, 's');
  /* {size: 6, addr: 7}: the same keys in another order */
  pk_op (b, '}'); pk_op (b, '(');
  pk_op (b, 'h'); pk_le (b, 1, 1); pk_int1 (b, 6);
  pk_op (b, 'h'); pk_le (b, 0, 1); pk_int1 (b, 7);
  pk_op (b, 'u');
  /* {addr: 8, size: 9} */
  pk_op (b, '}'); pk_op (b, '(');
  pk_op (b, 'h'); pk_le (b, 0, 1); pk_int1 (b, 8);
  pk_op (b, 'h'); pk_le (b, 1, 1); pk_int1 (b, 9);
  pk_op (b, 'u');
  pk_op (b, 'e');
  pk_op (b, '.');

  p = read_ok (b);
  items = tm_pickle_get_items (p, tm_pickle_get_root (p), &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (tm_pickle_dict_shape (p, items[0]), !=, 0);
  g_assert_cmpuint (tm_pickle_dict_shape (p, items[0]), ==, tm_pickle_dict_shape (p, items[3]));
  g_assert_cmpuint (tm_pickle_dict_shape (p, items[2]), !=, tm_pickle_dict_shape (p, items[0]));
  shape = tm_pickle_dict_get_values (p, items[3], values);
  g_assert_cmpuint (shape, ==, tm_pickle_dict_shape (p, items[3]));
  g_assert_cmpint (tm_pickle_shape_find (p, shape, "size"), ==, 1);
  g_assert_cmpint (tm_pickle_shape_find (p, shape, "none"), ==, -1);
  g_assert_cmpint (int_of (p, values[1]), ==, 9);
  g_assert_cmpint (int_of (p, tm_pickle_dict_value_at (p, items[3], 0)), ==, 8);
  /* The one that grew: no shape, three pairs in order. */
  g_assert_cmpuint (tm_pickle_dict_shape (p, items[1]), ==, 0);
  g_assert_cmpuint (tm_pickle_dict_size (p, items[1]), ==, 3);
  g_assert_true (tm_pickle_dict_item (p, items[1], 0, &k, &v));
  assert_string (p, k, "addr");
  g_assert_cmpint (int_of (p, v), ==, 3);
  g_assert_true (tm_pickle_dict_item (p, items[1], 2, &k, &v));
  assert_string (p, k, "extra");
  g_assert_true (tm_pickle_dict_lookup (p, items[1], "size", &v));
  g_assert_cmpint (int_of (p, v), ==, 4);
  g_assert_true (tm_pickle_dict_lookup (p, items[2], "addr", &v));
  g_assert_cmpint (int_of (p, v), ==, 7);
}

static void
pk_get (Pk   *b,
        guint slot)
{
  pk_op (b, 'h');
  pk_le (b, slot, 1);
}

static gboolean
is_lazy (TmPickleValue v)
{
  return (v & TAG_MASK) == TAG_LAZY;
}

/* Dicts of memo references and small integers are lazy: read again from
 * the pickle when asked, with the same values as any dict, whether the
 * parser found their shape by SETITEMS or by checking the pairs against
 * the last lazy shape (FRAMEs among them included); anything else in
 * their pairs, or a dict that holds itself, keeps its values. */
static void
test_lazy (void)
{
  g_autoptr(GByteArray) b = pk_new (4);
  g_autoptr(TmPickle) p = NULL;
  TmPickleValue values[TM_PICKLE_MAX_SHAPE_KEYS];
  const TmPickleValue *items;
  TmPickleValue k, v;
  gsize n, frame_at;
  guint64 big = G_GUINT64_CONSTANT (1) << 62;

  pk_op (b, ']'); pk_op (b, 0x94);                                       /* memo 0 */
  pk_op (b, '(');
  /* 0: the keys, new: a dict of pairs */
  pk_op (b, '}'); pk_op (b, 0x94); pk_op (b, '(');                       /* memo 1 */
  pk_str (b, "a"); pk_op (b, 0x94); pk_int1 (b, 1);                      /* memo 2 */
  pk_str (b, "b"); pk_op (b, 0x94); pk_int1 (b, 2);                      /* memo 3 */
  pk_op (b, 'u');
  /* 1: lazy, its shape found by SETITEMS */
  pk_op (b, '}'); pk_op (b, 0x94); pk_op (b, '(');                       /* memo 4 */
  pk_get (b, 2); pk_op (b, 'J'); pk_le (b, (guint32) -7, 4);
  pk_get (b, 3); pk_op (b, 'N');
  pk_op (b, 'u');
  /* 2: lazy, checked against that shape, a FRAME between its pairs */
  pk_op (b, '}'); pk_op (b, 0x94); pk_op (b, '(');                       /* memo 5 */
  pk_get (b, 2); pk_op (b, 0x8a); pk_le (b, 6, 1); pk_le (b, G_GUINT64_CONSTANT (0x7f0012345678), 6);
  pk_op (b, 0x95); frame_at = b->len; pk_le (b, 0, 8);
  pk_get (b, 3); pk_get (b, 2);
  pk_op (b, 'u');
  /* 3: an integer that is no word: not lazy */
  pk_op (b, '}'); pk_op (b, 0x94); pk_op (b, '(');                       /* memo 6 */
  pk_get (b, 2); pk_op (b, 0x8a); pk_le (b, 8, 1); pk_le (b, big, 8);
  pk_get (b, 3); pk_int1 (b, 3);
  pk_op (b, 'u');
  /* 4: the keys in the other order: lazy, another shape */
  pk_op (b, '}'); pk_op (b, 0x94); pk_op (b, '(');                       /* memo 7 */
  pk_get (b, 3); pk_op (b, 0x88);
  pk_get (b, 2); pk_op (b, 'M'); pk_le (b, 60000, 2);
  pk_op (b, 'u');
  /* 5: a dict that holds itself: not lazy */
  pk_op (b, '}'); pk_op (b, 0x94); pk_op (b, '(');                       /* memo 8 */
  pk_get (b, 2); pk_get (b, 8);
  pk_get (b, 3); pk_int1 (b, 5);
  pk_op (b, 'u');
  /* 6: no memo opcode: lazy; 7: two of them: not */
  pk_op (b, '}'); pk_op (b, '(');
  pk_get (b, 2); pk_int1 (b, 6); pk_get (b, 3); pk_int1 (b, 66);
  pk_op (b, 'u');
  pk_op (b, '}'); pk_op (b, 0x94); pk_op (b, 0x94); pk_op (b, '(');      /* memo 9, 10 */
  pk_get (b, 2); pk_int1 (b, 7); pk_get (b, 3); pk_int1 (b, 77);
  pk_op (b, 'u');
  /* 8: one pair fewer than the last shape: a dict of pairs */
  pk_op (b, '}'); pk_op (b, 0x94); pk_op (b, '(');                       /* memo 11 */
  pk_get (b, 2); pk_int1 (b, 8);
  pk_op (b, 'u');
  /* 9: dict 1 again, through the memo */
  pk_get (b, 4);
  pk_op (b, 'e');
  pk_op (b, '.');
  /* The FRAME holds the rest. */
  for (guint i = 0; i < 8; i++)
    b->data[frame_at + i] = (guint8) ((b->len - frame_at - 8) >> (8 * i));

  p = read_ok (b);
  items = tm_pickle_get_items (p, tm_pickle_get_root (p), &n);
  g_assert_cmpuint (n, ==, 10);
  g_assert_false (is_lazy (items[0]));
  g_assert_true (is_lazy (items[1]));
  g_assert_true (is_lazy (items[2]));
  g_assert_false (is_lazy (items[3]));
  g_assert_true (is_lazy (items[4]));
  g_assert_false (is_lazy (items[5]));
  g_assert_true (is_lazy (items[6]));
  g_assert_false (is_lazy (items[7]));
  g_assert_false (is_lazy (items[8]));
  g_assert_cmpuint (items[9], ==, items[1]);

  /* Every way of reading a dict gives a lazy one's values. */
  g_assert_cmpint (tm_pickle_kind (p, items[1]), ==, TM_PICKLE_DICT);
  g_assert_cmpuint (tm_pickle_dict_size (p, items[1]), ==, 2);
  g_assert_cmpuint (tm_pickle_dict_shape (p, items[1]), ==, tm_pickle_dict_shape (p, items[2]));
  g_assert_cmpuint (tm_pickle_dict_shape (p, items[4]), !=, tm_pickle_dict_shape (p, items[1]));
  g_assert_true (tm_pickle_dict_lookup (p, items[1], "a", &v));
  g_assert_cmpint (int_of (p, v), ==, -7);
  g_assert_true (tm_pickle_dict_lookup (p, items[1], "b", &v));
  g_assert_cmpint (tm_pickle_kind (p, v), ==, TM_PICKLE_NONE);
  g_assert_false (tm_pickle_dict_lookup (p, items[1], "c", &v));
  g_assert_true (tm_pickle_dict_item (p, items[2], 1, &k, &v));
  assert_string (p, k, "b");
  assert_string (p, v, "a");
  g_assert_cmpuint (tm_pickle_dict_get_values (p, items[2], values), ==, tm_pickle_dict_shape (p, items[2]));
  g_assert_cmpint (int_of (p, values[0]), ==, G_GINT64_CONSTANT (0x7f0012345678));
  g_assert_true (tm_pickle_dict_lookup (p, items[3], "a", &v));
  g_assert_cmpint (int_of (p, v), ==, (gint64) big);
  g_assert_true (tm_pickle_dict_lookup (p, items[4], "b", &v));
  g_assert_cmpint (int_of (p, v), ==, 1);
  g_assert_cmpint (int_of (p, tm_pickle_dict_value_at (p, items[4], 1)), ==, 60000);
  g_assert_true (tm_pickle_dict_lookup (p, items[5], "a", &v));
  g_assert_cmpuint (v, ==, items[5]);
  g_assert_true (tm_pickle_dict_lookup (p, items[6], "b", &v));
  g_assert_cmpint (int_of (p, v), ==, 66);
  g_assert_true (tm_pickle_dict_lookup (p, items[7], "b", &v));
  g_assert_cmpint (int_of (p, v), ==, 77);
  g_assert_cmpuint (tm_pickle_dict_size (p, items[8]), ==, 1);

  /* The first values only: a lazy dict (2), a shaped one that is not
   * lazy (7) and a dict of pairs (8, no shape); a value past n is left. */
  values[0] = values[1] = 42;
  g_assert_cmpuint (tm_pickle_dict_get_first_values (p, items[2], 1, values), ==, tm_pickle_dict_shape (p, items[2]));
  g_assert_cmpint (int_of (p, values[0]), ==, G_GINT64_CONSTANT (0x7f0012345678));
  g_assert_cmpuint (values[1], ==, 42);
  g_assert_cmpuint (tm_pickle_dict_get_first_values (p, items[2], 9, values), ==, tm_pickle_dict_shape (p, items[2]));
  assert_string (p, values[1], "a");
  values[1] = 42;
  g_assert_cmpuint (tm_pickle_dict_get_first_values (p, items[7], 1, values), ==, tm_pickle_dict_shape (p, items[7]));
  g_assert_cmpint (int_of (p, values[0]), ==, 7);
  g_assert_cmpuint (values[1], ==, 42);
  g_assert_cmpuint (tm_pickle_dict_get_first_values (p, items[8], 1, values), ==, 0);
}

/* A memo slot set twice: what a lazy dict read before it would read again
 * may have changed, so the pickle is read again without lazy dicts, and
 * the dict holds the value it had. */
static void
test_lazy_memo_reset (void)
{
  g_autoptr(GByteArray) b = pk_new (2);
  g_autoptr(TmPickle) p = NULL;
  const TmPickleValue *items;
  TmPickleValue v;
  gsize n;

  pk_op (b, ']'); pk_op (b, 'q'); pk_le (b, 0, 1);
  pk_op (b, '(');
  pk_op (b, '}'); pk_op (b, 'q'); pk_le (b, 4, 1); pk_op (b, '(');
  pk_str4 (b, "a"); pk_op (b, 'q'); pk_le (b, 1, 1); pk_int1 (b, 1);
  pk_str4 (b, "b"); pk_op (b, 'q'); pk_le (b, 2, 1); pk_int1 (b, 2);
  pk_op (b, 'u');
  pk_str4 (b, "x"); pk_op (b, 'q'); pk_le (b, 3, 1);
  pk_op (b, '}'); pk_op (b, 'q'); pk_le (b, 5, 1); pk_op (b, '(');
  pk_get (b, 1); pk_get (b, 3); pk_get (b, 2); pk_int1 (b, 7);
  pk_op (b, 'u');
  pk_str4 (b, "y"); pk_op (b, 'q'); pk_le (b, 3, 1);
  pk_op (b, 'e');
  pk_op (b, '.');

  p = read_ok (b);
  items = tm_pickle_get_items (p, tm_pickle_get_root (p), &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_false (is_lazy (items[2]));
  g_assert_true (tm_pickle_dict_lookup (p, items[2], "a", &v));
  assert_string (p, v, "x");
  assert_string (p, items[3], "y");
}

/* The memo: MEMOIZE (protocol 4+), BINPUT/LONG_BINPUT (protocol 2), and
 * BINGET/LONG_BINGET give the same value, not a copy. */
static void
test_memo (void)
{
  g_autoptr(GByteArray) b = pk_new (2);
  g_autoptr(TmPickle) p = NULL;
  const TmPickleValue *items;
  gsize n;

  pk_op (b, ']'); pk_op (b, 'q'); pk_le (b, 0, 1);
  pk_op (b, '(');
  pk_str4 (b, "frame"); pk_op (b, 'r'); pk_le (b, 1, 4);
  pk_op (b, 'h'); pk_le (b, 1, 1);
  pk_op (b, 'j'); pk_le (b, 1, 4);
  /* The list itself, through the memo: a list that holds itself. */
  pk_op (b, 'h'); pk_le (b, 0, 1);
  pk_op (b, 'e');
  pk_op (b, '.');

  p = read_ok (b);
  g_assert_cmpuint (tm_pickle_get_protocol (p), ==, 2);
  items = tm_pickle_get_items (p, tm_pickle_get_root (p), &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (items[0], ==, items[1]);
  g_assert_cmpuint (items[0], ==, items[2]);
  assert_string (p, items[2], "frame");
  g_assert_cmpuint (items[3], ==, tm_pickle_get_root (p));
}

/* Protocol 5 as Python 3.14 writes it: FRAMEs, MEMOIZE. */
static void
test_protocol_5 (void)
{
  g_autoptr(GByteArray) b = pk_new (5);
  g_autoptr(TmPickle) p = NULL;
  TmPickleValue v;
  gsize frame_at;

  pk_op (b, 0x95);
  frame_at = b->len;
  pk_le (b, 0, 8);
  pk_op (b, '}'); pk_op (b, 0x94);
  pk_str (b, "segments"); pk_op (b, 0x94);
  pk_op (b, ']'); pk_op (b, 0x94);
  pk_op (b, 's');
  pk_op (b, '.');
  for (guint i = 0; i < 8; i++)
    b->data[frame_at + i] = (guint8) ((b->len - frame_at - 8) >> (8 * i));

  p = read_ok (b);
  g_assert_cmpuint (tm_pickle_get_protocol (p), ==, 5);
  g_assert_true (tm_pickle_dict_lookup (p, tm_pickle_get_root (p), "segments", &v));
  g_assert_cmpint (tm_pickle_kind (p, v), ==, TM_PICKLE_LIST);

  /* A frame that claims more than the file holds. */
  b->data[frame_at] = 0xff;
  read_fails (b, TM_ERROR_TRUNCATED, "FRAME");
}

/* Bytes after STOP are ignored, as pickle.load does. */
static void
test_after_stop (void)
{
  g_autoptr(GByteArray) b = pk_new (4);
  g_autoptr(TmPickle) p = NULL;

  pk_int1 (b, 3);
  pk_op (b, '.');
  pk_raw (b, "\0\0\0garbage", 10);
  p = read_ok (b);
  g_assert_cmpint (int_of (p, tm_pickle_get_root (p)), ==, 3);
}

/* Every opcode that imports, calls or builds an object is refused with its
 * name and byte offset, and nothing after it is read. */
static void
test_refusals (void)
{
  const struct { guint8 op; const char *name; } ops[] = {
    { 'c', "GLOBAL" }, { 0x93, "STACK_GLOBAL" }, { 'R', "REDUCE" }, { 'b', "BUILD" },
    { 'i', "INST" }, { 'o', "OBJ" }, { 0x81, "NEWOBJ" }, { 0x92, "NEWOBJ_EX" },
    { 0x82, "EXT1" }, { 0x83, "EXT2" }, { 0x84, "EXT4" }, { 'P', "PERSID" },
    { 'Q', "BINPERSID" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      g_autoptr(GByteArray) b = pk_new (4);
      g_autofree char *where = NULL;

      pk_str (b, "posix");
      pk_str (b, "system");
      pk_op (b, ops[i].op);
      where = g_strdup_printf ("pickle opcode %s at byte 17 ", ops[i].name);
      read_fails (b, TM_ERROR_UNSAFE, where);
      read_fails (b, TM_ERROR_UNSAFE, "holds Python objects, not a memory snapshot");
    }

  /* Protocol 0, as a hostile file writes it: refused at its first byte. */
  {
    g_autoptr(GByteArray) b = pk_new (0);

    pk_raw (b, "cos\nsystem\n(S'touch x'\ntR.", 26);
    read_fails (b, TM_ERROR_UNSAFE, "GLOBAL at byte 0 ");
  }
  /* Other opcodes plain snapshots never use, and bytes that are none. */
  {
    g_autoptr(GByteArray) b = pk_new (4);

    pk_op (b, 0x8f);
    read_fails (b, TM_ERROR_PICKLE, "EMPTY_SET at byte 2 is not used");
  }
  {
    g_autoptr(GByteArray) b = pk_new (4);

    pk_op (b, 0xfe);
    read_fails (b, TM_ERROR_PICKLE, "0xfe is not a pickle opcode");
  }
  {
    g_autoptr(GByteArray) b = pk_new (4);

    b->data[1] = 6;
    pk_op (b, 'N');
    pk_op (b, '.');
    read_fails (b, TM_ERROR_PICKLE, "protocol 6");
  }
}

/* Malformed stacks and the bounds. */
static void
test_malformed (void)
{
  struct { const char *bytes; gsize n; gint code; const char *fragment; } cases[] = {
    { "\x80\x04.", 3, TM_ERROR_PICKLE, "STOP finds too few values" },
    { "\x80\x04K\x01K\x02\x61.", 7, TM_ERROR_PICKLE, "APPEND adds to a int, not a list" },
    { "\x80\x04}K\x01s.", 6, TM_ERROR_PICKLE, "SETITEM finds too few values" },
    { "\x80\x04}(K\x01u.", 7, TM_ERROR_PICKLE, "SETITEMS finds a key without a value" },
    { "\x80\x04(K\x01u.", 6, TM_ERROR_PICKLE, "SETITEMS finds too few values" },
    { "\x80\x04K\x01\x65.", 5, TM_ERROR_PICKLE, "APPENDS without a MARK" },
    { "\x80\x04(K\x01\x86.", 6, TM_ERROR_PICKLE, "TUPLE2 finds too few values" },
    { "\x80\x04h\x05.", 4, TM_ERROR_PICKLE, "memo slot 5, which was never set" },
    { "\x80\x04K\x01r\xff\xff\xff\x7f.", 9, TM_ERROR_PICKLE, "far beyond" },
    { "\x80\x04\x94.", 4, TM_ERROR_PICKLE, "MEMOIZE finds too few values" },
    { "\x80\x04\x8c\x02\xc3\x28.", 7, TM_ERROR_PICKLE, "not UTF-8 at byte 4" },
    { "\x80\x04(d", 4, TM_ERROR_TRUNCATED, "before its STOP" },
    { "\x80\x04(K\x01\x64.", 6, TM_ERROR_PICKLE, "DICT finds a key without a value" },
    { "\x80\x04\x8b\xff\xff\xff\xff.", 8, TM_ERROR_PICKLE, "negative length" },
    { "\x80\x04" "1.", 4, TM_ERROR_PICKLE, "POP_MARK without a MARK" },
    { "\x80\x04" "0.", 4, TM_ERROR_PICKLE, "POP without a MARK" },
    { "\x80\x04" "2.", 4, TM_ERROR_PICKLE, "DUP finds too few values" },
    { "", 0, TM_ERROR_EMPTY, "empty" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GByteArray) b = g_byte_array_new ();

      pk_raw (b, cases[i].bytes, cases[i].n);
      read_fails (b, cases[i].code, cases[i].fragment);
    }

  /* One MARK more than the bound. */
  {
    g_autoptr(GByteArray) b = pk_new (4);

    for (guint i = 0; i <= TM_PICKLE_MAX_DEPTH; i++)
      pk_op (b, '(');
    read_fails (b, TM_ERROR_TOO_DEEP, "more than 1000 MARKs");
  }
  /* As many as the bound is fine. */
  {
    g_autoptr(GByteArray) b = pk_new (4);
    g_autoptr(TmPickle) p = NULL;

    for (guint i = 0; i < TM_PICKLE_MAX_DEPTH; i++)
      pk_op (b, '(');
    pk_op (b, 'N');
    pk_op (b, '.');
    p = read_ok (b);
  }
}

/* A snapshot-shaped pickle, cut at every byte: each cut is an error at a
 * byte offset inside the file, never a crash. */
static GByteArray *
snapshot_like (guint protocol)
{
  GByteArray *b = pk_new (protocol);
  gboolean p4 = protocol >= 4;

#define STR(s) (p4 ? pk_str (b, s) : pk_str4 (b, s))
#define PUT() (p4 ? pk_op (b, 0x94) : (void) 0)
  pk_op (b, '}'); PUT ();
  pk_op (b, '(');
  STR ("segments"); PUT ();
  pk_op (b, ']'); PUT ();
  pk_op (b, '}'); PUT ();
  pk_op (b, '(');
  STR ("address"); pk_op (b, 0x8a); pk_le (b, 9, 1); pk_le (b, G_MAXUINT64 - 511, 8); pk_le (b, 0, 1);
  STR ("segment_pool_id"); pk_int1 (b, 0); pk_int1 (b, 0); pk_op (b, 0x86);
  STR ("is_expandable"); pk_op (b, 0x89);
  STR ("blocks"); pk_op (b, ']');
  pk_op (b, 'u');
  pk_op (b, 'a');
  STR ("device_traces"); pk_op (b, ']'); pk_op (b, ']'); pk_op (b, 'a');
  pk_op (b, 'u');
  pk_op (b, '.');
#undef STR
#undef PUT
  return b;
}

static void
test_truncation (void)
{
  for (guint protocol = 2; protocol <= 5; protocol++)
    {
      g_autoptr(GByteArray) b = snapshot_like (protocol);
      g_autoptr(TmPickle) whole = read_ok (b);

      for (guint cut = 0; cut < b->len; cut++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(TmPickle) p = tm_pickle_read (b->data, cut, &error);
          g_autofree char *at = NULL;
          guint offset = G_MAXUINT;
          const char *s;

          g_assert_null (p);
          g_assert_nonnull (error);
          if (cut == 0)
            continue;
          g_assert_error (error, TM_ERROR, TM_ERROR_TRUNCATED);
          s = strstr (error->message, "at byte ");
          g_assert_nonnull (s);
          offset = (guint) g_ascii_strtoull (s + 8, NULL, 10);
          g_assert_cmpuint (offset, <=, cut);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pickle/sniff", test_sniff);
  g_test_add_func ("/pickle/scalars", test_scalars);
  g_test_add_func ("/pickle/long-nine-bytes", test_long_nine_bytes);
  g_test_add_func ("/pickle/containers", test_containers);
  g_test_add_func ("/pickle/batches", test_batches);
  g_test_add_func ("/pickle/shapes", test_shapes);
  g_test_add_func ("/pickle/memo", test_memo);
  g_test_add_func ("/pickle/lazy", test_lazy);
  g_test_add_func ("/pickle/lazy-memo-reset", test_lazy_memo_reset);
  g_test_add_func ("/pickle/protocol-5", test_protocol_5);
  g_test_add_func ("/pickle/after-stop", test_after_stop);
  g_test_add_func ("/pickle/refusals", test_refusals);
  g_test_add_func ("/pickle/malformed", test_malformed);
  g_test_add_func ("/pickle/truncation", test_truncation);

  return g_test_run ();
}
