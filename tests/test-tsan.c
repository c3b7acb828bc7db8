/* test-tsan.c — what the ThreadSanitizer build sees (built only there)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The TSan job (README.md, "Sanitizers") is only worth its time if it is
 * silent on GLib's hand-overs and still reports a race in our code. Each
 * case runs in a subprocess, with the TSAN_OPTIONS of tests/meson.build
 * (a report ends the process): the hand-overs Tidemark relies on — a
 * GTask's result, an idle callback from a worker, a GMutex, the last
 * reference of an object dropped on another thread — and a file mapped
 * again by GLib where another thread wrote before pass without a report;
 * a race between a GTask's worker and the main thread, and a buffer freed
 * while a worker reads it, are reported.
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

typedef struct
{
  int      value;
  char    *text;
  gboolean written;
  gboolean done;
} Box;

static void
iterate_until_done (Box *box)
{
  while (!box->done)
    g_main_context_iteration (NULL, TRUE);
}

/* The worker fills the box; the callback, on the main thread, reads it. */
static void
fill_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Box *box = task_data;

  box->value = 42;
  box->text = g_strdup ("filled by the worker");
  g_task_return_boolean (task, TRUE);
}

static void
filled_cb (GObject      *source_object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Box *box = user_data;

  g_assert_true (g_task_propagate_boolean (G_TASK (result), NULL));
  g_assert_cmpint (box->value, ==, 42);
  g_assert_cmpstr (box->text, ==, "filled by the worker");
  g_clear_pointer (&box->text, g_free);
  box->done = TRUE;
}

static void
run_task_result (void)
{
  Box box = { 0 };
  g_autoptr(GTask) task = g_task_new (NULL, NULL, filled_cb, &box);

  g_task_set_task_data (task, &box, NULL);
  g_task_run_in_thread (task, fill_thread);
  g_clear_object (&task);
  iterate_until_done (&box);
}

/* A worker thread fills the box and hands it over through an idle. */
static gboolean
idle_read (gpointer user_data)
{
  Box *box = user_data;

  g_assert_cmpint (box->value, ==, 7);
  g_clear_pointer (&box->text, g_free);
  box->done = TRUE;
  return G_SOURCE_REMOVE;
}

static gpointer
idle_worker (gpointer data)
{
  Box *box = data;

  box->value = 7;
  box->text = g_strdup ("handed over by an idle");
  g_idle_add (idle_read, box);
  return NULL;
}

static void
run_idle_from_worker (void)
{
  Box box = { 0 };
  GThread *thread = g_thread_new ("tsan-idle", idle_worker, &box);

  iterate_until_done (&box);
  g_thread_join (thread);
}

/* Two threads count under a GMutex. */
typedef struct
{
  GMutex mutex;
  guint  count;
} Counter;

static gpointer
count_worker (gpointer data)
{
  Counter *counter = data;

  for (guint i = 0; i < 1000; i++)
    {
      g_mutex_lock (&counter->mutex);
      counter->count++;
      g_mutex_unlock (&counter->mutex);
    }
  return NULL;
}

static void
run_mutex (void)
{
  Counter counter = { 0 };
  GThread *a, *b;

  g_mutex_init (&counter.mutex);
  a = g_thread_new ("tsan-count-a", count_worker, &counter);
  b = g_thread_new ("tsan-count-b", count_worker, &counter);
  g_thread_join (a);
  g_thread_join (b);
  g_assert_cmpuint (counter.count, ==, 2000);
  g_mutex_clear (&counter.mutex);
}

/* An object whose data a worker writes before dropping its reference; the
 * main thread drops the other one, and whichever is last reads the data
 * and frees it. The main thread waits by the clock only, so that nothing
 * but the reference count orders the two. */
static void
cell_free (gpointer data)
{
  volatile int *cell = data;

  g_assert_cmpint (*cell, <=, 1);
  g_free (data);
}

static gpointer
unref_worker (gpointer data)
{
  GObject *object = data;
  int *cell = g_object_get_data (object, "cell");

  *cell = 1;
  g_object_unref (object);
  return NULL;
}

static void
run_last_reference (void)
{
  GObject *object = g_object_new (G_TYPE_OBJECT, NULL);
  GThread *thread;

  g_object_set_data_full (object, "cell", g_new0 (int, 1), cell_free);
  thread = g_thread_new ("tsan-unref", unref_worker, g_object_ref (object));
  g_usleep (50 * 1000);
  g_object_unref (object);
  g_thread_join (thread);
}

/* A file that GLib maps (as tm-source.c does) where another thread wrote
 * before, in an earlier mapping GLib unmapped: the new mapping has no
 * history. The two threads are ordered by a relaxed atomic flag only,
 * which orders nothing for TSan. */
