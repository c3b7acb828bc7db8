/* test-wire.c — protobuf wire primitives never read out of bounds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "tm-wire.h"

static void
test_varints (void)
{
  static const guint8 data[] = { 0x01, 0xac, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
  TmWire w;
  guint64 v;

  tm_wire_init (&w, data, sizeof data);
  g_assert_true (tm_wire_read_varint (&w, &v, NULL));
  g_assert_cmpuint (v, ==, 1);
  g_assert_true (tm_wire_read_varint (&w, &v, NULL));
  g_assert_cmpuint (v, ==, 300);
  g_assert_true (tm_wire_read_varint (&w, &v, NULL));
  g_assert_cmpuint (v, ==, G_MAXUINT64);
  g_assert_true (tm_wire_at_end (&w));
}

static void
test_truncated_varint (void)
{
  static const guint8 data[] = { 0x08, 0x96 };
  g_autoptr(GError) error = NULL;
  guint32 field;
  guint wt;
  guint64 v;
  TmWire w;

  tm_wire_init (&w, data, sizeof data);
  g_assert_true (tm_wire_read_tag (&w, &field, &wt, NULL));
  g_assert_cmpuint (field, ==, 1);
  g_assert_cmpuint (wt, ==, TM_WIRE_VARINT);
  g_assert_false (tm_wire_read_varint (&w, &v, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, "byte 1"));
}

static void
test_overlong_varint (void)
{
  static const guint8 data[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };
  g_autoptr(GError) error = NULL;
  guint64 v;
  TmWire w;

  tm_wire_init (&w, data, sizeof data);
  g_assert_false (tm_wire_read_varint (&w, &v, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_NOT_PROTOBUF);
}

static void
test_bad_tags (void)
{
  /* field 0; a start-group; wire type 7 */
  static const guint8 field0[] = { 0x02, 0x00 };
  static const guint8 group[] = { 0x0b };
  static const guint8 wt7[] = { 0x0f };
  const struct { const guint8 *d; gsize n; int code; const char *text; } cases[] = {
    { field0, sizeof field0, TM_ERROR_NOT_PROTOBUF, "byte 0" },
    { group, sizeof group, TM_ERROR_WIRE_TYPE, "field 1 has wire type 3" },
    { wt7, sizeof wt7, TM_ERROR_WIRE_TYPE, "field 1 has wire type 7" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      guint32 field;
      guint wt;
      TmWire w;

      tm_wire_init (&w, cases[i].d, cases[i].n);
      g_assert_false (tm_wire_read_tag (&w, &field, &wt, &error));
      g_assert_error (error, TM_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].text));
    }
}

static void
test_lengths (void)
{
  /* a 3-byte message holding a field that claims 5 bytes */
  static const guint8 data[] = { 0x0a, 0x03, 0x12, 0x05, 0x41, 0x42, 0x43, 0x44 };
  g_autoptr(GError) error = NULL;
  TmWire w, sub, inner;
  guint32 field;
  guint wt;

  tm_wire_init (&w, data, sizeof data);
  g_assert_true (tm_wire_read_tag (&w, &field, &wt, NULL));
  g_assert_true (tm_wire_read_len (&w, &sub, NULL));
  g_assert_cmpint (sub.end - sub.p, ==, 3);
  g_assert_true (tm_wire_read_tag (&sub, &field, &wt, NULL));
  g_assert_cmpuint (field, ==, 2);
  g_assert_false (tm_wire_read_len (&sub, &inner, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_LENGTH);
  g_assert_nonnull (strstr (error->message, "byte 3"));
  g_assert_nonnull (strstr (error->message, "its message ends at byte 5"));

  /* One byte is "1 byte". */
  {
    static const guint8 one[] = { 0x0a, 0x01 };
    g_autoptr(GError) one_error = NULL;

    tm_wire_init (&w, one, sizeof one);
    g_assert_true (tm_wire_read_tag (&w, &field, &wt, NULL));
    g_assert_false (tm_wire_read_len (&w, &sub, &one_error));
    g_assert_cmpstr (one_error->message, ==,
                     "length runs past the end at byte 1: a field claims 1 byte but the file ends at byte 2");
  }
}

static void
test_skip (void)
{
  static const guint8 data[] = {
    0x08, 0x96, 0x01,                                /* varint */
    0x11, 1, 2, 3, 4, 5, 6, 7, 8,                    /* fixed64 */
    0x1a, 0x02, 'h', 'i',                            /* length-delimited */
    0x25, 1, 2, 3, 4,                                /* fixed32 */
    0x29, 1, 2,                                      /* fixed64, truncated */
  };
  g_autoptr(GError) error = NULL;
  TmWire w;
  guint32 field;
  guint wt;

  tm_wire_init (&w, data, sizeof data);
  for (int i = 0; i < 4; i++)
    {
      g_assert_true (tm_wire_read_tag (&w, &field, &wt, NULL));
      g_assert_true (tm_wire_skip (&w, wt, NULL));
    }
  g_assert_true (tm_wire_read_tag (&w, &field, &wt, NULL));
  g_assert_false (tm_wire_skip (&w, wt, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_TRUNCATED);
}

/* Any byte string: every primitive either fails cleanly or stays in bounds. */
static void
test_random_never_escapes (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (int round = 0; round < 20000; round++)
    {
      guint8 buf[32];
      gsize n = g_rand_int_range (rand, 0, sizeof buf + 1);
      TmWire w;

      for (gsize i = 0; i < n; i++)
        buf[i] = (guint8) g_rand_int (rand);

      tm_wire_init (&w, buf, n);
      while (!tm_wire_at_end (&w))
        {
          guint32 field;
          guint wt;

          if (!tm_wire_read_tag (&w, &field, &wt, NULL) || !tm_wire_skip (&w, wt, NULL))
            break;
          g_assert_true (w.p <= w.end);
        }
      g_assert_true (w.p <= buf + n);
    }

  g_rand_free (rand);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/wire/varints", test_varints);
  g_test_add_func ("/wire/truncated-varint", test_truncated_varint);
  g_test_add_func ("/wire/overlong-varint", test_overlong_varint);
  g_test_add_func ("/wire/bad-tags", test_bad_tags);
  g_test_add_func ("/wire/lengths", test_lengths);
  g_test_add_func ("/wire/skip", test_skip);
  g_test_add_func ("/wire/random", test_random_never_escapes);

  return g_test_run ();
}
