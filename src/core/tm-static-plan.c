/* tm-static-plan.c — XLA modules' static plans, listed and set against the run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-static-plan.h"

void
tm_module_plan_clear (TmModulePlan *plan)
{
  g_clear_pointer (&plan->name, g_free);
  g_clear_pointer (&plan->memory_spaces, g_array_unref);
  g_clear_pointer (&plan->error, g_free);
}

GArray *
tm_static_plan_summarize (GArray          *entries,
                          TmProgressFunc   progress,
                          gpointer         progress_data,
                          GCancellable    *cancellable,
                          GError         **error)
{
  g_autoptr(GArray) plans = NULL;

  g_return_val_if_fail (entries != NULL, NULL);

  plans = g_array_sized_new (FALSE, TRUE, sizeof (TmModulePlan), entries->len);
  g_array_set_clear_func (plans, (GDestroyNotify) tm_module_plan_clear);
  for (guint i = 0; i < entries->len; i++)
    {
      const TmHloEntry *entry = &g_array_index (entries, TmHloEntry, i);
      g_autoptr(TmHloProto) proto = NULL;
      g_autoptr(TmBufferAssignment) ba = NULL;
      g_autoptr(GError) local = NULL;
      TmModulePlan plan = { NULL, 0, 0, NULL, NULL };

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      plan.name = g_strdup (entry->name);
      proto = tm_hlo_entry_decode (entry, &local);
      if (proto != NULL)
        ba = tm_buffer_assignment_compute (proto, entry->name, 0, TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE,
                                           cancellable, &local);
      if (ba != NULL)
        {
          plan.peak = tm_buffer_assignment_get_peak (ba);
          plan.n_trace_events = ba->n_trace_events;
          plan.memory_spaces = tm_buffer_assignment_memory_spaces (proto);
        }
      else if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          tm_module_plan_clear (&plan);
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      else
        plan.error = g_strdup (local->message);
      g_array_append_val (plans, plan);
      if (progress != NULL)
        progress (i + 1, entries->len, progress_data);
    }
  return g_steal_pointer (&plans);
}

/* The default first: most events, bigger peak, name. */
static gboolean
better_default (const TmModulePlan *a,
                const TmModulePlan *b)
{
  if (a->n_trace_events != b->n_trace_events)
    return a->n_trace_events > b->n_trace_events;
  if (a->peak != b->peak)
    return a->peak > b->peak;
  return strcmp (a->name, b->name) < 0;
}

static int
compare_listed (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  GArray *plans = user_data;
  const TmModulePlan *pa = &g_array_index (plans, TmModulePlan, *(const guint *) a);
  const TmModulePlan *pb = &g_array_index (plans, TmModulePlan, *(const guint *) b);

  if ((pa->error != NULL) != (pb->error != NULL))
    return pa->error != NULL ? 1 : -1;
  if (pa->peak != pb->peak)
    return pa->peak > pb->peak ? -1 : 1;
  return strcmp (pa->name, pb->name);
}

GArray *
tm_static_plan_order (GArray *plans)
{
  GArray *order;
  guint best = G_MAXUINT;

  g_return_val_if_fail (plans != NULL, NULL);

  order = g_array_sized_new (FALSE, FALSE, sizeof (guint), plans->len);
  for (guint i = 0; i < plans->len; i++)
    {
      const TmModulePlan *p = &g_array_index (plans, TmModulePlan, i);

      if (p->error == NULL &&
          (best == G_MAXUINT || better_default (p, &g_array_index (plans, TmModulePlan, best))))
        best = i;
    }
  for (guint i = 0; i < plans->len; i++)
    if (i != best)
      g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_listed, plans);
  if (best != G_MAXUINT)
    g_array_prepend_val (order, best);
  return order;
}

/* The length of name without a trailing "(…)", or its whole length. */
static gsize
base_length (const char *name)
{
  gsize n = strlen (name);
  const char *open;

  if (n == 0 || name[n - 1] != ')' || (open = strrchr (name, '(')) == NULL)
    return n;
  return (gsize) (open - name);
}

/* Whether an execution named name (of the XLA Modules line) is one of
 * module, whose name without its program id is base bytes long. */
