/**
 * `/work projects`: the workspace's projects — name, the channels linked to each, open tasks —
 * from the service's own list (`GET {base}/project`) where it offers one, else the projects
 * Worklink knows. Open tasks are counted with one list page each (limit 1: the embedded
 * service says the total in X-Total-Count; others answer the list, cut by WorkClient).
 */
import type { KnownBlock } from '@slack/types';
import type { Subcommand } from '../../commands/router.js';
import { errMessage } from '../../context/error-replies.js';
import type { WorkContext } from '../../context/work-context.js';
import { cut, esc, plural } from '../../format/text.js';
import { mapLimit } from '../../shared/concurrency.js';
import { ACTION } from '../../ui/block-ids.js';
import { context, section } from '../../ui/blocks.js';
import { type ProjectEntry, projectDirectory } from '../find-project.js';

/** Most projects one answer shows (each costs a list read). */
const SHOWN = 25;

export interface ProjectRow extends ProjectEntry {
  channelIds: string[];
  /** undefined when the count could not be read. */
  open?: number;
}

export function projectsMessage(input: {
  rows: readonly ProjectRow[];
  total: number;
  fromService: boolean;
}): { text: string; blocks: KnownBlock[] } {
  if (input.rows.length === 0) {
    const text =
      'No projects yet. Create one with `/work project new`, or link one here with `/work project link <project>`.';
    return { text, blocks: [section(text)] };
  }
  const title = `*Projects* — ${plural(input.total, 'project')}`;
  const blocks: KnownBlock[] = [section(title)];
  for (const r of input.rows) {
    const channels = r.channelIds.length
      ? r.channelIds.map((c) => `<#${c}>`).join(', ')
      : '_no channel_';
    const open = r.open === undefined ? 'open tasks unknown' : `${plural(r.open, 'open task')}`;
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(`*${esc(r.projectName)}* · ${channels} · ${open}`, 3000),
      },
      accessory: {
        type: 'button',
        action_id: ACTION.projectOpen,
        text: { type: 'plain_text', text: 'Show' },
        value: r.projectId,
      },
    });
  }
  if (input.total > input.rows.length) {
    blocks.push(
      context(
        `…and ${input.total - input.rows.length} more; name one with \`/work project <words of its name>\`.`,
      ),
    );
  }
  if (!input.fromService) {
    blocks.push(
      context(
        'The service does not list its projects, so these are the ones Worklink has seen used, linked or created.',
      ),
    );
  }
  const text = `Projects: ${input.rows.map((r) => r.projectName).join(', ')}`;
  return { text: cut(text, 3000), blocks };
}

async function openCount(ctx: WorkContext, projectId: string): Promise<number | undefined> {
  try {
    const page = await ctx.work.listTasksPage(
      { projectId, complete: false },
      { limit: 1, offset: 0 },
    );
    return page.total;
  } catch (e) {
    ctx.logger.debug(`Open tasks of ${projectId}: ${errMessage(e)}`);
    return undefined;
  }
}

export const projectsCommand: Subcommand = {
  name: 'projects',
  group: 'Projects',
  usage: 'projects',
  example: 'projects',
  summary: 'list the workspace’s projects with their channels and open tasks',
  takesNothing: true,
  async run(ctx) {
    const { projects, offered } = await projectDirectory(ctx, { fresh: true });
    const links = await ctx.store.channelProjects.listForTeam(ctx.teamId);
    const shown = projects.slice(0, SHOWN);
    const rows = await mapLimit(shown, 4, async (p) => ({
      ...p,
      channelIds: links.filter((l) => l.projectId === p.projectId).map((l) => l.channelId),
      open: await openCount(ctx, p.projectId),
    }));
    await ctx.reply(projectsMessage({ rows, total: projects.length, fromService: offered }));
  },
};
