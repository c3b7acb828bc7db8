/* tm-wire.h — protobuf wire primitives over a bounds-checked cursor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TmWire is a window [p, end) of a buffer that starts at base; offsets in
 * errors are from base, so they are byte offsets into the file. Nothing here
 * reads outside [p, end), whatever the bytes say. Uses only tm-error.
 */
#pragma once

#include <glib.h>

#include "tm-error.h"

G_BEGIN_DECLS

typedef enum
{
  TM_WIRE_VARINT = 0,
  TM_WIRE_I64    = 1,
  TM_WIRE_LEN    = 2,
  TM_WIRE_SGROUP = 3,
  TM_WIRE_EGROUP = 4,
  TM_WIRE_I32    = 5,
} TmWireType;

typedef struct
{
  const guint8 *base;   /* start of the file: offsets are relative to it */
  const guint8 *p;      /* next byte */
  const guint8 *end;    /* end of this message */
  const guint8 *limit;  /* end of the file */
} TmWire;

static inline void
tm_wire_init (TmWire       *w,
              const guint8 *data,
              gsize         size)
{
  w->base = data;
  w->p = data;
  w->end = data + size;
  w->limit = data + size;
}

static inline gsize
tm_wire_offset (const TmWire *w)
{
  return (gsize) (w->p - w->base);
}

static inline gboolean
tm_wire_at_end (const TmWire *w)
{
  return w->p >= w->end;
}

gboolean tm_wire_read_varint_slow (TmWire   *w,
                                   guint64  *value,
                                   GError  **error);

static inline gboolean
tm_wire_read_varint (TmWire   *w,
                     guint64  *value,
                     GError  **error)
{
  const guint8 *p = w->p;

  if (G_LIKELY (w->limit - p >= 10 && p < w->end))
    {
      /* Enough bytes in the buffer for any varint: no bounds checks inside;
       * one that ends past this message's end is left to the slow path,
       * which reports it. */
      guint64 result = 0;

      for (guint shift = 0; shift < 70; shift += 7)
        {
          guint8 b = *p++;

          result |= (guint64) (b & 0x7f) << shift;
          if (b < 0x80)
            {
              if (G_UNLIKELY (p > w->end))
                break;
              w->p = p;
              *value = result;
              return TRUE;
            }
        }
    }
  else if (G_LIKELY (p < w->end && *p < 0x80))
    {
      *value = *p;
      w->p = p + 1;
      return TRUE;
    }
  return tm_wire_read_varint_slow (w, value, error);
}

/* Reads a tag. Fails on field number 0 and on wire types the format does
 * not use (groups, 6, 7), naming the field, the wire type and the offset. */
gboolean tm_wire_read_tag_slow (TmWire   *w,
                                guint32  *field,
                                guint    *wire_type,
                                GError  **error);

static inline gboolean
tm_wire_read_tag (TmWire   *w,
                  guint32  *field,
                  guint    *wire_type,
                  GError  **error)
{
  if (G_LIKELY (w->p < w->end && *w->p < 0x80))
    {
      guint8 b = *w->p;
      guint wt = b & 7;

      if (G_LIKELY ((b >> 3) != 0 && (wt == 0 || wt == 1 || wt == 2 || wt == 5)))
        {
          w->p++;
          *field = b >> 3;
          *wire_type = wt;
          return TRUE;
        }
    }
  return tm_wire_read_tag_slow (w, field, wire_type, error);
}

/* The value of a varint of len bytes (1 to 8), given as the little-endian
 * word that starts with it (bytes past it are ignored): its 7-bit groups
 * packed in three steps instead of a loop per byte. */
static inline guint64
tm_wire_pack_short_varint (guint64 word,
                           guint   len)
{
  guint64 x = (word << (64 - 8 * len)) >> (64 - 8 * len);

  x &= G_GUINT64_CONSTANT (0x7f7f7f7f7f7f7f7f);
  x = ((x & G_GUINT64_CONSTANT (0x7f007f007f007f00)) >> 1) | (x & G_GUINT64_CONSTANT (0x007f007f007f007f));
  x = ((x & G_GUINT64_CONSTANT (0x3fff00003fff0000)) >> 2) | (x & G_GUINT64_CONSTANT (0x00003fff00003fff));
  x = ((x & G_GUINT64_CONSTANT (0x0fffffff00000000)) >> 4) | (x & G_GUINT64_CONSTANT (0x000000000fffffff));
  return x;
}

gboolean tm_wire_set_length_error (TmWire   *w,
                                   gsize     offset,
                                   guint64   len,
                                   GError  **error);

/* Reads a length prefix and gives the sub-message in sub; w moves past it. */
static inline gboolean
tm_wire_read_len (TmWire   *w,
                  TmWire   *sub,
                  GError  **error)
{
  const guint8 *start = w->p;
  guint64 len;

  if (G_UNLIKELY (!tm_wire_read_varint (w, &len, error)))
    return FALSE;

  if (G_UNLIKELY (len > (guint64) (w->end - w->p)))
    return tm_wire_set_length_error (w, (gsize) (start - w->base), len, error);

  sub->base = w->base;
  sub->p = w->p;
  sub->end = w->p + len;
  sub->limit = w->limit;
  w->p += len;
  return TRUE;
}
gboolean tm_wire_read_fixed64 (TmWire   *w,
                               guint64  *value,
                               GError  **error);
gboolean tm_wire_skip_slow    (TmWire   *w,
                               guint     wire_type,
                               GError  **error);

/* Skips a value of wire_type. */
static inline gboolean
tm_wire_skip (TmWire   *w,
              guint     wire_type,
              GError  **error)
{
  if (G_LIKELY (wire_type == TM_WIRE_LEN))
    {
      TmWire sub;

      return tm_wire_read_len (w, &sub, error);
    }
  if (G_LIKELY (wire_type == TM_WIRE_VARINT))
    {
      guint64 ignored;

      return tm_wire_read_varint (w, &ignored, error);
    }
  return tm_wire_skip_slow (w, wire_type, error);
}

/* Reads a field's value as a 64-bit integer whatever its wire type holds
 * (varint, fixed64, fixed32); LEN is an error. */
gboolean tm_wire_read_int     (TmWire   *w,
                               guint     wire_type,
                               guint32   field,
                               guint64  *value,
                               GError  **error);

/* Sets error "field F has wire type W at byte N (expected E)". */
void     tm_wire_set_wire_type_error (GError      **error,
                                      const char   *message,
                                      guint32       field,
                                      guint         wire_type,
                                      gsize         offset);

gboolean tm_wire_expect_type_slow    (TmWire       *w,
                                      guint32       field,
                                      guint         wire_type,
                                      const char   *where,
                                      GError      **error);

/* Checks that a field just read by tm_wire_read_tag() (a one-byte tag) has
 * the expected wire type; otherwise sets a wire type error that says where
 * (a msgid marked with N_(), translated only then). */
static inline gboolean
tm_wire_expect_type (TmWire      *w,
                     guint32      field,
                     guint        wire_type,
                     guint        expected,
                     const char  *where,
                     GError     **error)
{
  if (G_LIKELY (wire_type == expected))
    return TRUE;
  return tm_wire_expect_type_slow (w, field, wire_type, where, error);
}

G_END_DECLS
