/** Message and global shortcut listeners. Add a line per feature module. */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../../context.js';
import * as tasks from '../../tasks/shortcuts.js';

const modules: { register(app: App, deps: WorklinkDeps): void }[] = [tasks];

export function register(app: App, deps: WorklinkDeps): void {
  for (const m of modules) m.register(app, deps);
}
