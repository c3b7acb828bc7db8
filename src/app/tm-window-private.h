/* tm-window-private.h — what the window's nine files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmWindow is one class split by concern: tm-window.c (states, header bar,
 * memory ids), -layout.c (the profile page's panes), -load.c (the shown and
 * loading contents), -hosts.c (a run's hosts and the run overview),
 * -actions.c, -dnd.c, -export.c, -recent.c, -toast.c, -compare.c and
 * -viewer.c (the Memory Viewer page). What is shown (profile, memory id,
 * selections) is the session's; the window keeps no copy of it.
 */
#pragma once

#include "tm-allocation-details.h"
#include "tm-allocations-view.h"
#include "tm-hlo-view.h"
#include "tm-memory-map.h"
#include "tm-overview.h"
#include "tm-scope-view.h"
#include "tm-session.h"
#include "tm-timeline.h"
#include "tm-trace-note.h"
#include "tm-window.h"

G_BEGIN_DECLS

/* One host of a multi-host run directory: its file and, once it has been
 * shown, what loading it gave (a profile or an error). */
typedef struct
{
  GFile                *file;
  char                 *name;
  TmProfile            *profile;
  char                 *error_message;
  guint64               mtime_us;
  goffset               size;
  /* When the host was last shown (a counter), to keep at most two hosts'
   * profiles loaded: the most recently shown ones. */
  guint64               shown_serial;
} TmWindowHost;

/* What a window shows, or what the load in progress will show: a file,
 * alone or as a host of a run, and what loading it gave. */
typedef struct
{
  GFile                *file;
  /* A multi-host run directory (NULL for a single file): TmWindowHost
   * elements sorted by name, and the one shown. */
  GFile                *run_directory;
  GPtrArray            *hosts;
  guint                 host_index;
  TmWindowState         state;
  /* What loading gave, until the content is shown: then the profile is
   * the session's (tm_session_get_profile) and this is NULL. */
  TmProfile            *profile;
  char                 *error_message;
  /* The file on disk when it was loaded, to tell when it changed. */
  guint64               mtime_us;
  goffset               size;
} TmWindowContent;

/* tm-window-compare.c: where a comparison's baseline comes from, and its bar. */
typedef struct _TmWindowCompare TmWindowCompare;
/* tm-window-viewer.c: the Memory Viewer page and its switch. */
typedef struct _TmWindowViewer TmWindowViewer;

struct _TmWindow
{
  GtkApplicationWindow  parent_instance;

  /* Template widgets */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkDropDown          *host_dropdown;
  GtkDropDown          *memory_dropdown;
  GtkStack             *main_stack;
  GtkLabel             *loading_title;
  GtkProgressBar       *loading_progress;
  GtkLabel             *loading_detail;
  GtkWidget            *cancel_button;
  GtkLabel             *error_title;
  GtkLabel             *error_message;
  GtkWidget            *error_retry_button;
  GtkWidget            *error_open_button;
  GtkLabel             *no_data_title;
  GtkLabel             *no_data_message;
  GtkWidget            *sampled_banner;
  TmSummaryCards       *summary_cards;
  GtkWidget            *data_notes;
  GtkPaned             *paned;
  GtkBox               *timeline_area;
  TmTimeline           *timeline;
  TmOverview           *overview;
  TmHloView            *hlo_view;
  TmMemoryMap          *memory_map;
  GtkPaned             *chart_paned;
  GtkScrolledWindow    *chart_scroller;
  GtkPaned             *timeline_paned;
  GtkWidget            *hlo_box;
  GtkWidget            *map_placeholder;
  GtkLabel             *map_placeholder_label;
  GtkWidget            *map_placeholder_button;
  GtkWidget            *table_toggle;
  guint                 map_room_source;
  int                   map_min_height;   /* the memory map's, last measured while shown */
  gulong                chart_paned_handler;
  gulong                hlo_paned_handler;
  TmBreakdownView      *breakdown_view;
  GtkStack             *lower_stack;
  TmScopeView          *scope_view;
  TmTraceNote          *trace_note;
  TmAllocationDetails  *allocation_details;
  TmAllocationsView    *allocations_view;
  GtkRevealer          *drop_revealer;
  GtkWidget            *recent_box;
  GtkListBox           *recent_list;
  GMenu                *recent_menu;
  GtkRevealer          *toast_revealer;
  GtkLabel             *toast_label;
  GtkWidget            *toast_open_button;
  GtkWidget            *toast_close_button;
  guint                 toast_source;
  char                 *toast_uri;
  GtkRevealer          *changed_revealer;
  GtkWidget            *changed_reload_button;
  GFile                *changed_file;
  GFileMonitor         *changed_monitor;

  /* What every view of the profile page shows. */
  TmSession            *session;
  GSettings            *settings;
  GtkStringList        *memory_ids;
  GtkStringList        *host_names;
  /* The hosts the host dropdown lists (a reference, to tell them apart). */
  GPtrArray            *listed_hosts;
  GtkNativeDialog      *chooser;