typedef struct
{
  const char *path;
  gboolean    unmapped;
} Remap;

static gpointer
map_and_write (gpointer data)
{
  Remap *remap = data;
  GMappedFile *file = g_mapped_file_new (remap->path, TRUE, NULL);
  char *contents;

  g_assert_nonnull (file);
  contents = g_mapped_file_get_contents (file);
  for (gsize i = 0; i < g_mapped_file_get_length (file); i += 64)
    contents[i] = 'w';
  g_mapped_file_unref (file);
  __atomic_store_n (&remap->unmapped, TRUE, __ATOMIC_RELAXED);
  return NULL;
}

static gpointer
map_and_read (gpointer data)
{
  Remap *remap = data;
  GMappedFile *file;
  const volatile char *contents;
  guint sum = 0;

  while (!__atomic_load_n (&remap->unmapped, __ATOMIC_RELAXED))
    g_usleep (1000);
  file = g_mapped_file_new (remap->path, FALSE, NULL);
  g_assert_nonnull (file);
  contents = g_mapped_file_get_contents (file);
  for (gsize i = 0; i < g_mapped_file_get_length (file); i += 64)
    sum += (guchar) contents[i];
  g_mapped_file_unref (file);
  return GUINT_TO_POINTER (sum);
}

static void
run_file_mapped_again (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tidemark-tsan-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "mapped", NULL);
  g_autofree char *text = g_strnfill (1 << 20, 'x');
  Remap remap = { path, FALSE };
  GThread *writer, *reader;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  writer = g_thread_new ("tsan-map-write", map_and_write, &remap);
  reader = g_thread_new ("tsan-map-read", map_and_read, &remap);
  g_thread_join (writer);
  g_thread_join (reader);
  g_unlink (path);
  g_rmdir (dir);
}

/* The main thread reads what a GTask's worker writes, with no hand-over
 * between them. A relaxed atomic flag, which orders nothing for TSan,
 * makes the main thread read after the write, so that no hand-over that
 * GLib really makes (a lock taken on both sides) can come in between. */
static void
racy_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Box *box = task_data;

  box->value = 1;
  __atomic_store_n (&box->written, TRUE, __ATOMIC_RELAXED);
  g_usleep (100 * 1000);
  g_task_return_boolean (task, TRUE);
}

static void
racy_done_cb (GObject      *source_object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Box *box = user_data;

  box->done = TRUE;
}

static void
run_race_with_task (void)
{
  Box box = { 0 };
  g_autoptr(GTask) task = g_task_new (NULL, NULL, racy_done_cb, &box);
  volatile int seen;

  g_task_set_task_data (task, &box, NULL);
  g_task_run_in_thread (task, racy_thread);
  g_clear_object (&task);
  while (!__atomic_load_n (&box.written, __ATOMIC_RELAXED))
    g_usleep (1000);
  seen = box.value;
  (void) seen;
  iterate_until_done (&box);
}

/* A buffer freed (g_free) while a worker still reads it. */
static gpointer
read_worker (gpointer data)
{
  volatile int *cells = data;

  g_usleep (20 * 1000);
  return GINT_TO_POINTER (cells[0]);
}

static void
run_free_while_read (void)
{
  int *cells = g_new0 (int, 4);
  GThread *thread = g_thread_new ("tsan-read", read_worker, cells);

  g_free (cells);
  g_thread_join (thread);
}

typedef struct
{
  const char *name;
  void      (*run) (void);
  gboolean    race;
} Case;

static const Case cases[] = {
  { "task-result", run_task_result, FALSE },
  { "idle-from-worker", run_idle_from_worker, FALSE },
  { "mutex", run_mutex, FALSE },
  { "last-reference", run_last_reference, FALSE },
  { "file-mapped-again", run_file_mapped_again, FALSE },
  { "race-with-task", run_race_with_task, TRUE },
  { "free-while-read", run_free_while_read, TRUE },
};

static void
test_case (gconstpointer data)
{
  const Case *c = data;

  if (g_test_subprocess ())
    {
      c->run ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  if (c->race)
    {
      g_test_trap_assert_failed ();
      g_test_trap_assert_stderr ("*WARNING: ThreadSanitizer: *");
    }
  else
    {
      g_test_trap_assert_passed ();
      g_test_trap_assert_stderr_unmatched ("*ThreadSanitizer*");
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/tsan/%s%s", cases[i].race ? "reported/" : "silent/", cases[i].name);

      g_test_add_data_func (path, &cases[i], test_case);
    }
  return g_test_run ();
}
