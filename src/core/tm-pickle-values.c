/* tm-pickle-values.c — reading the values of a parsed pickle
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "tm-pickle-private.h"

/* ------------------------------------------------------------------ */
/* Values                                                               */


TmPickleKind
tm_pickle_kind (TmPickle      *self,
                TmPickleValue  value)
{
  const TmPickleObj *o;

  switch (value & TAG_MASK)
    {
    case TAG_INT:
      return TM_PICKLE_INT;
    case TAG_CONST:
      return value == WORD_NONE ? TM_PICKLE_NONE : TM_PICKLE_BOOL;
    case TAG_LAZY:
      return TM_PICKLE_DICT;
    default:
      o = obj_of (self, value);
      return o != NULL ? (TmPickleKind) o->kind : TM_PICKLE_NONE;
    }
}

const char *
tm_pickle_kind_name (TmPickleKind kind)
{
  switch (kind)
    {
    case TM_PICKLE_NONE: return "None";
    case TM_PICKLE_BOOL: return "bool";
    case TM_PICKLE_INT: return "int";
    case TM_PICKLE_UINT: return "int";
    case TM_PICKLE_FLOAT: return "float";
    case TM_PICKLE_STRING: return "str";
    case TM_PICKLE_BYTES: return "bytes";
    case TM_PICKLE_TUPLE: return "tuple";
    case TM_PICKLE_LIST: return "list";
    case TM_PICKLE_DICT: return "dict";
    default: return "?";
    }
}

gboolean
tm_pickle_get_int (TmPickle      *self,
                   TmPickleValue  value,
                   gint64        *out)
{
  const TmPickleObj *o;

  if ((value & TAG_MASK) == TAG_INT)
    {
      *out = (gint64) value >> TAG_BITS;
      return TRUE;
    }
  if (value == WORD_TRUE || value == WORD_FALSE)
    {
      *out = value == WORD_TRUE;
      return TRUE;
    }
  o = obj_of (self, value);
  if (o == NULL || o->kind != TM_PICKLE_INT)
    return FALSE;
  *out = o->v.i;
  return TRUE;
}

gboolean
tm_pickle_get_uint (TmPickle      *self,
                    TmPickleValue  value,
                    guint64       *out)
{
  const TmPickleObj *o = obj_of (self, value);
  gint64 i;

  if (o != NULL && o->kind == TM_PICKLE_UINT)
    {
      *out = o->v.u;
      return TRUE;
    }
  if (!tm_pickle_get_int (self, value, &i) || i < 0)
    return FALSE;
  *out = (guint64) i;
  return TRUE;
}

gboolean
tm_pickle_get_double (TmPickle      *self,
                      TmPickleValue  value,
                      double        *out)
{
  const TmPickleObj *o = obj_of (self, value);
  gint64 i;

  if (o != NULL && o->kind == TM_PICKLE_FLOAT)
    *out = o->v.f;
  else if (o != NULL && o->kind == TM_PICKLE_UINT)
    *out = (double) o->v.u;
  else if (tm_pickle_get_int (self, value, &i))
    *out = (double) i;
  else
    return FALSE;
  return TRUE;
}

const char *
tm_pickle_get_string (TmPickle      *self,
                      TmPickleValue  value,
                      gsize         *length)
{
  const TmPickleObj *o = obj_of (self, value);

  if (o == NULL || (o->kind != TM_PICKLE_STRING && o->kind != TM_PICKLE_BYTES))
    return NULL;
  if (length != NULL)
    *length = o->n;
  return (const char *) self->data + o->v.offset;
}

gboolean
tm_pickle_string_equal (TmPickle      *self,
                        TmPickleValue  value,
                        const char    *s)
{
  const TmPickleObj *o = obj_of (self, value);
  gsize n;

  if (o == NULL || o->kind != TM_PICKLE_STRING)
    return FALSE;
  n = strlen (s);
  return o->n == n && memcmp (self->data + o->v.offset, s, n) == 0;
}

gsize
tm_pickle_get_string_offset (TmPickle      *self,
                             TmPickleValue  value)
{
  const TmPickleObj *o = obj_of (self, value);

  return o != NULL && (o->kind == TM_PICKLE_STRING || o->kind == TM_PICKLE_BYTES)
         ? (gsize) o->v.offset : 0;
}

