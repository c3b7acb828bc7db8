/* tm-window-private.h — what tm-window.c, -actions.c and -dnd.c share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tm-hlo-view.h"
#include "tm-overview.h"
#include "tm-session.h"
#include "tm-timeline.h"
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
} TmWindowHost;

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
  GtkPaned             *paned;
  GtkBox               *timeline_area;
  TmTimeline           *timeline;
  TmOverview           *overview;
  TmHloView            *hlo_view;
  TmBreakdownView      *breakdown_view;
  GtkRevealer          *drop_revealer;

  /* What every view of the profile page shows. */
  TmSession            *session;
  GSettings            *settings;
  GtkStringList        *memory_ids;
  GtkStringList        *host_names;
  GtkNativeDialog      *chooser;

  /* What is shown */
  GFile                *file;
  TmProfile            *profile;
  TmMemoryStore        *memory_store;
  char                 *error_message_text;
  guint64               file_mtime_us;
  goffset               file_size;
  TmWindowState         state;
  /* The memory id the user last had selected, kept across hosts. */
  char                 *wanted_memory_id;

  /* A multi-host run directory (NULL for a single file): TmWindowHost
   * elements sorted by name, and the one shown. */
  GFile                *run_directory;
  GPtrArray            *hosts;
  guint                 host_index;

  /* A load in progress */
  GCancellable         *load_cancellable;
  GFile                *loading_file;
  GFile                *file_before_loading;
  TmWindowState         state_before_loading;
  GFile                *run_directory_before_loading;
  GPtrArray            *hosts_before_loading;
  guint                 host_index_before_loading;
  guint                 show_loading_source;

  gulong                paned_position_handler;
};

void _tm_window_actions_init       (TmWindow      *self);
void _tm_window_actions_update     (TmWindow      *self);
void _tm_window_step_host          (TmWindow      *self,
                                    int            delta);
void _tm_window_open_files         (TmWindow      *self,
                                    GFile        **files,
                                    guint          n_files);
void _tm_window_dnd_init           (TmWindow      *self);
void _tm_window_export_xprof_json  (TmWindow      *self);
void _tm_window_export_csv         (TmWindow      *self);
void _tm_window_export_timeline_png (TmWindow     *self);

G_END_DECLS
