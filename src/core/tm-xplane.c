/* tm-xplane.c — the structure of an XSpace: planes, lines, metadata
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Any field may come in any order and more than once (the later singular
 * value wins); unknown fields are skipped; a known field with the wrong wire
 * type is an error.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-error.h"
#include "tm-xplane.h"

enum { MAP_KEY = 1, MAP_VALUE = 2 };
enum { METADATA_ID = 1, METADATA_NAME = 2 };

/* Reads a map<int64, X{id=1, name=2}> entry: key and the value's name. */
static gboolean
read_metadata_entry (TmWire   *entry,
                     gint64   *key,
                     TmStr    *name,
                     GError  **error)
{
  *key = 0;
  name->ptr = NULL;
  name->len = 0;

  while (!tm_wire_at_end (entry))
    {
      guint32 field;
      guint wt;

      if (!tm_wire_read_tag (entry, &field, &wt, error))
        return FALSE;

      if (field == MAP_KEY)
        {
          guint64 v;

          if (!tm_wire_expect_type (entry, field, wt, TM_WIRE_VARINT, N_("in a metadata map key"), error) ||
              !tm_wire_read_varint (entry, &v, error))
            return FALSE;
          *key = (gint64) v;
        }
      else if (field == MAP_VALUE)
        {
          TmWire value;

          if (!tm_wire_expect_type (entry, field, wt, TM_WIRE_LEN, N_("in a metadata map value"), error) ||
              !tm_wire_read_len (entry, &value, error))
            return FALSE;

          /* Occurrences of a message field merge: a later name wins. */
          while (!tm_wire_at_end (&value))
            {
              if (!tm_wire_read_tag (&value, &field, &wt, error))
                return FALSE;
              if (field == METADATA_NAME)
                {
                  if (!tm_wire_expect_type (&value, field, wt, TM_WIRE_LEN, N_("in a metadata name"), error) ||
                      !tm_str_read (&value, name, error))
                    return FALSE;
                }
              else if (!tm_wire_skip (&value, wt, error))
                return FALSE;
            }
        }
      else if (!tm_wire_skip (entry, wt, error))
        return FALSE;
    }

  return TRUE;
}

void
tm_xplane_parts_clear (TmXPlaneParts *parts)
{
  g_clear_pointer (&parts->lines, g_array_unref);
  g_clear_pointer (&parts->event_md, g_array_unref);
  g_clear_pointer (&parts->stat_md, g_array_unref);
}

gboolean
tm_xplane_scan (TmWire      plane,
            gboolean    collect,
            TmXPlaneParts *parts,
            GError    **error)
{
  memset (parts, 0, sizeof *parts);
  if (collect)
    {
      parts->lines = g_array_new (FALSE, FALSE, sizeof (TmWire));
      parts->event_md = g_array_new (FALSE, FALSE, sizeof (TmWire));
      parts->stat_md = g_array_new (FALSE, FALSE, sizeof (TmWire));
    }

  while (!tm_wire_at_end (&plane))
    {
      guint32 field;
      guint wt;
      TmWire sub;

      if (!tm_wire_read_tag (&plane, &field, &wt, error))
        return FALSE;

      switch (field)
        {
        case TM_XPLANE_NAME:
          if (!tm_wire_expect_type (&plane, field, wt, TM_WIRE_LEN, N_("in XPlane.name"), error) ||
              !tm_str_read (&plane, &parts->name, error))
            return FALSE;
          parts->has_name = TRUE;
          break;

        case TM_XPLANE_LINES:
        case TM_XPLANE_EVENT_METADATA:
        case TM_XPLANE_STAT_METADATA:
          if (!tm_wire_expect_type (&plane, field, wt, TM_WIRE_LEN,
                                 field == TM_XPLANE_LINES ? N_("in XPlane.lines") : N_("in an XPlane metadata map"),
                                 error) ||
              !tm_wire_read_len (&plane, &sub, error))
            return FALSE;
          if (collect)
            g_array_append_val (field == TM_XPLANE_LINES ? parts->lines
                                : field == TM_XPLANE_EVENT_METADATA ? parts->event_md
                                : parts->stat_md,
                                sub);
          break;

        case TM_XPLANE_ID:
          if (!tm_wire_expect_type (&plane, field, wt, TM_WIRE_VARINT, N_("in XPlane.id"), error) ||
              !tm_wire_skip (&plane, wt, error))
            return FALSE;
          break;

        default:
          if (!tm_wire_skip (&plane, wt, error))
            return FALSE;
          break;
        }
    }

  return TRUE;
}

