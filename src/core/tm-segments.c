/* tm-segments.c — what a caching allocator reserved: segments over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-segments.h"

struct _TmSegments
{
  GObject          parent_instance;

  char            *memory_id;
  TmSegmentsState  state;
  GArray          *segments;  /* TmSegment */
  GArray          *ooms;      /* TmOutOfMemory */
};

G_DEFINE_FINAL_TYPE (TmSegments, tm_segments, G_TYPE_OBJECT)

static void
tm_segments_finalize (GObject *object)
{
  TmSegments *self = (TmSegments *) object;

  g_free (self->memory_id);
  g_clear_pointer (&self->segments, g_array_unref);
  g_clear_pointer (&self->ooms, g_array_unref);

  G_OBJECT_CLASS (tm_segments_parent_class)->finalize (object);
}

static void
tm_segments_class_init (TmSegmentsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_segments_finalize;
}

static void
tm_segments_init (TmSegments *self)
{
  self->segments = g_array_new (FALSE, FALSE, sizeof (TmSegment));
  self->ooms = g_array_new (FALSE, FALSE, sizeof (TmOutOfMemory));
}

TmSegments *
tm_segments_new (const char            *memory_id,
                 const TmSegmentsState *state)
{
  TmSegments *self;

  g_return_val_if_fail (memory_id != NULL, NULL);
  g_return_val_if_fail (state != NULL, NULL);

  self = g_object_new (TM_TYPE_SEGMENTS, NULL);
  self->memory_id = g_strdup (memory_id);
  self->state = *state;
  return self;
}

void
tm_segments_add_segment (TmSegments      *self,
                         const TmSegment *segment)
{
  g_return_if_fail (TM_IS_SEGMENTS (self));

  g_array_append_val (self->segments, *segment);
}

void
tm_segments_add_out_of_memory (TmSegments          *self,
                               const TmOutOfMemory *oom)
{
  g_return_if_fail (TM_IS_SEGMENTS (self));

  g_array_append_val (self->ooms, *oom);
}

const char *
tm_segments_get_memory_id (TmSegments *self)
{
  g_return_val_if_fail (TM_IS_SEGMENTS (self), NULL);

  return self->memory_id;
}

const TmSegmentsState *
tm_segments_get_state (TmSegments *self)
{
  g_return_val_if_fail (TM_IS_SEGMENTS (self), NULL);

  return &self->state;
}

const TmSegment *
tm_segments_get_segments (TmSegments *self,
                          guint      *n_segments)
{
  g_return_val_if_fail (TM_IS_SEGMENTS (self), NULL);

  *n_segments = self->segments->len;
  return (const TmSegment *) (gpointer) self->segments->data;
}

const TmOutOfMemory *
tm_segments_get_out_of_memory (TmSegments *self,
                               guint      *n_oom)
{
  g_return_val_if_fail (TM_IS_SEGMENTS (self), NULL);

  *n_oom = self->ooms->len;
  return (const TmOutOfMemory *) (gpointer) self->ooms->data;
}
