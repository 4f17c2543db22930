/** Block action listeners (buttons, selects). Add a line per feature module. */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../../context.js';
import * as projects from './projects.js';
import * as taskPick from './task-pick.js';
import * as tasks from './tasks.js';

const modules: { register(app: App, deps: WorklinkDeps): void }[] = [tasks, taskPick, projects];

export function register(app: App, deps: WorklinkDeps): void {
  for (const m of modules) m.register(app, deps);
}
