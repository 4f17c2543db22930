/** Task modals: the create/edit form (taskForm.ts) and the two comment modals (taskComment.ts). */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../../context.js';
import * as taskComment from '../../tasks/comment/submit.js';
import * as taskForm from '../../tasks/form/submit.js';

export function register(app: App, deps: WorklinkDeps): void {
  taskForm.register(app, deps);
  taskComment.register(app, deps);
}
