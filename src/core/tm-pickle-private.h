/* tm-pickle-private.h — what the pickle reader's two files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-pickle.c parses; tm-pickle-values.c reads the values it made.
 */
#pragma once

#include "tm-pickle.h"

G_BEGIN_DECLS

/* A word: the low 3 bits say what the rest is. */
#define TAG_BITS  3
#define TAG_MASK  ((guint64) 7)
#define TAG_OBJ   ((guint64) 0)  /* index into the arena */
#define TAG_INT   ((guint64) 1)  /* a signed 61-bit integer */
#define TAG_CONST ((guint64) 2)  /* 0 None, 1 False, 2 True */
#define UNSET     ((guint64) 7)  /* a memo slot never set */

#define WORD_NONE  (TAG_CONST | (0 << TAG_BITS))
#define WORD_FALSE (TAG_CONST | (1 << TAG_BITS))
#define WORD_TRUE  (TAG_CONST | (2 << TAG_BITS))

#define SMALL_MIN (-((gint64) 1 << 60))
#define SMALL_MAX (((gint64) 1 << 60) - 1)

/* Items and objects are counted in 32 bits. */
#define MAX_COUNT ((gsize) G_MAXUINT32 - 1)

typedef struct
{
  guint32 kind : 8;    /* TmPickleKind */
  guint32 shape : 24;  /* dicts: 0, or the shape whose keys they have */
  guint32 n;           /* string length; list/tuple items; dict pairs */
  union
  {
    gint64  i;
    guint64 u;
    double  f;
    guint64 offset;  /* strings: where the data starts in the pickle */
    struct
    {
      guint32 start;  /* first item word */
      guint32 cap;    /* words reserved from start */
    } c;
  } v;
} TmPickleObj;

/* Dicts of the same keys (trace entries, frames, blocks) share them: a
 * shape holds the key words once, and each such dict holds only its
 * values. */
#define MAX_SHAPE_KEYS 64
#define MAX_SHAPES     ((1 << 24) - 1)
#define SHAPE_CACHE    8

typedef struct
{
  guint32 start;  /* first key word in shape_keys */
  guint32 n;
} TmPickleShape;

struct _TmPickle
{
  const guint8 *data;
  gsize         size;
  guint         protocol;
  TmPickleValue root;

  TmPickleObj          *objs;
  gsize         n_objs;
  gsize         objs_cap;
  guint64      *items;
  gsize         n_items;
  gsize         items_cap;
  TmPickleShape        *shapes;      /* shapes[0] is unused: 0 means none */
  gsize         n_shapes;
  gsize         shapes_cap;
  guint64      *shape_keys;
  gsize         n_shape_keys;
  gsize         shape_keys_cap;
};

static inline const TmPickleObj *
obj_of (TmPickle      *self,
        TmPickleValue  value)
{
  if ((value & TAG_MASK) != TAG_OBJ || (value >> TAG_BITS) >= self->n_objs)
    return NULL;
  return &self->objs[value >> TAG_BITS];
}

G_END_DECLS
