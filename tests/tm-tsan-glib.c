/* tm-tsan-glib.c — GLib's hand-overs made visible to ThreadSanitizer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linked into every test program of a ThreadSanitizer build
 * (tests/meson.build), and nowhere else. Debian's GLib is not built with
 * TSan: its GMutex and GCond are futexes, its reference counts and
 * g_once_init_leave() atomics inside the library, and the queue behind a
 * GThreadPool and the wake-up of a GMainContext are made of those. TSan
 * sees none of them, so each time a worker hands something to the main
 * thread (a GTask's result, an idle callback, a job of a thread pool, the
 * last reference of an object) it would report the two sides as a race.
 *
 * This file defines those GLib functions in the test program itself. The
 * dynamic linker binds every call from outside libglib to them (ours, and
 * GIO's and GTK's), and each calls GLib's own through dlsym (RTLD_NEXT)
 * after or before telling TSan what it synchronises: __tsan_release() on
 * the object handed over where it is handed over, __tsan_acquire() on it
 * where it is received. Nothing else changes: the real function runs with
 * the same arguments (a callback wrapped in one that acquires first).
 * Calls inside libglib itself are bound within the library and not seen
 * here; tests/tsan.supp covers what the libraries hand over between their
 * own threads (README.md, "Sanitizers"), test-tsan what this file does.
 *
 * mmap(), munmap() and mremap() are here too. TSan does not intercept
 * mremap(), so pages that a column's growth moves (tm-column.c) would
 * keep the history of whatever was at the new address before: for
 * Tidemark's code it maps, copies and unmaps instead, which TSan sees. And
 * TSan skips the mmap() and munmap() of a library it ignores
 * (tests/tsan.supp), so a file that GLib maps (GMappedFile, tm-source.c)
 * would inherit the history of what was mapped there before: they reach
 * TSan from here, where a library's new mapping starts with no history.
 */
#define _GNU_SOURCE
#include "config.h"
/* mmap() and mmap64() are defined below, each under its own name. */
#undef _FILE_OFFSET_BITS

#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <glib-object.h>
#include <sanitizer/tsan_interface.h>

/* The runtime's, not in its header: the thread's accesses are not
 * recorded between the two. */
void __tsan_ignore_thread_begin (void);
void __tsan_ignore_thread_end (void);

/* Not instrumented: what runs while TSan itself starts (it maps memory
 * through mmap(), which is then the one below) cannot call into it. */
#define NOT_INSTRUMENTED __attribute__ ((no_sanitize_thread))

/* GLib's (or libc's) own definition of name, looked up once. */
NOT_INSTRUMENTED static gpointer
real_function (gpointer   *cache,
               const char *name)
{
  gpointer p = __atomic_load_n (cache, __ATOMIC_ACQUIRE);

  if (p == NULL)
    {
      p = dlsym (RTLD_NEXT, name);
      if (p == NULL)
        abort ();
      __atomic_store_n (cache, p, __ATOMIC_RELEASE);
    }
  return p;
}

