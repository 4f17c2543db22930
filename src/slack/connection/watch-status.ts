/**
 * The watcher's lines of `/work status` (src/sync/watcher.ts): what is watched for tasks
 * made outside Slack, and when it last looked.
 */

import { formatMoment } from '../format/date-text.js';
import { esc } from '../format/text.js';
import type { StatusSection } from './commands.js';

/** At most this many projects are named; the rest are counted. */
const NAMED = 10;

export const watchStatusSection: StatusSection = async (ctx) => {
  const { watcher } = ctx.deps;
  if (!watcher.enabled) {
    return 'Tasks made outside Slack: not looked for (WORK_POLL_SECONDS is 0); only service events announce them.';
  }
  const status = await watcher.status(ctx.teamId);
  const every = `every ${status.intervalMs / 1000} s`;
  if (status.projects.length === 0) {
    return `Tasks made outside Slack: looked for ${every} in watched projects; none yet (link a channel with \`/work project link\`).`;
  }
  const tz = await ctx.userTimeZone();
  const name = async (id: string) =>
    (await ctx.store.knownProjects.get(ctx.teamId, id))?.projectName ?? id;
  const lines = await Promise.all(
    status.projects.slice(0, NAMED).map(async (p) => {
      const when = p.lookedAt ? `last looked ${formatMoment(p.lookedAt, tz)}` : 'not looked at yet';
      return `• *${esc(await name(p.projectId))}*: ${when}`;
    }),
  );
  const more = status.projects.length - NAMED;
  if (more > 0) lines.push(`• and ${more} more`);
  const problem = status.problem
    ? `\n:warning: The last look failed: ${esc(status.problem)} Worklink keeps trying.`
    : '';
  return `Tasks made outside Slack: ${status.projects.length} watched project(s), looked at ${every}:\n${lines.join('\n')}${problem}`;
};