static gboolean
is_execution_of (const char *name,
                 const char *module,
                 gsize       base)
{
  if (name == NULL || name[0] == '\0')
    return FALSE;
  return g_str_equal (name, module) ||
         (base_length (name) == strlen (name) && strlen (name) == base && strncmp (name, module, base) == 0);
}

GArray *
tm_static_plan_executions (GArray     *modules,
                           const char *module)
{
  GArray *found;
  gsize base;

  g_return_val_if_fail (module != NULL, NULL);

  found = g_array_new (FALSE, FALSE, sizeof (guint));
  base = base_length (module);
  for (guint i = 0; modules != NULL && i < modules->len; i++)
    if (is_execution_of (g_array_index (modules, TmHloModule, i).name, module, base))
      g_array_append_val (found, i);
  return found;
}

const char *
tm_static_plan_module_of (GArray     *plans,
                          const char *execution)
{
  g_return_val_if_fail (execution != NULL, NULL);

  for (guint i = 0; plans != NULL && i < plans->len; i++)
    if (g_str_equal (g_array_index (plans, TmModulePlan, i).name, execution))
      return g_array_index (plans, TmModulePlan, i).name;
  for (guint i = 0; plans != NULL && i < plans->len; i++)
    {
      const char *name = g_array_index (plans, TmModulePlan, i).name;

      if (is_execution_of (execution, name, base_length (name)))
        return name;
    }
  return NULL;
}

gint64
tm_static_plan_memory_space_of_id (const char *memory_id)
{
  g_autofree char *lower = NULL;

  if (memory_id == NULL)
    return 0;
  lower = g_ascii_strdown (memory_id, -1);
  if (strstr (lower, "host") != NULL || g_str_has_prefix (lower, "cpu"))
    return 5;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Against the run                                                      */

static inline gint64
in_use (const gint64 *stack,
        const gint64 *heap,
        guint         i)
{
  return (gint64) ((guint64) stack[i] + (guint64) heap[i]);
}

/* What store says of [start_ps, end_ps]: the memory in use in the state
 * the last snapshot at or before start_ps left (FALSE, and 0, before the
 * first snapshot), and the most in use from that state through every
 * snapshot up to end_ps with the first time it was reached (-1 when no
 * state is known in it). */
static gboolean
state_during (TmMemoryStore *store,
              gint64         start_ps,
              gint64         end_ps,
              gint64        *live_before,
              gint64        *held,
              gint64        *held_time_ps)
{
  const gint64 *times = tm_memory_store_get_times (store);
  const gint64 *stack = tm_memory_store_get_stack (store);
  const gint64 *heap = tm_memory_store_get_heap (store);
  guint n = tm_memory_store_get_n_snapshots (store);
  gboolean has_before = FALSE;
  guint i = 0;

  *live_before = 0;
  *held = -1;
  *held_time_ps = 0;
  if (n == 0)
    return FALSE;
  i = tm_memory_store_find_at_or_before (store, start_ps);
  has_before = times[i] <= start_ps;
  if (has_before)
    {
      *live_before = in_use (stack, heap, i);
      *held = *live_before;
      *held_time_ps = start_ps;
      i++;
    }
  for (; i < n && times[i] <= end_ps; i++)
    if (in_use (stack, heap, i) > *held)
      {
        *held = in_use (stack, heap, i);
        *held_time_ps = times[i];
      }
  return has_before;
}

gboolean
tm_static_plan_compare (TmMemoryStore            *store,
                        const TmBufferAssignment *plan,
                        gint64                    start_ps,
                        gint64                    end_ps,
                        TmPlanComparison         *out)
{
  const gint64 *times;
  guint n;
  gint64 shortfall;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), FALSE);
  g_return_val_if_fail (plan != NULL && out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  n = tm_memory_store_get_n_snapshots (store);
  times = tm_memory_store_get_times (store);
  if (end_ps < start_ps || n == 0 || times[0] > end_ps)
    return FALSE;

  out->start_ps = start_ps;
  out->end_ps = end_ps;
  out->static_peak = tm_buffer_assignment_get_peak (plan);
  out->parameters = plan->memory_space == 0 ? plan->entry_parameters : 0;

  /* The state at the start, then every snapshot up to the end. */
  out->has_before = state_during (store, start_ps, end_ps, &out->live_before, &out->held, &out->held_time_ps);

  out->expected = (gint64) ((guint64) out->live_before + (guint64) out->static_peak);
  out->difference = (gint64) ((guint64) out->held - (guint64) out->expected);
  /* Parameters were live before only as far as something was. */
  shortfall = out->difference < 0 ? -out->difference : 0;
  if (out->difference == 0)
    out->verdict = TM_PLAN_AS_PLANNED;
  else if (out->difference > 0)
    out->verdict = TM_PLAN_HELD_MORE;
  else if (shortfall <= MIN (out->parameters, out->live_before))
    out->verdict = TM_PLAN_PARAMETERS_TWICE;
  else
    out->verdict = TM_PLAN_HELD_LESS;
  return TRUE;
}