#define REAL(name) \
  ((__typeof__ (&name)) real_function (&real_##name, #name))
#define DECLARE_REAL(name) static gpointer real_##name

/* Keeps a call from being a tail call: TSan takes the caller of what it
 * intercepts from the return address, which must then be in this file. */
#define NOT_A_TAIL_CALL() __asm__ __volatile__ ("" ::: "memory")

/* The test program's code, Tidemark's included (the linker's symbols). */
extern const char __executable_start[];
extern const char etext[];

NOT_INSTRUMENTED static gboolean
from_tidemark (const void *pc)
{
  return (const char *) pc >= __executable_start && (const char *) pc < etext;
}

/* Where TSan's runtime is loaded, once the program's constructors run (TSan
 * has started by then); NULL before. */
static void *tsan_base;

__attribute__ ((constructor)) static void
find_tsan (void)
{
  Dl_info info;

  if (dladdr ((const void *) __tsan_acquire, &info) != 0)
    __atomic_store_n (&tsan_base, info.dli_fbase, __ATOMIC_RELEASE);
}

/* Whether pc is a library's code, not Tidemark's nor TSan's own, once TSan
 * runs. */
NOT_INSTRUMENTED static gboolean
from_library (const void *pc)
{
  void *base = __atomic_load_n (&tsan_base, __ATOMIC_ACQUIRE);
  Dl_info info;

  return base != NULL && !from_tidemark (pc) &&
         dladdr (pc, &info) != 0 && info.dli_fbase != base;
}

/* ---- Locks ------------------------------------------------------------ */

DECLARE_REAL (g_mutex_lock);
DECLARE_REAL (g_mutex_unlock);
DECLARE_REAL (g_mutex_trylock);
DECLARE_REAL (g_rec_mutex_lock);
DECLARE_REAL (g_rec_mutex_unlock);
DECLARE_REAL (g_rec_mutex_trylock);
DECLARE_REAL (g_rw_lock_writer_lock);
DECLARE_REAL (g_rw_lock_writer_unlock);
DECLARE_REAL (g_rw_lock_writer_trylock);
DECLARE_REAL (g_rw_lock_reader_lock);
DECLARE_REAL (g_rw_lock_reader_unlock);
DECLARE_REAL (g_rw_lock_reader_trylock);
DECLARE_REAL (g_cond_wait);
DECLARE_REAL (g_cond_wait_until);

void
g_mutex_lock (GMutex *mutex)
{
  REAL (g_mutex_lock) (mutex);
  __tsan_acquire (mutex);
}

void
g_mutex_unlock (GMutex *mutex)
{
  __tsan_release (mutex);
  REAL (g_mutex_unlock) (mutex);
}

gboolean
g_mutex_trylock (GMutex *mutex)
{
  gboolean locked = REAL (g_mutex_trylock) (mutex);

  if (locked)
    __tsan_acquire (mutex);
  return locked;
}

void
g_rec_mutex_lock (GRecMutex *mutex)
{
  REAL (g_rec_mutex_lock) (mutex);
  __tsan_acquire (mutex);
}

void
g_rec_mutex_unlock (GRecMutex *mutex)
{
  __tsan_release (mutex);
  REAL (g_rec_mutex_unlock) (mutex);
}

gboolean
g_rec_mutex_trylock (GRecMutex *mutex)
{
  gboolean locked = REAL (g_rec_mutex_trylock) (mutex);

  if (locked)
    __tsan_acquire (mutex);
  return locked;
}

void
g_rw_lock_writer_lock (GRWLock *lock)
{
  REAL (g_rw_lock_writer_lock) (lock);
  __tsan_acquire (lock);
}

void
g_rw_lock_writer_unlock (GRWLock *lock)
{
  __tsan_release (lock);
  REAL (g_rw_lock_writer_unlock) (lock);
}

gboolean
g_rw_lock_writer_trylock (GRWLock *lock)
{
  gboolean locked = REAL (g_rw_lock_writer_trylock) (lock);

  if (locked)
    __tsan_acquire (lock);
  return locked;
}

/* Readers acquire what writers released; a reader releases too, so that
 * the next writer comes after it. */
void
g_rw_lock_reader_lock (GRWLock *lock)
{
  REAL (g_rw_lock_reader_lock) (lock);
  __tsan_acquire (lock);
}

void
g_rw_lock_reader_unlock (GRWLock *lock)
{
  __tsan_release (lock);
  REAL (g_rw_lock_reader_unlock) (lock);
}

gboolean
g_rw_lock_reader_trylock (GRWLock *lock)
{
  gboolean locked = REAL (g_rw_lock_reader_trylock) (lock);

  if (locked)
    __tsan_acquire (lock);
  return locked;
}

/* The mutex is let go while waiting and taken again after. */
void
g_cond_wait (GCond  *cond,
             GMutex *mutex)
{
  __tsan_release (mutex);
  REAL (g_cond_wait) (cond, mutex);
  __tsan_acquire (mutex);
}

gboolean
g_cond_wait_until (GCond  *cond,
                   GMutex *mutex,
                   gint64  end_time)
{
  gboolean signalled;

  __tsan_release (mutex);
  signalled = REAL (g_cond_wait_until) (cond, mutex, end_time);
  __tsan_acquire (mutex);
  return signalled;
}

/* ---- Memory ------------------------------------------------------------- */

/* GLib's g_free() is free(). TSan ignores the libc calls that libglib
 * makes (tests/tsan.supp); called from here for Tidemark's code, free() is
 * checked like any of its accesses, so freeing what another thread still
 * uses is reported. A library's g_free() stays ignored, as its free() is. */
void
g_free (gpointer mem)
{
  if (from_tidemark (__builtin_return_address (0)))
    free (mem);
  else
    {
      __tsan_ignore_thread_begin ();
      free (mem);
      __tsan_ignore_thread_end ();
    }
  NOT_A_TAIL_CALL ();
}

/* ---- Reference counts and one-time initialisation ----------------------- */

DECLARE_REAL (g_atomic_ref_count_dec);
DECLARE_REAL (g_object_unref);
DECLARE_REAL (g_once_init_enter);
DECLARE_REAL (g_once_init_leave);

/* Each holder lets go of what it did; the one that drops the last
 * reference, and frees, comes after all of them. */
gboolean
g_atomic_ref_count_dec (gatomicrefcount *arc)
{
  gboolean last;

  __tsan_release (arc);
  last = REAL (g_atomic_ref_count_dec) (arc);
  if (last)
    __tsan_acquire (arc);
  return last;
}

/* An object's count, read where TSan does not see it: GObject changes it
 * inside libgobject, and a read seen here would race with the free of an
 * object whose last reference is dropped there. */
__attribute__ ((no_sanitize_thread)) static guint
object_ref_count (GObject *object)
{
  return ((volatile GObject *) object)->ref_count;
}

/* The same for an object. Whether this reference is the last one is read
 * before dropping it: an object finalized here had one reference left. */
void
g_object_unref (gpointer object)
{
  GObject *gobject = object;

  if (gobject != NULL)
    {
      __tsan_release (gobject);
      if (object_ref_count (gobject) <= 1)
        __tsan_acquire (gobject);
    }
  REAL (g_object_unref) (object);
}

/* g_once_init_enter() is a macro that reads the location with an acquire
 * load in the caller, which is instrumented: releasing the location where
 * the value is stored makes that load see everything done before. */
gboolean
(g_once_init_enter) (volatile void *location)
{
  gboolean enter = REAL (g_once_init_enter) (location);

  if (!enter)
    __tsan_acquire ((void *) location);
  return enter;
}

void
(g_once_init_leave) (volatile void *location,
                     gsize          result)
{
  __tsan_release ((void *) location);
  REAL (g_once_init_leave) (location, result);
}

/* ---- Callbacks run on another thread ------------------------------------ */

/* A callback wrapped so that it first acquires what was released where it
 * was handed over (sync). */
typedef struct
{
  gpointer       sync;
  GSourceFunc    func;
  gpointer       data;
  GDestroyNotify notify;
} Handed;

static Handed *
handed_new (gpointer       sync,
            GSourceFunc    func,
            gpointer       data,
            GDestroyNotify notify)
{
  Handed *handed = malloc (sizeof *handed);

  if (handed == NULL)
    abort ();
  handed->sync = sync != NULL ? sync : handed;
  handed->func = func;
  handed->data = data;
  handed->notify = notify;
  __tsan_release (handed);
  return handed;
}

static gboolean
handed_run (gpointer user_data)
{
  Handed *handed = user_data;

  __tsan_acquire (handed);
  __tsan_acquire (handed->sync);
  return handed->func (handed->data);
}

static void
handed_free (gpointer user_data)
{
  Handed *handed = user_data;

  if (handed->notify != NULL)
    handed->notify (handed->data);
  free (handed);
}

DECLARE_REAL (g_source_set_callback);
DECLARE_REAL (g_source_attach);
DECLARE_REAL (g_source_set_ready_time);
DECLARE_REAL (g_main_context_invoke_full);
DECLARE_REAL (g_thread_pool_new_full);
DECLARE_REAL (g_thread_pool_push);

/* Idle and timeout sources call a GSourceFunc: theirs is wrapped, to
 * acquire the source, which is released where it is attached or woken.
 * Other sources call functions of other types and are left as they are.
 * This is how a GTask's result reaches the thread that waits for it. */
void
g_source_set_callback (GSource        *source,
                       GSourceFunc     func,
                       gpointer        data,
                       GDestroyNotify  notify)
{
  if (func != NULL && (source->source_funcs == &g_idle_funcs || source->source_funcs == &g_timeout_funcs))
    REAL (g_source_set_callback) (source, handed_run, handed_new (source, func, data, notify), handed_free);
  else
    REAL (g_source_set_callback) (source, func, data, notify);
}

guint
g_source_attach (GSource      *source,
                 GMainContext *context)
{
  __tsan_release (source);
  return REAL (g_source_attach) (source, context);
}

void
g_source_set_ready_time (GSource *source,
                         gint64   ready_time)
{
  __tsan_release (source);
  REAL (g_source_set_ready_time) (source, ready_time);
}

/* GLib's own versions build the source inside the library, out of reach:
 * these build it with the functions above. */
static guint
add_source (GSource       *source,
            gint           priority,
            GSourceFunc    func,
            gpointer       data,
            GDestroyNotify notify)
{
  guint id;

  g_source_set_priority (source, priority);
  g_source_set_callback (source, func, data, notify);
  id = g_source_attach (source, NULL);
  g_source_unref (source);
  return id;
}

guint
g_idle_add_full (gint           priority,
                 GSourceFunc    function,
                 gpointer       data,
                 GDestroyNotify notify)
{
  return add_source (g_idle_source_new (), priority, function, data, notify);
}

guint
g_idle_add (GSourceFunc function,
            gpointer    data)
{
  return g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, function, data, NULL);
}

guint
g_timeout_add_full (gint           priority,
                    guint          interval,
                    GSourceFunc    function,
                    gpointer       data,
                    GDestroyNotify notify)
{
  return add_source (g_timeout_source_new (interval), priority, function, data, notify);
}

guint
g_timeout_add (guint       interval,
               GSourceFunc function,
               gpointer    data)
{
  return g_timeout_add_full (G_PRIORITY_DEFAULT, interval, function, data, NULL);
}

guint
g_timeout_add_seconds_full (gint           priority,
                            guint          interval,
                            GSourceFunc    function,
                            gpointer       data,
                            GDestroyNotify notify)
{
  return add_source (g_timeout_source_new_seconds (interval), priority, function, data, notify);
}

guint
g_timeout_add_seconds (guint       interval,
                       GSourceFunc function,
                       gpointer    data)
{
  return g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, interval, function, data, NULL);
}

