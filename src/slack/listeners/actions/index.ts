/** Block action listeners (buttons, selects). Add a line per feature module. */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../../context.js';
import * as projects from '../../projects/actions.js';
import * as tasks from '../../tasks/actions.js';

const modules: { register(app: App, deps: WorklinkDeps): void }[] = [tasks, projects];

export function register(app: App, deps: WorklinkDeps): void {
  for (const m of modules) m.register(app, deps);
}