/* A lazy dict's first n values (all of them if it has no more), read
 * again: None for each when the pickle no longer holds them. */
static guint
lazy_read_first (TmPickle      *self,
                 TmPickleValue  dict,
                 guint          n,
                 TmPickleValue *values)
{
  guint shape = lazy_shape (self, dict);

  n = MIN (n, self->shapes[shape].n);
  if (!tm_pickle_lazy_values (self, dict, n, values))
    for (guint i = 0; i < n; i++)
      values[i] = TM_PICKLE_VALUE_NONE;
  return shape;
}

static guint
lazy_read (TmPickle      *self,
           TmPickleValue  dict,
           TmPickleValue *values)
{
  return lazy_read_first (self, dict, G_MAXUINT, values);
}

gsize
tm_pickle_get_length (TmPickle      *self,
                      TmPickleValue  value)
{
  const TmPickleObj *o = obj_of (self, value);

  if ((value & TAG_MASK) == TAG_LAZY)
    return self->shapes[lazy_shape (self, value)].n;
  if (o == NULL || o->kind < TM_PICKLE_TUPLE)
    return 0;
  return o->n;
}

const TmPickleValue *
tm_pickle_get_items (TmPickle      *self,
                     TmPickleValue  value,
                     gsize         *n_items)
{
  const TmPickleObj *o = obj_of (self, value);

  if (o == NULL || (o->kind != TM_PICKLE_LIST && o->kind != TM_PICKLE_TUPLE) || o->n == 0)
    {
      *n_items = 0;
      return NULL;
    }
  *n_items = o->n;
  /* A list's shape is the array of its own it may have. */
  if (o->shape != 0)
    return self->runs[o->shape - 1].items;
  return self->items + o->v.c.start;
}

gsize
tm_pickle_dict_size (TmPickle      *self,
                     TmPickleValue  dict)
{
  const TmPickleObj *o = obj_of (self, dict);

  if ((dict & TAG_MASK) == TAG_LAZY)
    return self->shapes[lazy_shape (self, dict)].n;
  return o != NULL && o->kind == TM_PICKLE_DICT ? o->n : 0;
}

gboolean
tm_pickle_dict_item (TmPickle      *self,
                     TmPickleValue  dict,
                     gsize          i,
                     TmPickleValue *key,
                     TmPickleValue *value)
{
  const TmPickleObj *o = obj_of (self, dict);

  if ((dict & TAG_MASK) == TAG_LAZY)
    {
      TmPickleValue values[MAX_SHAPE_KEYS];
      guint shape = lazy_read (self, dict, values);

      if (i >= self->shapes[shape].n)
        return FALSE;
      *key = self->shape_keys[self->shapes[shape].start + i];
      *value = values[i];
      return TRUE;
    }
  if (o == NULL || o->kind != TM_PICKLE_DICT || i >= o->n)
    return FALSE;
  if (o->shape != 0)
    {
      *key = self->shape_keys[self->shapes[o->shape].start + i];
      *value = self->items[o->v.c.start + i];
    }
  else
    {
      *key = self->items[o->v.c.start + 2 * i];
      *value = self->items[o->v.c.start + 2 * i + 1];
    }
  return TRUE;
}

guint
tm_pickle_dict_shape (TmPickle      *self,
                      TmPickleValue  dict)
{
  const TmPickleObj *o = obj_of (self, dict);

  if ((dict & TAG_MASK) == TAG_LAZY)
    return lazy_shape (self, dict);
  return o != NULL && o->kind == TM_PICKLE_DICT ? o->shape : 0;
}

guint
tm_pickle_dict_get_values (TmPickle      *self,
                           TmPickleValue  dict,
                           TmPickleValue *values)
{
  return tm_pickle_dict_get_first_values (self, dict, G_MAXUINT, values);
}