void
g_main_context_invoke_full (GMainContext   *context,
                            gint            priority,
                            GSourceFunc     function,
                            gpointer        data,
                            GDestroyNotify  notify)
{
  Handed *handed = handed_new (NULL, function, data, notify);

  REAL (g_main_context_invoke_full) (context, priority, handed_run, handed, handed_free);
}

void
g_main_context_invoke (GMainContext *context,
                       GSourceFunc   function,
                       gpointer      data)
{
  g_main_context_invoke_full (context, G_PRIORITY_DEFAULT, function, data, NULL);
}

/* A thread pool's job: pushed (released) by one thread, run (acquired) by
 * a worker. GTask runs its threads in such a pool. The wrapper of a pool's
 * function lives as long as the program: a pool freed without waiting may
 * still run it. */
typedef struct
{
  GFunc    func;
  gpointer user_data;
} PoolFunc;

static void
pool_run (gpointer data,
          gpointer user_data)
{
  PoolFunc *pool_func = user_data;

  __tsan_acquire (data);
  pool_func->func (data, pool_func->user_data);
}

GThreadPool *
g_thread_pool_new_full (GFunc            func,
                        gpointer         user_data,
                        GDestroyNotify   item_free_func,
                        gint             max_threads,
                        gboolean         exclusive,
                        GError         **error)
{
  PoolFunc *pool_func = malloc (sizeof *pool_func);

  if (pool_func == NULL)
    abort ();
  pool_func->func = func;
  pool_func->user_data = user_data;
  return REAL (g_thread_pool_new_full) (pool_run, pool_func, item_free_func, max_threads, exclusive, error);
}

