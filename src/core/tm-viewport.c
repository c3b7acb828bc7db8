/* tm-viewport.c — the visible time range of a timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "tm-viewport.h"

struct _TmViewport
{
  GObject parent_instance;

  gint64  data_start;
  gint64  data_end;
  gint64  min_span;
  gint64  start;
  gint64  end;
};

G_DEFINE_FINAL_TYPE (TmViewport, tm_viewport, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DATA_START,
  PROP_DATA_END,
  PROP_MIN_SPAN,
  PROP_START,
  PROP_END,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static gint64
effective_min_span (TmViewport *self)
{
  return MIN (self->min_span, self->data_end - self->data_start);
}

/* The one place that changes the range: clamps, notifies, emits. */
static void
apply_range (TmViewport *self,
             double      start,
             double      end)
{
  double data_span = (double) (self->data_end - self->data_start);
  double min_span = (double) effective_min_span (self);
  double span;
  gint64 new_start, new_end;

  if (isnan (start) || isnan (end))
    return;

  if (end < start)
    {
      double tmp = start;

      start = end;
      end = tmp;
    }

  span = end - start;
  if (span < min_span)
    {
      double centre = start + span / 2.0;

      span = min_span;
      start = centre - span / 2.0;
    }
  if (span > data_span)
    span = data_span;

  if (start < (double) self->data_start)
    start = (double) self->data_start;
  if (start + span > (double) self->data_end)
    start = (double) self->data_end - span;

  new_start = (gint64) llround (start);
  new_end = new_start + (gint64) llround (span);
  if (new_end > self->data_end)
    {
      new_start -= new_end - self->data_end;
      new_end = self->data_end;
    }
  if (new_start < self->data_start)
    new_start = self->data_start;

  if (new_start == self->start && new_end == self->end)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (new_start != self->start)
    {
      self->start = new_start;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_START]);
    }
  if (new_end != self->end)
    {
      self->end = new_end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_END]);
    }
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[CHANGED], 0);
}

static void
tm_viewport_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TmViewport *self = TM_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_DATA_START:
      g_value_set_int64 (value, self->data_start);
      break;

    case PROP_DATA_END:
      g_value_set_int64 (value, self->data_end);
      break;

    case PROP_MIN_SPAN:
      g_value_set_int64 (value, self->min_span);
      break;

    case PROP_START:
      g_value_set_int64 (value, self->start);
      break;

    case PROP_END:
      g_value_set_int64 (value, self->end);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_viewport_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TmViewport *self = TM_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_MIN_SPAN:
      tm_viewport_set_min_span (self, g_value_get_int64 (value));
      break;

    case PROP_START:
      tm_viewport_set_range (self, g_value_get_int64 (value), self->end);
      break;

    case PROP_END:
      tm_viewport_set_range (self, self->start, g_value_get_int64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_viewport_class_init (TmViewportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = tm_viewport_get_property;
  object_class->set_property = tm_viewport_set_property;

  properties[PROP_DATA_START] =
    g_param_spec_int64 ("data-start", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DATA_END] =
    g_param_spec_int64 ("data-end", NULL, NULL,
                        G_MININT64, G_MAXINT64, 1,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MIN_SPAN] =
    g_param_spec_int64 ("min-span", NULL, NULL,
                        1, G_MAXINT64, TM_VIEWPORT_DEFAULT_MIN_SPAN,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_START] =
    g_param_spec_int64 ("start", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_END] =
    g_param_spec_int64 ("end", NULL, NULL,
                        G_MININT64, G_MAXINT64, 1,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TmViewport::changed:
   *
   * The visible range or the limits changed (once per change, after the
   * property notifications).
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
tm_viewport_init (TmViewport *self)
{
  self->data_start = 0;
  self->data_end = 1;
  self->min_span = TM_VIEWPORT_DEFAULT_MIN_SPAN;
  self->start = 0;
  self->end = 1;
}

TmViewport *
tm_viewport_new (void)
{
  return g_object_new (TM_TYPE_VIEWPORT, NULL);
}

void
tm_viewport_set_limits (TmViewport *self,
                        gint64      data_start,
                        gint64      data_end)
{
  gboolean start_changed, end_changed;

  g_return_if_fail (TM_IS_VIEWPORT (self));

  if (data_end < data_start)
    {
      gint64 tmp = data_start;

      data_start = data_end;
      data_end = tmp;
    }
  if (data_end == data_start)
    {
      if (data_end < G_MAXINT64)
        data_end++;
      else
        data_start--;
    }

  start_changed = data_start != self->data_start;
  end_changed = data_end != self->data_end;

  g_object_freeze_notify (G_OBJECT (self));
  self->data_start = data_start;
  self->data_end = data_end;
  if (start_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DATA_START]);
  if (end_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DATA_END]);

  if (self->start == data_start && self->end == data_end)
    {
      g_object_thaw_notify (G_OBJECT (self));
      if (start_changed || end_changed)
        g_signal_emit (self, signals[CHANGED], 0);
      return;
    }

  apply_range (self, (double) data_start, (double) data_end);
  g_object_thaw_notify (G_OBJECT (self));
}

gint64
tm_viewport_get_data_start (TmViewport *self)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), 0);

  return self->data_start;
}

