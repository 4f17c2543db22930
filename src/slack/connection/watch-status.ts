/**
 * The watcher's lines of `/work status` (src/sync/watcher.ts): what is watched for tasks
 * made outside Slack, and when it last looked.
 */

import type { FailedAnnounce } from '../../sync/failed-announces.js';
import { requireAdmin } from '../context/permissions.js';
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
  const failed = await failedTasksLine(ctx, status.failedTasks);
  return `Tasks made outside Slack: ${status.projects.length} watched project(s), looked at ${every}:\n${lines.join('\n')}${problem}${failed}`;
};

/** New tasks that could not be announced yet, for admins (their errors name service data). */
async function failedTasksLine(
  ctx: Parameters<StatusSection>[0],
  failed: readonly FailedAnnounce[],
): Promise<string> {
  if (failed.length === 0) return '';
  const admin = await requireAdmin(ctx, '');
  if (!admin.allowed) return '';
  const named = failed
    .slice(0, NAMED)
    .map((f) => `• task \`${esc(f.taskId)}\` (${f.attempts} tries): ${esc(f.error.slice(0, 200))}`);
  if (failed.length > NAMED) named.push(`• and ${failed.length - NAMED} more`);
  return `\n:warning: ${failed.length} new task(s) could not be announced yet; Worklink tries again with a growing pause:\n${named.join('\n')}`;
}