  /* What is shown, and what a load in progress (load_cancellable set)
   * will show instead. Until it is done the window's title, host dropdown
   * and state are the load's; cancelling it just drops it, and the window
   * shows "shown" again. */
  TmWindowContent       shown;
  TmWindowContent       loading;
  GCancellable         *load_cancellable;
  guint                 show_loading_source;
  gint64                progress_shown_us;  /* when the loading page's progress last changed */

  /* The memory id the user last had selected, kept across hosts. */
  char                 *wanted_memory_id;

  gulong                paned_position_handler;

  TmWindowCompare      *compare;
  TmWindowViewer       *viewer;
  /* The run overview (tm-window-hosts.c): its page, the Back button that
   * returns to it from a host, whether it is the page shown, and the
   * counter of TmWindowHost.shown_serial. */
  GtkWidget            *run_overview;
  GtkWidget            *back_button;
  gboolean              showing_overview;
  /* On the session's run: a host read by the overview relabels its item
   * in the host dropdown. */
  GSignalGroup         *run_signals;
  guint64               host_serial;
  /* The share of the outer paned the charts get, and of the chart paned
   * the usage timeline gets (docs/ui.md, "Layout"). */
  double                charts_share;
  double                timeline_share;
  double                hlo_share;
};

/* The load's content while one runs, else the shown one. */
static inline TmWindowContent *
_tm_window_current (TmWindow *self)
{
  return self->load_cancellable != NULL ? &self->loading : &self->shown;
}

/* tm-window.c */
void _tm_window_update             (TmWindow      *self,
                                    TmWindowState  old_state,
                                    GFile         *old_file);
void _tm_window_set_memory_store   (TmWindow      *self,
                                    TmMemoryStore *store);
void _tm_window_fill_memory_ids    (TmWindow      *self,
                                    const char    *keep_id);
char *_tm_window_display_basename  (GFile         *file);

/* tm-window-load.c */
void _tm_window_content_clear      (TmWindowContent *content);
void _tm_window_start_load         (TmWindow      *self,
                                    GFile         *file,
                                    GFile         *run_directory,
                                    GPtrArray     *hosts,
                                    guint          host_index);
void _tm_window_show               (TmWindow        *self,
                                    TmWindowContent *content);
void _tm_window_cancel_load        (TmWindow      *self);

/* tm-window-hosts.c */
void _tm_window_hosts_init         (TmWindow      *self);
void _tm_window_sync_hosts         (TmWindow      *self);
void _tm_window_step_host          (TmWindow      *self,
                                    int            delta);
void _tm_window_hosts_update_page  (TmWindow      *self);
void _tm_window_hosts_loaded       (TmWindow      *self,
                                    TmWindowHost  *host);
void _tm_window_hosts_leave_run    (TmWindow      *self);
/* What the run overview knows of host index of hosts (NULL until it has
 * read it, or when hosts are not the session's run). */
const TmHostSummary *_tm_window_host_summary (TmWindow  *self,
                                              GPtrArray *hosts,
                                              guint      index);

/* tm-window-compare.c */
void _tm_window_compare_init       (TmWindow      *self);
void _tm_window_compare_dispose    (TmWindow      *self);
/* Ends a comparison, if any (another file or run is opened). */
void _tm_window_compare_end        (TmWindow      *self);
/* While comparing, the title says what is compared. */
void _tm_window_compare_update_title (TmWindow    *self);

/* tm-window-layout.c */
void _tm_window_layout_load        (TmWindow      *self);
void _tm_window_layout_init        (TmWindow      *self);
void _tm_window_layout_save        (TmWindow      *self);
void _tm_window_layout_dispose     (TmWindow      *self);
void _tm_window_layout_queue_update (TmWindow     *self);

/* tm-window-viewer.c */
void _tm_window_viewer_init        (TmWindow      *self);
void _tm_window_viewer_dispose     (TmWindow      *self);
/* Shows the Memory Viewer page instead of the profile's when asked. */
void _tm_window_viewer_update      (TmWindow      *self);

/* tm-window-toast.c */
void _tm_window_toast_init         (TmWindow      *self);
void _tm_window_toast_dispose      (TmWindow      *self);

/* tm-window-changed.c */
void _tm_window_changed_init       (TmWindow      *self);
void _tm_window_changed_dispose    (TmWindow      *self);

/* tm-window-recent.c */
void _tm_window_recent_init        (TmWindow      *self);
void _tm_window_recent_update      (TmWindow      *self);

void _tm_window_actions_init       (TmWindow      *self);
void _tm_window_actions_update     (TmWindow      *self);
void _tm_window_open_files         (TmWindow      *self,
                                    GFile        **files,
                                    guint          n_files);
void _tm_window_dnd_init           (TmWindow      *self);
void _tm_window_export_xprof_json  (TmWindow      *self);
void _tm_window_export_csv         (TmWindow      *self);
void _tm_window_export_collapsed   (TmWindow      *self);
void _tm_window_export_never_freed (TmWindow      *self);
void _tm_window_export_timeline_png (TmWindow     *self);
void _tm_window_export_timeline_svg (TmWindow     *self);
void _tm_window_save_memory_only   (TmWindow      *self);

G_END_DECLS