gint64
tm_viewport_get_data_end (TmViewport *self)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), 0);

  return self->data_end;
}

gint64
tm_viewport_get_min_span (TmViewport *self)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), 0);

  return self->min_span;
}

void
tm_viewport_set_min_span (TmViewport *self,
                          gint64      min_span)
{
  g_return_if_fail (TM_IS_VIEWPORT (self));
  g_return_if_fail (min_span >= 1);

  if (self->min_span == min_span)
    return;

  self->min_span = min_span;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MIN_SPAN]);

  /* Re-clamp: the current range may now be too short. */
  apply_range (self, (double) self->start, (double) self->end);
}

gint64
tm_viewport_get_start (TmViewport *self)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), 0);

  return self->start;
}

gint64
tm_viewport_get_end (TmViewport *self)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), 0);

  return self->end;
}

gint64
tm_viewport_get_span (TmViewport *self)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), 0);

  return self->end - self->start;
}

void
tm_viewport_set_range (TmViewport *self,
                       gint64      start,
                       gint64      end)
{
  g_return_if_fail (TM_IS_VIEWPORT (self));

  apply_range (self, (double) start, (double) end);
}

/* tm_viewport_zoom_to() leaves this share of the span free on each side. */
#define ZOOM_TO_MARGIN 0.04

void
tm_viewport_zoom_to (TmViewport *self,
                     gint64      start,
                     gint64      end)
{
  gint64 margin;

  g_return_if_fail (TM_IS_VIEWPORT (self));

  if (end < start)
    {
      gint64 tmp = start;

      start = end;
      end = tmp;
    }
  /* In double: the span of two extreme int64 times does not fit in one. */
  margin = (gint64) (((double) end - (double) start) * ZOOM_TO_MARGIN);
  tm_viewport_set_range (self,
                         start > G_MININT64 + margin ? start - margin : G_MININT64,
                         end < G_MAXINT64 - margin ? end + margin : G_MAXINT64);
}

void
tm_viewport_reset (TmViewport *self)
{
  g_return_if_fail (TM_IS_VIEWPORT (self));

  apply_range (self, (double) self->data_start, (double) self->data_end);
}

gboolean
tm_viewport_is_zoomed (TmViewport *self)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), FALSE);

  return self->start != self->data_start || self->end != self->data_end;
}

double
tm_viewport_get_zoom (TmViewport *self)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), 1.0);

  return (double) (self->data_end - self->data_start) / (double) MAX (self->end - self->start, 1);
}

gboolean
tm_viewport_can_zoom_in (TmViewport *self)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), FALSE);

  return self->end - self->start > effective_min_span (self);
}

gboolean
tm_viewport_can_zoom_out (TmViewport *self)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), FALSE);

  return self->end - self->start < self->data_end - self->data_start;
}

void
tm_viewport_set_span_at (TmViewport *self,
                         gint64      span_ps,
                         gint64      anchor_ps,
                         double      fraction)
{
  double span;
  double start;

  g_return_if_fail (TM_IS_VIEWPORT (self));

  span = CLAMP ((double) span_ps,
                (double) effective_min_span (self),
                (double) (self->data_end - self->data_start));
  start = (double) anchor_ps - fraction * span;
  apply_range (self, start, start + span);
}

void
tm_viewport_zoom (TmViewport *self,
                  double      factor,
                  gint64      anchor_ps)
{
  double span;
  double fraction;

  g_return_if_fail (TM_IS_VIEWPORT (self));

  if (!(factor > 0.0) || !isfinite (factor))
    return;

  span = (double) (self->end - self->start);
  fraction = span > 0 ? ((double) anchor_ps - (double) self->start) / span : 0.5;
  tm_viewport_set_span_at (self, (gint64) llround (span / factor), anchor_ps, fraction);
}

void
tm_viewport_zoom_at_fraction (TmViewport *self,
                              double      factor,
                              double      fraction)
{
  double anchor;

  g_return_if_fail (TM_IS_VIEWPORT (self));

  anchor = (double) self->start + fraction * (double) (self->end - self->start);
  tm_viewport_zoom (self, factor, (gint64) llround (anchor));
}

void
tm_viewport_pan (TmViewport *self,
                 gint64      delta_ps)
{
  g_return_if_fail (TM_IS_VIEWPORT (self));

  apply_range (self,
               (double) self->start + (double) delta_ps,
               (double) self->end + (double) delta_ps);
}

void
tm_viewport_pan_fraction (TmViewport *self,
                          double      fraction)
{
  g_return_if_fail (TM_IS_VIEWPORT (self));

  tm_viewport_pan (self, (gint64) llround (fraction * (double) (self->end - self->start)));
}

double
tm_viewport_time_to_x (TmViewport *self,
                       gint64      time_ps,
                       double      width)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), 0.0);

  return ((double) (time_ps - self->start)) * width / (double) MAX (self->end - self->start, 1);
}

gint64
tm_viewport_x_to_time (TmViewport *self,
                       double      x,
                       double      width)
{
  g_return_val_if_fail (TM_IS_VIEWPORT (self), 0);

  if (!(width > 0.0))
    return self->start;

  return self->start + (gint64) llround (x / width * (double) (self->end - self->start));
}
