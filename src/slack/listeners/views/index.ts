/** Modal (view_submission / view_closed) listeners. Add a line per feature module. */
import type { App } from '@slack/bolt';
import * as connect from '../../connection/submit.js';
import type { WorklinkDeps } from '../../context.js';
import * as projects from '../../projects/form/submit.js';
import * as tasks from './tasks.js';

const modules: { register(app: App, deps: WorklinkDeps): void }[] = [connect, tasks, projects];

export function register(app: App, deps: WorklinkDeps): void {
  for (const m of modules) m.register(app, deps);
}