GArray *
tm_static_plan_compare_all (TmMemoryStore            *store,
                            const TmBufferAssignment *plan,
                            const char               *module,
                            GArray                   *modules)
{
  g_autoptr(GArray) executions = tm_static_plan_executions (modules, module);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TmPlanComparison));

  for (guint k = 0; k < executions->len; k++)
    {
      const TmHloModule *m = &g_array_index (modules, TmHloModule, g_array_index (executions, guint, k));
      TmPlanComparison c;

      if (tm_static_plan_compare (store, plan, m->start_ps, m->end_ps, &c))
        g_array_append_val (out, c);
    }
  return out;
}

GArray *
tm_static_plan_levels (TmMemoryStore *store,
                       gint64         static_peak,
                       const char    *module,
                       GArray        *modules)
{
  g_autoptr(GArray) executions = NULL;
  GArray *out;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);
  g_return_val_if_fail (module != NULL, NULL);

  executions = tm_static_plan_executions (modules, module);
  out = g_array_sized_new (FALSE, FALSE, sizeof (TmPlanLevel), executions->len);
  for (guint k = 0; k < executions->len; k++)
    {
      guint index = g_array_index (executions, guint, k);
      const TmHloModule *m = &g_array_index (modules, TmHloModule, index);
      TmPlanLevel level = { index, m->start_ps, MAX (m->end_ps, m->start_ps), FALSE, 0, 0, -1, 0 };

      level.has_before = state_during (store, level.start_ps, level.end_ps, &level.live_before, &level.held,
                                       &level.held_time_ps);
      level.expected = (gint64) ((guint64) level.live_before + (guint64) static_peak);
      g_array_append_val (out, level);
    }
  return out;
}

guint
tm_static_plan_busiest (GArray *comparisons)
{
  guint best = G_MAXUINT;

  for (guint i = 0; comparisons != NULL && i < comparisons->len; i++)
    if (best == G_MAXUINT ||
        g_array_index (comparisons, TmPlanComparison, i).held > g_array_index (comparisons, TmPlanComparison, best).held)
      best = i;
  return best;
}

