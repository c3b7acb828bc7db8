/* tm-window-private.h — what tm-window.c, -actions.c and -dnd.c share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tm-hlo-view.h"
#include "tm-overview.h"
#include "tm-timeline.h"
#include "tm-window.h"

G_BEGIN_DECLS

struct _TmWindow
{
  GtkApplicationWindow  parent_instance;

  /* Template widgets */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
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

  GSettings            *settings;
  GtkStringList        *memory_ids;
  GtkNativeDialog      *chooser;

  /* What is shown */
  GFile                *file;
  TmProfile            *profile;
  TmMemoryStore        *memory_store;
  char                 *error_message_text;
  guint64               file_mtime_us;
  goffset               file_size;
  TmWindowState         state;

  /* A load in progress */
  GCancellable         *load_cancellable;
  GFile                *loading_file;
  GFile                *file_before_loading;
  TmWindowState         state_before_loading;
  guint                 show_loading_source;

  gulong                paned_position_handler;
};

void _tm_window_actions_init       (TmWindow      *self);
void _tm_window_actions_update     (TmWindow      *self);
void _tm_window_dnd_init           (TmWindow      *self);
void _tm_window_export_xprof_json  (TmWindow      *self);
void _tm_window_export_csv         (TmWindow      *self);
void _tm_window_export_timeline_png (TmWindow     *self);

G_END_DECLS
