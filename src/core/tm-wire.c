/* tm-wire.c — protobuf wire primitives over a bounds-checked cursor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "tm-wire.h"

static const char *
wire_type_name (guint wire_type)
{
  switch (wire_type)
    {
    case TM_WIRE_VARINT: return "varint";
    case TM_WIRE_I64: return "64-bit";
    case TM_WIRE_LEN: return "length-delimited";
    case TM_WIRE_SGROUP: return "start-group";
    case TM_WIRE_EGROUP: return "end-group";
    case TM_WIRE_I32: return "32-bit";
    default: return "invalid";
    }
}

static void
set_truncated (TmWire  *w,
               gsize    offset,
               GError **error)
{
  if (w->end == w->limit)
    g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED,
                 _("truncated at byte %zu: the file ends inside a field"),
                 offset);
  else
    g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED,
                 _("truncated at byte %zu: a field runs past the end of its message at byte %zu"),
                 offset, (gsize) (w->end - w->base));
}

gboolean
tm_wire_read_varint_slow (TmWire   *w,
                          guint64  *value,
                          GError  **error)
{
  const guint8 *p = w->p;
  guint64 result = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 b;

      if (p >= w->end)
        {
          set_truncated (w, (gsize) (w->p - w->base), error);
          return FALSE;
        }

      b = *p++;
      result |= (guint64) (b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        {
          w->p = p;
          *value = result;
          return TRUE;
        }
    }

  g_set_error (error, TM_ERROR, TM_ERROR_NOT_PROTOBUF,
               _("malformed varint at byte %zu: longer than 10 bytes"),
               (gsize) (w->p - w->base));
  return FALSE;
}

void
tm_wire_set_wire_type_error (GError     **error,
                             const char  *message,
                             guint32      field,
                             guint        wire_type,
                             gsize        offset)
{
  if (message != NULL)
    g_set_error (error, TM_ERROR, TM_ERROR_WIRE_TYPE,
                 _("field %u has wire type %u (%s) at byte %zu: %s"),
                 field, wire_type, wire_type_name (wire_type), offset, message);
  else
    g_set_error (error, TM_ERROR, TM_ERROR_WIRE_TYPE,
                 _("field %u has wire type %u (%s) at byte %zu"),
                 field, wire_type, wire_type_name (wire_type), offset);
}

gboolean
tm_wire_read_tag_slow (TmWire   *w,
                       guint32  *field,
                       guint    *wire_type,
                       GError  **error)
{
  gsize offset = tm_wire_offset (w);
  guint64 tag;
  guint wt;

  if (!tm_wire_read_varint (w, &tag, error))
    return FALSE;

  wt = tag & 7;
  if ((tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NOT_PROTOBUF,
                   _("not a valid protobuf field tag at byte %zu (field number %" PRIu64 ")"),
                   offset, tag >> 3);
      return FALSE;
    }

  if (wt != TM_WIRE_VARINT && wt != TM_WIRE_I64 && wt != TM_WIRE_LEN && wt != TM_WIRE_I32)
    {
      tm_wire_set_wire_type_error (error,
                                   wt == TM_WIRE_SGROUP || wt == TM_WIRE_EGROUP
                                   ? _("groups are not used by profiles")
                                   : _("no such wire type"),
                                   (guint32) (tag >> 3), wt, offset);
      return FALSE;
    }

  *field = (guint32) (tag >> 3);
  *wire_type = wt;
  return TRUE;
}

gboolean
tm_wire_set_length_error (TmWire   *w,
                          gsize     offset,
                          guint64   len,
                          GError  **error)
{
  gulong n = (gulong) MIN (len, G_MAXULONG);  /* for the plural only */

  if (w->end == w->limit)
    g_set_error (error, TM_ERROR, TM_ERROR_LENGTH,
                 g_dngettext (GETTEXT_PACKAGE,
                              "length runs past the end at byte %zu: a field claims %" PRIu64 " byte but the file ends at byte %zu",
                              "length runs past the end at byte %zu: a field claims %" PRIu64 " bytes but the file ends at byte %zu",
                              n),
                 offset, len, (gsize) (w->limit - w->base));
  else
    g_set_error (error, TM_ERROR, TM_ERROR_LENGTH,
                 g_dngettext (GETTEXT_PACKAGE,
                              "length runs past the end at byte %zu: a field claims %" PRIu64 " byte but its message ends at byte %zu",
                              "length runs past the end at byte %zu: a field claims %" PRIu64 " bytes but its message ends at byte %zu",
                              n),
                 offset, len, (gsize) (w->end - w->base));
  return FALSE;
}

gboolean
tm_wire_read_fixed64 (TmWire   *w,
                      guint64  *value,
                      GError  **error)
{
  guint64 v = 0;

  if (w->end - w->p < 8)
    {
      set_truncated (w, tm_wire_offset (w), error);
      return FALSE;
    }

  for (int i = 7; i >= 0; i--)
    v = (v << 8) | w->p[i];
  w->p += 8;
  *value = v;
  return TRUE;
}

gboolean
tm_wire_skip_slow (TmWire   *w,
                   guint     wire_type,
                   GError  **error)
{
  guint64 ignored;
  TmWire sub;

  switch (wire_type)
    {
    case TM_WIRE_VARINT:
      return tm_wire_read_varint (w, &ignored, error);

    case TM_WIRE_I64:
      return tm_wire_read_fixed64 (w, &ignored, error);

    case TM_WIRE_LEN:
      return tm_wire_read_len (w, &sub, error);

    case TM_WIRE_I32:
      if (w->end - w->p < 4)
        {
          set_truncated (w, tm_wire_offset (w), error);
          return FALSE;
        }
      w->p += 4;
      return TRUE;

    default:
      g_assert_not_reached ();
      return FALSE;
    }
}

gboolean
tm_wire_read_int (TmWire   *w,
                  guint     wire_type,
                  guint32   field,
                  guint64  *value,
                  GError  **error)
{
  gsize offset = tm_wire_offset (w);

  switch (wire_type)
    {
    case TM_WIRE_VARINT:
      return tm_wire_read_varint (w, value, error);

    case TM_WIRE_I64:
      return tm_wire_read_fixed64 (w, value, error);

    case TM_WIRE_I32:
      if (w->end - w->p < 4)
        {
          set_truncated (w, offset, error);
          return FALSE;
        }
      *value = (guint32) (w->p[0] | (w->p[1] << 8) | (w->p[2] << 16) | ((guint32) w->p[3] << 24));
      w->p += 4;
      return TRUE;

    default:
      tm_wire_set_wire_type_error (error, _("expected a number"), field, wire_type, offset);
      return FALSE;
    }
}

gboolean
tm_wire_expect_type_slow (TmWire      *w,
                          guint32      field,
                          guint        wire_type,
                          const char  *where,
                          GError     **error)
{
  /* The tag is one byte for every field number checked this way. */
  tm_wire_set_wire_type_error (error, _(where), field, wire_type, tm_wire_offset (w) - 1);
  return FALSE;
}
