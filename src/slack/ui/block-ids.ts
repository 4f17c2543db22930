/**
 * Block Kit ids shared between the views that render controls and the listeners that
 * handle them. A button in a DM, a card and a list must reach the same handler, so the ids
 * live here once. Button values carry the task id (or JSON where noted).
 */
export const ACTION = {
  /** Task card / DM buttons; value = taskId. */
  taskComment: 'task_comment',
  taskEdit: 'task_edit',
  taskComplete: 'task_complete',
  /** "Details": the current card where the person is (tasks/card/details.ts); value = taskId. */
  taskOpen: 'task_open',
  /** A task row's overflow menu (lists, the digest): Mark complete, Details, Comment, "Open in …" (tasks/card/row-menu.ts). */
  taskRowMenu: 'task_row_menu',
  /** On a done task's messages: back to the project's first open status; value = taskId. */
  taskReopen: 'task_reopen',
  /** Pick list of a task command that matched several; value = JSON {verb, taskId, rest}. */
  taskPick: 'task_pick',
  /** The type-ahead task picker (external_select; options from the task index). */
  taskPicker: 'task_picker',
  /** "My tasks" paging; value = JSON {user, page}; ids get ":prev" / ":next". */
  taskMinePage: 'task_mine_page',
  /** App Home's Mark complete (completes, then publishes Home again); value = taskId. */
  homeTaskComplete: 'home_task_complete',
  /** A My tasks row's menu on App Home (tasks/card/row-menu.ts values); Mark complete publishes Home again. */
  homeTaskMenu: 'home_task_menu',
  /** List paging; value = JSON {projectId, filter, page}. */
  taskListPage: 'task_list_page',
  /** Project select inside the task form (dispatch_action): refreshes project fields. */
  taskFormProject: 'task_form_project',
  /** Project card buttons; value = projectId. */
  projectEdit: 'project_edit',
  projectOpen: 'project_open',
  /** Pick list of a project command that matched several; value = JSON {command, projectId, rest}. */
  projectPick: 'project_pick',
  /** Project card button: make it the channel's default project; value = projectId. */
  projectLink: 'project_link',
  /** App Home buttons (no value). */
  homeNewTask: 'home_new_task',
  /** App Home's "My tasks" paging; value = the page (0-based); ids get ":prev" / ":next". */
  homeMinePage: 'home_mine_page',
  homeNewProject: 'home_new_project',
  /** App Home's notification checkboxes; option value = the kind (store/tables/notify-settings/). */
  homeNotify: 'home_notify',
  /** `/work remind`'s Cancel; value = the reminder's id. */
  reminderCancel: 'reminder_cancel',
  /** A task's "Remind me" overflow; option value = `<hour|morning|week>:<taskId>`. */
  remindMe: 'remind_me',
} as const;

export const VIEW = {
  taskCreate: 'task_create_modal',
  taskEdit: 'task_edit_modal',
  taskComment: 'task_comment_modal',
  commentFromMessage: 'comment_from_message_modal',
  projectCreate: 'project_create_modal',
  projectEdit: 'project_edit_modal',
  loading: 'loading_modal',
} as const;

export const SHORTCUT = {
  createTaskFromMessage: 'create_task_from_message',
  addCommentFromMessage: 'add_comment_from_message',
  newTask: 'new_task',
} as const;