gboolean
tm_xplane_read_names (GArray   *wires,
              GArray   *entries,
              gint64   *max_small,
              GError  **error)
{
  *max_small = -1;

  for (guint i = 0; i < wires->len; i++)
    {
      TmMetadataName e;

      if (!read_metadata_entry (&g_array_index (wires, TmWire, i), &e.id, &e.name, error))
        return FALSE;
      g_array_append_val (entries, e);
      if (e.id >= 0 && e.id < (gint64) TM_SMALL_ID_LIMIT && e.id > *max_small)
        *max_small = e.id;
    }

  return TRUE;
}

gboolean
tm_xline_scan (TmWire    line,
           gboolean  until_events,
           TmXLineInfo *info,
           GError  **error)
{
  info->wire = line;
  info->name.ptr = NULL;
  info->name.len = 0;
  info->timestamp_ns = 0;

  while (!tm_wire_at_end (&line))
    {
      guint32 field;
      guint wt;

      if (until_events && line.p[0] == ((TM_XLINE_EVENTS << 3) | TM_WIRE_LEN))
        break;

      /* Events are most of a line: skip them in a tight loop (tag 0x22,
       * length below 16 KiB). */
      while (line.end - line.p >= 3 && line.p[0] == 0x22)
        {
          gsize len;
          const guint8 *q = line.p + 1;

          if (q[0] < 0x80)
            len = q[0], q += 1;
          else if (q[1] < 0x80)
            len = (gsize) (q[0] & 0x7f) | ((gsize) q[1] << 7), q += 2;
          else
            break;
          if (len > (gsize) (line.end - q))
            break;
          line.p = q + len;
        }
      if (tm_wire_at_end (&line))
        break;

      if (!tm_wire_read_tag (&line, &field, &wt, error))
        return FALSE;

      if (field == TM_XLINE_NAME)
        {
          if (!tm_wire_expect_type (&line, field, wt, TM_WIRE_LEN, N_("in XLine.name"), error) ||
              !tm_str_read (&line, &info->name, error))
            return FALSE;
        }
      else if (field == TM_XLINE_TIMESTAMP_NS)
        {
          guint64 v;

          if (!tm_wire_expect_type (&line, field, wt, TM_WIRE_VARINT, N_("in XLine.timestamp_ns"), error) ||
              !tm_wire_read_varint (&line, &v, error))
            return FALSE;
          info->timestamp_ns = (gint64) v;
        }
      else if (field == TM_XLINE_EVENTS)
        {
          if (!tm_wire_expect_type (&line, field, wt, TM_WIRE_LEN, N_("in XLine.events"), error) ||
              !tm_wire_skip (&line, wt, error))
            return FALSE;
        }
      else if (!tm_wire_skip (&line, wt, error))
        return FALSE;
    }

  return TRUE;
}

void
tm_xspace_explain_error (GError **error)
{
  if (error == NULL || *error == NULL || (*error)->domain != TM_ERROR)
    return;

  switch ((*error)->code)
    {
    case TM_ERROR_NOT_PROTOBUF:
    case TM_ERROR_TRUNCATED:
    case TM_ERROR_WIRE_TYPE:
    case TM_ERROR_LENGTH:
    case TM_ERROR_TOO_DEEP:
      /* Translators: the start of an error message; the detail follows,
       * e.g. "field 12 has wire type 7 (invalid) at byte 113" */
      g_prefix_error (error, "%s", _("not a profile, or a damaged one: "));
      break;
    default:
      break;
    }
}

gboolean
tm_xspace_next_plane (TmWire    *space,
                      TmWire    *plane,
                      gboolean  *found,
                      GError   **error)
{
  *found = FALSE;

  while (!tm_wire_at_end (space))
    {
      guint32 field;
      guint wt;

      if (tm_wire_offset (space) == 0)
        {
          g_autoptr(GError) inner = NULL;

          if (!tm_wire_read_tag (space, &field, &wt, &inner))
            {
              g_set_error (error, TM_ERROR, TM_ERROR_NOT_PROTOBUF,
                           _("the file is neither an XSpace protobuf nor a memory-profile JSON (%s)"),
                           inner->message);
              return FALSE;
            }
        }
      else if (!tm_wire_read_tag (space, &field, &wt, error))
        return FALSE;

      if (field != TM_XSPACE_PLANES)
        {
          if (!tm_wire_skip (space, wt, error))
            return FALSE;
          continue;
        }
      if (!tm_wire_expect_type (space, field, wt, TM_WIRE_LEN, N_("in XSpace.planes"), error) ||
          !tm_wire_read_len (space, plane, error))
        return FALSE;
      *found = TRUE;
      return TRUE;
    }

  return TRUE;
}
