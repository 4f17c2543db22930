/**
 * Link previews (docs/links.md): `link_shared` for the service's domains → one read of the
 * task → `chat.unfurl` with a Work Object (entity type task) and ordinary unfurl blocks;
 * project links unfurl to the project's summary. `entity_details_requested` (the side panel)
 * → `entity.presentDetails` with the whole task, read for the person who asked.
 *
 * Privacy: only a workspace connected to the service the link belongs to unfurls it (an
 * embedded page must be signed with this workspace's key); the admin's choice (`/work
 * previews`) says everywhere, only in channels linked to the task's project, or nowhere; a
 * deleted or unknown task unfurls to nothing.
 */
import type { App } from '@slack/bolt';
import type { EntityMetadata, KnownBlock } from '@slack/types';
import { errMessage } from '../../error-message.js';
import { isWorkApiError } from '../../workapi/client.js';
import type { WorklinkDeps } from '../context/deps.js';
import { type WorkContext, workContext } from '../context/work-context.js';
import type { LinkTarget } from '../context/work-links.js';
import { taskCardData } from '../tasks/card/load.js';
import { factsFromTask } from '../tasks/facts.js';
import {
  projectUnfurlBlocks,
  type TaskEntityInput,
  taskEntity,
  taskUnfurlBlocks,
} from './entity.js';

/** Links one message may unfurl (Slack sends at most a few; the rest are left alone). */
const MAX_LINKS = 5;

interface Unfurled {
  blocks: KnownBlock[];
  entity?: EntityMetadata;
}

function productName(deps: WorklinkDeps): string {
  return deps.config.links?.serviceName ?? (deps.config.workApi ? 'Teamcamp' : 'Worklink tasks');
}

/** The task as a Work Object's input, read now; undefined when it is gone or unreadable. */
async function taskInput(
  ctx: WorkContext,
  taskId: string,
  postedUrl: string,
  full: boolean,
): Promise<{ input: TaskEntityInput; projectId?: string } | undefined> {
  let task: Awaited<ReturnType<WorkContext['work']['getTask']>>;
  try {
    task = await ctx.work.getTask(taskId);
  } catch (e) {
    if (!isWorkApiError(e) || e.status !== 404) {
      ctx.logger.debug(`Preview of task ${taskId}: ${errMessage(e)}`);
    }
    return undefined;
  }
  const facts = factsFromTask(task);
  const data = await taskCardData(ctx, facts);
  const creator = await ctx.store.taskCreators.get(ctx.teamId, taskId);
  const url = ctx.deps.links.task(ctx.teamId, { ...facts, number: data.number }) ?? postedUrl;
  return {
    projectId: facts.projectId,
    input: {
      postedUrl,
      url,
      data,
      description: facts.description,
      ...(creator?.slackUserId ? { createdBy: { slackUserId: creator.slackUserId } } : {}),
      productName: productName(ctx.deps),
      full,
    },
  };
}

async function projectPreview(ctx: WorkContext, projectId: string, postedUrl: string) {
  try {
    const project = await ctx.work.getProject(projectId);
    const page = await ctx.work.listTasksPage(
      { projectId, complete: false },
      { limit: 5, offset: 0 },
    );
    const numbers = await Promise.all(
      page.tasks.map(async (t) => (await ctx.store.taskIndex.get(ctx.teamId, t.taskId))?.number),
    );
    return projectUnfurlBlocks({
      url: ctx.deps.links.project(ctx.teamId, projectId) ?? postedUrl,
      name: project.projectName || projectId,
      open: page.tasks.map((t, i) => ({
        number: t.taskNumber ?? numbers[i],
        name: t.taskName ?? '',
      })),
      openTotal: page.total,
    });
  } catch (e) {
    ctx.logger.debug(`Preview of project ${projectId}: ${errMessage(e)}`);
    return undefined;
  }
}

/** One link's preview, or undefined when it must not (or cannot) unfurl here. */
async function preview(
  ctx: WorkContext,
  target: LinkTarget,
  postedUrl: string,
  linkedOnly: boolean,
): Promise<Unfurled | undefined> {
  const here =
    linkedOnly && ctx.channelId
      ? (await ctx.store.channelProjects.get(ctx.teamId, ctx.channelId))?.projectId
      : undefined;
  if (linkedOnly && !here) return undefined;
  if (target.kind === 'project') {
    if (linkedOnly && here !== target.id) return undefined;
    const blocks = await projectPreview(ctx, target.id, postedUrl);
    return blocks ? { blocks } : undefined;
  }
  const task = await taskInput(ctx, target.id, postedUrl, false);
  if (!task || (linkedOnly && here !== task.projectId)) return undefined;
  return { blocks: taskUnfurlBlocks(task.input), entity: taskEntity(task.input) };
}

export function registerUnfurls(app: App, deps: WorklinkDeps): void {
  app.event('link_shared', async (args) => {
    const { event } = args;
    try {
      const ctx = await workContext(deps, args);
      const none = (why: string) =>
        deps.logger.debug(`Link previews: none for message ${event.message_ts} (${why}).`);
      // Only a workspace connected to the service: its key reads the task.
      if (!ctx.connection) return none('not connected');
      const mode = await ctx.store.unfurlSettings.get(ctx.teamId);
      if (mode === 'off') return none('previews are off');
      const unfurls: Record<string, { blocks: KnownBlock[] }> = {};
      const entities: EntityMetadata[] = [];
      for (const link of event.links.slice(0, MAX_LINKS)) {
        const target = deps.links.parse(ctx.teamId, link.url);
        if (!target) continue;
        const shown = await preview(ctx, target, link.url, mode === 'linked');
        if (!shown) continue;
        unfurls[link.url] = { blocks: shown.blocks };
        if (shown.entity) entities.push(shown.entity);
      }
      if (Object.keys(unfurls).length === 0) return none('no link of this workspace to show');
      const where =
        event.unfurl_id && event.source === 'composer'
          ? { unfurl_id: event.unfurl_id, source: 'composer' as const }
          : { channel: event.channel, ts: event.message_ts };
      await ctx.slack.chat.unfurl({
        ...where,
        unfurls,
        ...(entities.length ? { metadata: { entities } } : {}),
      });
    } catch (e) {
      deps.logger.warn(`Could not preview a link: ${errMessage(e)}`);
    }
  });

  app.event('entity_details_requested', async (args) => {
    const { event } = args;
    try {
      const ctx = await workContext(deps, args);
      const url = event.app_unfurl_url ?? event.link.url;
      const target = ctx.connection ? deps.links.parse(ctx.teamId, url) : undefined;
      const taskId =
        target?.kind === 'task'
          ? target.id
          : event.external_ref?.type === 'task' && ctx.connection
            ? event.external_ref.id
            : undefined;
      const task = taskId ? await taskInput(ctx, taskId, url, true) : undefined;
      await ctx.slack.entity.presentDetails(
        task
          ? { trigger_id: event.trigger_id, metadata: taskEntity(task.input) }
          : { trigger_id: event.trigger_id, error: { status: 'not_found' } },
      );
    } catch (e) {
      deps.logger.warn(`Could not show a task's details: ${errMessage(e)}`);
    }
  });
}