guint
tm_pickle_dict_get_first_values (TmPickle      *self,
                                 TmPickleValue  dict,
                                 guint          n,
                                 TmPickleValue *values)
{
  const TmPickleObj *o;

  if ((dict & TAG_MASK) == TAG_LAZY)
    return lazy_read_first (self, dict, n, values);
  o = obj_of (self, dict);
  if (o == NULL || o->kind != TM_PICKLE_DICT || o->shape == 0)
    return 0;
  memcpy (values, self->items + o->v.c.start, MIN (o->n, n) * sizeof (TmPickleValue));
  return o->shape;
}

TmPickleValue
tm_pickle_dict_value_at (TmPickle      *self,
                         TmPickleValue  dict,
                         guint          slot)
{
  TmPickleValue values[MAX_SHAPE_KEYS];
  guint shape = tm_pickle_dict_get_values (self, dict, values);

  g_return_val_if_fail (shape != 0 && slot < self->shapes[shape].n, TM_PICKLE_VALUE_NONE);
  return values[slot];
}

static inline gboolean
key_is (TmPickle      *self,
        TmPickleValue  word,
        const char    *key,
        gsize          len)
{
  const TmPickleObj *k = obj_of (self, word);

  return k != NULL && k->kind == TM_PICKLE_STRING && k->n == len &&
         memcmp (self->data + k->v.offset, key, len) == 0;
}

guint
tm_pickle_get_n_shapes (TmPickle *self)
{
  return (guint) self->n_shapes;
}

gint
tm_pickle_shape_find (TmPickle   *self,
                      guint       shape,
                      const char *key)
{
  gsize len = strlen (key);
  const TmPickleShape *sh;

  if (shape == 0 || shape >= self->n_shapes)
    return -1;
  sh = &self->shapes[shape];
  /* Backwards: a key set twice takes its later value, as in Python. */
  for (guint32 i = sh->n; i-- > 0;)
    if (key_is (self, self->shape_keys[sh->start + i], key, len))
      return (gint) i;
  return -1;
}

gboolean
tm_pickle_dict_lookup (TmPickle      *self,
                       TmPickleValue  dict,
                       const char    *key,
                       TmPickleValue *out)
{
  const TmPickleObj *o = obj_of (self, dict);
  gsize len = strlen (key);

  if ((dict & TAG_MASK) == TAG_LAZY)
    {
      TmPickleValue values[MAX_SHAPE_KEYS];
      gint slot = tm_pickle_shape_find (self, lazy_read (self, dict, values), key);

      if (slot < 0)
        return FALSE;
      *out = values[slot];
      return TRUE;
    }
  if (o == NULL || o->kind != TM_PICKLE_DICT)
    return FALSE;
  if (o->shape != 0)
    {
      gint slot = tm_pickle_shape_find (self, o->shape, key);

      if (slot < 0)
        return FALSE;
      *out = self->items[o->v.c.start + (guint) slot];
      return TRUE;
    }
  for (gsize i = o->n; i-- > 0;)
    if (key_is (self, self->items[o->v.c.start + 2 * i], key, len))
      {
        *out = self->items[o->v.c.start + 2 * i + 1];
        return TRUE;
      }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Lazy dicts, read again                                               */

gboolean
tm_pickle_lazy_values (TmPickle      *self,
                       TmPickleValue  dict,
                       guint          n_values,
                       TmPickleValue *values)
{
  gsize pos = (gsize) (dict >> LAZY_OFFSET_SHIFT);
  guint n = 2 * MIN (n_values, self->shapes[lazy_shape (self, dict)].n);

  /* The parser checked these bytes; they are read again with every check,
   * since the file may have changed since. */
  for (guint i = 0; i < n;)
    {
      guint64 word;

      /* A key that is a memo reference: only skipped. */
      if (!(i & 1) && pos + 5 <= self->size &&
          (self->data[pos] == OP_LONG_BINGET || self->data[pos] == OP_BINGET))
        {
          pos += self->data[pos] == OP_LONG_BINGET ? 5 : 2;
          i++;
          continue;
        }
      switch (tm_pickle_read_plain (self->data, self->size, &pos, self->memo, self->memo_len, &word))
        {
        case PLAIN_VALUE:
          if (i & 1)
            values[i >> 1] = word;
          i++;
          break;
        case PLAIN_FRAME:
        case PLAIN_MEMO:
          break;
        case PLAIN_OTHER:
        default:
          return FALSE;
        }
    }
  return TRUE;
}