GThreadPool *
g_thread_pool_new (GFunc      func,
                   gpointer   user_data,
                   gint       max_threads,
                   gboolean   exclusive,
                   GError   **error)
{
  return g_thread_pool_new_full (func, user_data, NULL, max_threads, exclusive, error);
}

gboolean
g_thread_pool_push (GThreadPool  *pool,
                    gpointer      data,
                    GError      **error)
{
  __tsan_release (data);
  return REAL (g_thread_pool_push) (pool, data, error);
}

/* ---- Mappings ----------------------------------------------------------- */

DECLARE_REAL (mmap);
DECLARE_REAL (mmap64);
DECLARE_REAL (munmap);
DECLARE_REAL (mremap);

/* A mapping made for a library starts with no history (TSan resets it
 * while ignoring the thread's accesses); one made for Tidemark's code
 * counts as written by its thread, as TSan does it. */
NOT_INSTRUMENTED static void *
map (gpointer    *real,
     const char  *name,
     const void  *caller,
     void        *addr,
     size_t       length,
     int          prot,
     int          flags,
     int          fd,
     off_t        offset)
{
  void *(*call) (void *, size_t, int, int, int, off_t) = real_function (real, name);
  gboolean ignore = from_library (caller);
  void *p;

  if (ignore)
    __tsan_ignore_thread_begin ();
  p = call (addr, length, prot, flags, fd, offset);
  NOT_A_TAIL_CALL ();
  if (ignore)
    __tsan_ignore_thread_end ();
  return p;
}

