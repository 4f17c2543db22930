/** Events API listeners. Add a line per feature module. */
import type { App } from '@slack/bolt';
import * as lifecycle from '../../connection/uninstall.js';
import type { WorklinkDeps } from '../../context.js';
import * as home from '../../home/publish.js';

const modules: { register(app: App, deps: WorklinkDeps): void }[] = [lifecycle, home];

export function register(app: App, deps: WorklinkDeps): void {
  for (const m of modules) m.register(app, deps);
}
