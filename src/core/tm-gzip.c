/* tm-gzip.c — gzip files, inflated in memory within a limit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <zlib.h>
#include <glib/gi18n.h>

#include "tm-error.h"
#include "tm-gzip.h"

/* docs/formats.md, "Hostile input": an XProf memory-profile JSON
 * compresses about 25:1, json-glib's tree takes some 26 times the text;
 * a snapshot pickle 5 to 20 times, and its reader keeps 16 bytes per
 * trace entry of some 80. */
#define GZIP_MAX_RATIO   64
#define JSON_MIN_LIMIT   ((gsize) 8 << 20)
#define JSON_MAX_LIMIT   ((gsize) 256 << 20)
#define PICKLE_MIN_LIMIT ((gsize) 64 << 20)

gboolean
tm_gzip_sniff (const guint8 *data,
               gsize         size)
{
  return size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

gsize
tm_gzip_limit (TmGzipContent content,
               gsize         size)
{
  gsize scaled = size > G_MAXSIZE / GZIP_MAX_RATIO ? G_MAXSIZE : size * GZIP_MAX_RATIO;

  if (content == TM_GZIP_JSON)
    return CLAMP (scaled, JSON_MIN_LIMIT, JSON_MAX_LIMIT);
  return MAX (scaled, PICKLE_MIN_LIMIT);
}

gsize
tm_gzip_inflate_start (const guint8 *data,
                       gsize         size,
                       guint8       *buf,
                       gsize         length)
{
  z_stream zs;
  gsize n;

  memset (&zs, 0, sizeof zs);
  if (inflateInit2 (&zs, 16 + MAX_WBITS) != Z_OK)
    return 0;
  zs.next_in = (Bytef *) data;
  zs.avail_in = (uInt) MIN (size, (gsize) G_MAXUINT32);
  zs.next_out = buf;
  zs.avail_out = (uInt) MIN (length, (gsize) G_MAXUINT32);
  inflate (&zs, Z_SYNC_FLUSH);
  n = length - zs.avail_out;
  inflateEnd (&zs);
  return n;
}

/* FALSE once the inflated text so far cannot start a JSON object; sets
 * *decided when it has seen its first byte that is not white space. */
static gboolean
looks_like_json (const guint8 *data,
                 gsize         size,
                 gboolean     *decided)
{
  gsize i = 0;

  if (size >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf)
    i = 3;
  else if (size < 3 && size > 0 && data[0] == 0xef)
    return TRUE;  /* maybe a byte order mark: wait for more */
  for (; i < size; i++)
    {
      if (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r')
        continue;
      *decided = TRUE;
      return data[i] == '{';
    }
  /* Only white space so far: fine for a while, not for ever. */
  return size < 65536;
}

/* FALSE once the inflated bytes so far cannot start a pickle of protocol
 * 2 to 5. */
static gboolean
looks_like_pickle (const guint8 *data,
                   gsize         size,
                   gboolean     *decided)
{
  if (size < 2)
    return size == 0 || data[0] == 0x80;
  *decided = TRUE;
  return data[0] == 0x80 && data[1] >= 2 && data[1] <= 5;
}

GBytes *
tm_gzip_inflate (const guint8  *data,
                 gsize          size,
                 TmGzipContent  content,
                 GCancellable  *cancellable,
                 GError       **error)
{
  z_stream zs;
  GByteArray *out = g_byte_array_new ();
  gsize limit = tm_gzip_limit (content, size);
  gboolean decided = FALSE;
  gsize rest;
  int ret;

  memset (&zs, 0, sizeof zs);
  if (inflateInit2 (&zs, 16 + MAX_WBITS) != Z_OK)
    {
      g_byte_array_unref (out);
      g_set_error (error, TM_ERROR, TM_ERROR_READ, _("cannot decompress: zlib failed to start"));
      return NULL;
    }

  zs.next_in = (Bytef *) data;
  do
    {
      guint8 buf[65536];
      gsize chunk = MIN (size - (gsize) ((const guint8 *) zs.next_in - data), (gsize) G_MAXUINT32);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto fail;
      zs.avail_in = (uInt) chunk;
      zs.next_out = buf;
      zs.avail_out = sizeof buf;
      ret = inflate (&zs, Z_NO_FLUSH);
      if (ret != Z_OK && ret != Z_STREAM_END)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED,
                       ret == Z_BUF_ERROR
                       ? _("truncated at byte %lu: the gzip stream ends early")
                       : _("corrupt gzip data at byte %lu"),
                       zs.total_in);
          goto fail;
        }
      g_byte_array_append (out, buf, sizeof buf - zs.avail_out);
      if (!decided && content == TM_GZIP_JSON && !looks_like_json (out->data, out->len, &decided))
        {
          g_set_error (error, TM_ERROR, TM_ERROR_NOT_PROTOBUF,
                       _("not a profile: the compressed file does not hold a memory-profile JSON"));
          goto fail;
        }
      if (!decided && content == TM_GZIP_PICKLE && !looks_like_pickle (out->data, out->len, &decided))
        {
          g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                       _("not a memory snapshot: the compressed file does not hold a pickle of protocol 2 to 5"));
          goto fail;
        }
      if (out->len > limit)
        {
          g_autofree char *text = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);

          g_set_error (error, TM_ERROR, TM_ERROR_TOO_LARGE,
                       content == TM_GZIP_JSON
                       ? _("too large: the compressed file inflates to more than %s, "
                           "more than a memory-profile JSON of its size can hold")
                       : _("too large: the compressed file inflates to more than %s, "
                           "more than a memory snapshot of its size can hold"), text);
          goto fail;
        }
      if (ret != Z_STREAM_END && zs.avail_in == 0 && sizeof buf - zs.avail_out == 0)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED,
                       _("truncated at byte %lu: the gzip stream ends early"), zs.total_in);
          goto fail;
        }
    }
  while (ret != Z_STREAM_END);

  if (content == TM_GZIP_PICKLE && !decided && !looks_like_pickle (out->data, out->len, &decided))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                   _("not a memory snapshot: the compressed file does not hold a pickle of protocol 2 to 5"));
      goto fail;
    }

  /* One gzip member and nothing after it. */
  rest = size - (gsize) ((const guint8 *) zs.next_in - data);
  if (rest > 0)
    {
      gsize at = size - rest;

      if (rest >= 2 && zs.next_in[0] == 0x1f && zs.next_in[1] == 0x8b)
        g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                     _("a second gzip member starts at byte %zu: Tidemark reads files of one member"), at);
      else
        g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                     g_dngettext (GETTEXT_PACKAGE,
                                  "%zu byte of trailing data after the gzip stream, at byte %zu",
                                  "%zu bytes of trailing data after the gzip stream, from byte %zu",
                                  (gulong) rest),
                     rest, at);
      goto fail;
    }

  inflateEnd (&zs);
  return g_byte_array_free_to_bytes (out);

fail:
  inflateEnd (&zs);
  g_byte_array_unref (out);
  return NULL;
}
