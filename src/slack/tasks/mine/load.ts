/**
 * A person's open tasks across the workspace's watched projects, from the task index alone
 * (no service read: the reply is quick at any size), ordered by due-date group in the
 * VIEWER's time zone.
 */
import type { IndexedTask } from '../../../store/index.js';
import type { WorkContext } from '../../context/work-context.js';
import type { WorkLinks } from '../../context/work-links.js';
import { serviceUserOf } from '../../people/service-user-of.js';
import { type DueGroup, dateIn, orderMine } from './due-groups.js';

export interface MineRow extends IndexedTask {
  group: DueGroup;
  projectName: string;
  /** "Open in …", when the task's address is known (links/addresses.ts). */
  open?: { label: string; url: string };
}

export interface MineData {
  /** The Slack user whose tasks these are. */
  slackUserId: string;
  /** True when the viewer is that person. */
  own: boolean;
  name: string;
  today: string;
  /** Every open task, ordered; a page shows a slice. */
  rows: MineRow[];
}

export async function loadMine(
  ctx: WorkContext,
  slackUserId: string,
): Promise<MineData | { problem: string }> {
  const who = await serviceUserOf(ctx, slackUserId);
  if (!who.ok) return { problem: who.problem };
  const now = ctx.deps.clock?.() ?? Date.now();
  const today = dateIn(await ctx.userTimeZone(), now);
  return {
    slackUserId,
    own: slackUserId === ctx.userId,
    name: who.name,
    today,
    rows: await mineRows(ctx, who.ids, today, ctx.deps.links),
  };
}

/** Open tasks of these service users from the index, ordered (shared with the digest). */
export async function mineRows(
  ctx: Pick<WorkContext, 'store' | 'teamId'>,
  serviceUserIds: readonly string[],
  today: string,
  links?: WorkLinks,
): Promise<MineRow[]> {
  const seen = new Map<string, IndexedTask>();
  for (const id of serviceUserIds) {
    for (const t of await ctx.store.taskIndex.assignedTo(ctx.teamId, id)) seen.set(t.taskId, t);
  }
  const names = new Map<string, string>();
  for (const t of seen.values()) {
    if (!names.has(t.projectId)) {
      const known = await ctx.store.knownProjects.get(ctx.teamId, t.projectId);
      names.set(t.projectId, known?.projectName ?? t.projectId);
    }
  }
  return orderMine([...seen.values()], today).map((t) => {
    const url = links?.task(ctx.teamId, t);
    return {
      ...t,
      projectName: names.get(t.projectId) ?? t.projectId,
      ...(url && links ? { open: { label: links.label, url } } : {}),
    };
  });
}
