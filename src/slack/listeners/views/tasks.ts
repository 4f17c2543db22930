/** Task modals: the create/edit form (taskForm.ts) and the two comment modals (taskComment.ts). */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../../context.js';
import * as taskComment from './taskComment.js';
import * as taskForm from './taskForm.js';

export function register(app: App, deps: WorklinkDeps): void {
  taskForm.register(app, deps);
  taskComment.register(app, deps);
}