char *
tm_static_plan_explain (const TmPlanComparison *c,
                        const char             *module,
                        const char             *memory_id)
{
  g_autofree char *start = tm_format_time_ms (c->start_ps);
  g_autofree char *before = tm_format_bytes (c->live_before);
  g_autofree char *peak = tm_format_bytes (c->static_peak);
  g_autofree char *expected = tm_format_bytes (c->expected);
  g_autofree char *held = tm_format_bytes (c->held);
  g_autofree char *held_at = tm_format_time_ms (c->held_time_ps);
  g_autofree char *diff = tm_format_bytes (c->difference < 0 ? -c->difference : c->difference);
  g_autofree char *params = tm_format_bytes (c->parameters);
  g_autofree char *without = tm_format_bytes (c->expected - MIN (c->parameters, c->live_before));
  GString *text = g_string_new (NULL);

  /* TRANSLATORS: the module, when it started, the memory id, the bytes in use then */
  g_string_append_printf (text, _("When %s started at %s, %s had %s in use."), module, start, memory_id, before);
  g_string_append_c (text, ' ');
  /* TRANSLATORS: the static peak, the bytes expected, the most held, when */
  g_string_append_printf (text, _("The compiler planned a peak of %s for it, so at most %s were expected; "
                                  "the allocator held at most %s (at %s)."),
                          peak, expected, held, held_at);
  g_string_append_c (text, ' ');
  switch (c->verdict)
    {
    case TM_PLAN_AS_PLANNED:
      g_string_append (text, _("That is exactly the plan."));
      break;

    case TM_PLAN_PARAMETERS_TWICE:
      /* TRANSLATORS: the difference, the parameters' bytes, the bytes expected without them */
      g_string_append_printf (text, _("That is %s less: the module’s parameters (%s) were already in use before it "
                                      "started and are also part of its plan, so they are counted twice. "
                                      "Counted once, the plan expects %s."),
                              diff, params, without);
      break;

    case TM_PLAN_HELD_LESS:
      /* TRANSLATORS: the difference */
      g_string_append_printf (text, _("That is %s less, more than the parameters counted twice explain: the plan’s "
                                      "peak was not reached in the allocator, or some of the module’s memory was "
                                      "not allocated through it (its memory events do not show it)."),
                              diff);
      break;

    case TM_PLAN_HELD_MORE:
      /* TRANSLATORS: the difference */
      g_string_append_printf (text, _("That is %s more than planned: memory the plan does not hold, such as other "
                                      "work on the device at the same time, buffers allocated at run time outside "
                                      "the buffer assignment, or the allocator’s rounding."),
                              diff);
      break;
    }
  return g_string_free (text, FALSE);
}

/* ------------------------------------------------------------------ */
/* An op's buffers                                                      */

static int
compare_op_buffers (gconstpointer a,
                    gconstpointer b)
{
  gint64 x = ((const TmOpBuffer *) a)->logical_buffer_id, y = ((const TmOpBuffer *) b)->logical_buffer_id;

  return x < y ? -1 : x > y;
}

GArray *
tm_static_plan_find_op (const TmHloProto *hlo,
                        const char       *op)
{
  const Xla__HloModuleProto *module;
  const Xla__BufferAssignmentProto *assignment;
  g_autoptr(GHashTable) matching = g_hash_table_new (g_int64_hash, g_int64_equal);
  GArray *found = g_array_new (FALSE, FALSE, sizeof (TmOpBuffer));

  g_return_val_if_fail (hlo != NULL && hlo->proto != NULL, found);
  g_return_val_if_fail (op != NULL, found);

  module = hlo->proto->hlo_module;
  assignment = hlo->proto->buffer_assignment;
  if (module == NULL || assignment == NULL || op[0] == '\0')
    return found;

  /* The instructions the op names, by id (their protos live as long as
   * hlo). */
  for (gsize c = 0; c < module->n_computations; c++)
    {
      const Xla__HloComputationProto *comp = module->computations[c];

      for (gsize k = 0; comp != NULL && k < comp->n_instructions; k++)
        {
          Xla__HloInstructionProto *inst = comp->instructions[k];

          if (inst == NULL)
            continue;
          if (g_strcmp0 (inst->name, op) == 0 ||
              (inst->metadata != NULL && g_strcmp0 (inst->metadata->op_name, op) == 0))
            g_hash_table_insert (matching, &inst->id, inst);
        }
    }
  if (g_hash_table_size (matching) == 0)
    return found;

  for (gsize b = 0; b < assignment->n_logical_buffers; b++)
    {
      const Xla__LogicalBufferProto *lb = assignment->logical_buffers[b];
      const Xla__HloInstructionProto *inst;
      TmOpBuffer ob;

      if (lb == NULL || lb->defined_at == NULL)
        continue;
      inst = g_hash_table_lookup (matching, &lb->defined_at->instruction_id);
      if (inst == NULL)
        continue;
      ob.logical_buffer_id = lb->id;
      ob.memory_space = lb->color;
      ob.size = lb->size;
      ob.instruction = inst->name;
      g_array_append_val (found, ob);
    }
  g_array_sort (found, compare_op_buffers);
  return found;
}