NOT_INSTRUMENTED void *
mmap (void   *addr,
      size_t  length,
      int     prot,
      int     flags,
      int     fd,
      off_t   offset)
{
  return map (&real_mmap, "mmap", __builtin_return_address (0), addr, length, prot, flags, fd, offset);
}

NOT_INSTRUMENTED void *
mmap64 (void     *addr,
        size_t    length,
        int       prot,
        int       flags,
        int       fd,
        off64_t   offset)
{
  return map (&real_mmap64, "mmap64", __builtin_return_address (0), addr, length, prot, flags, fd, offset);
}

NOT_INSTRUMENTED int
munmap (void   *addr,
        size_t  length)
{
  int result = REAL (munmap) (addr, length);

  NOT_A_TAIL_CALL ();
  return result;
}

void *
mremap (void   *old_address,
        size_t  old_size,
        size_t  new_size,
        int     flags,
        ...)
{
  void *new_address = NULL;
  void *p;

  if ((flags & MREMAP_FIXED) != 0)
    {
      va_list args;

      va_start (args, flags);
      new_address = va_arg (args, void *);
      va_end (args);
    }
  if ((flags & MREMAP_MAYMOVE) == 0 || old_size == 0 ||
      !from_tidemark (__builtin_return_address (0)))
    return REAL (mremap) (old_address, old_size, new_size, flags, new_address);

  /* Anonymous private memory, as tm-column.c maps it: mapped, copied and
   * unmapped, each of which TSan sees. */
  p = mmap (new_address, new_size, PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS | (new_address != NULL ? MAP_FIXED : 0), -1, 0);
  if (p == MAP_FAILED)
    return MAP_FAILED;
  memcpy (p, old_address, MIN (old_size, new_size));
  munmap (old_address, old_size);
  return p;
}
