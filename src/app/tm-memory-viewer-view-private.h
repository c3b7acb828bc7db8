/* tm-memory-viewer-view-private.h — what the Memory Viewer page's two files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-memory-viewer-view.c: the session and the query, the module and
 * memory-space dropdowns, the cards, the run and the op looked for;
 * tm-memory-viewer-view-buffers.c: the charts, the table of the buffers
 * live at the peak and the selected buffer's details.
 */
#pragma once

#include "tm-buffer-chart-area.h"
#include "tm-memory-viewer-query.h"
#include "tm-memory-viewer-view.h"

G_BEGIN_DECLS

struct _TmMemoryViewerView
{
  TmView               parent_instance;

  /* Template widgets */
  GtkStack            *state_stack;
  GtkProgressBar      *loading_progress;
  GtkLabel            *loading_detail;
  GtkLabel            *missing_message;
  GtkDropDown         *module_dropdown;
  GtkDropDown         *space_dropdown;
  GtkScrolledWindow   *scroller;
  GtkWidget           *op_banner;
  GtkLabel            *op_label;
  GtkWidget           *op_clear_button;
  GtkStack            *module_stack;
  GtkSpinner          *pending_spinner;
  GtkLabel            *error_label;
  GtkFlowBox          *cards_box;
  GtkWidget           *compare_box;
  GtkLabel            *compare_label;
  GtkWidget           *run_button;
  GtkBox              *heap_box;
  GtkWidget           *peak_heading;
  GtkBox              *bars_box;
  GtkWidget           *table_paned;
  GtkColumnView       *column_view;
  GtkGrid             *details_grid;
  GtkWidget           *offsets_heading;
  GtkBox              *offsets_box;

  GtkWidget           *heap_area;
  GtkLabel            *heap_readout;
  GtkWidget           *bars_area;
  GtkLabel            *bars_readout;
  GtkWidget           *offsets_area;
  GtkLabel            *offsets_readout;
  GtkLabel            *details_empty;

  GSignalGroup        *query_signals;
  /* The module listed at each position of the dropdown, and the memory
   * spaces of the one shown. */
  GPtrArray           *listed;        /* char * */
  GArray              *spaces;        /* gint64 */
  gboolean             filling;       /* the dropdowns are being filled */

  /* What the buffer parts show: the result and its charts. */
  const TmBufferAssignment *result;
  TmBufferCharts      *charts;
  GListStore          *rows;
  GtkCustomFilter     *op_filter;
  GtkSortListModel    *sort_model;
  GtkSingleSelection  *selection;
  GArray              *lit;           /* gint64 ids of the op's buffers here, sorted; NULL: no op */
  gint64               selected_id;   /* -1: none */
  gboolean             syncing;
  gboolean             placing_paned;  /* the table's share is being set, not dragged */
  guint                cursor;        /* program point, G_MAXUINT: none */
  char                *op_switched;   /* the op whose first module was shown */
};

/* tm-memory-viewer-view-buffers.c */
void _tm_memory_viewer_view_buffers_init (TmMemoryViewerView       *self);
/* Shows result (NULL: none) in the charts, the table and the details. */
void _tm_memory_viewer_view_show_result  (TmMemoryViewerView       *self,
                                          const TmBufferAssignment *result);
/* The op's buffers here changed (self->lit). */
void _tm_memory_viewer_view_update_lit   (TmMemoryViewerView       *self);
void _tm_memory_viewer_view_select       (TmMemoryViewerView       *self,
                                          gint64                    logical_buffer_id);

G_END_DECLS
