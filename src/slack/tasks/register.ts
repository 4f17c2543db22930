/**
 * The tasks feature's Bolt listeners (its `/work` subcommands are `taskCommands` in
 * commands.ts): card and list buttons, the form's menus, the shortcuts, and the submissions
 * of the task form and the comment modals.
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import * as buttons from './actions.js';
import * as commentSubmit from './comment/submit.js';
import * as formActions from './form/actions.js';
import * as assigneePicker from './form/assignee-picker.js';
import * as projectPicker from './form/project-picker.js';
import * as similar from './form/similar.js';
import * as formSubmit from './form/submit.js';
import { TASK_ACTION } from './form/task-form-fields.js';
import * as mine from './mine/command.js';
import * as pickAction from './pick-action.js';
import * as picker from './picker.js';
import * as shortcuts from './shortcuts.js';

export function registerTasks(app: App, deps: WorklinkDeps): void {
  buttons.register(app, deps);
  formActions.register(app, deps);
  similar.register(app, deps);
  formSubmit.register(app, deps);
  commentSubmit.register(app, deps);
  shortcuts.register(app, deps);
  pickAction.register(app, deps);
  picker.register(app, deps);
  assigneePicker.register(app, deps, TASK_ACTION.assignees);
  projectPicker.register(app, deps, TASK_ACTION.project);
  mine.register(app, deps);
}
