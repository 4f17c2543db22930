/** Loading a project and answering with its card; used by commands, buttons and modals. */
import type { WorkContext } from '../../context/work-context.js';
import { channelProjectId, forgetIfGone, rememberProject } from '../../shared/project-context.js';
import { loadProjectOverview } from './load.js';
import { projectCard } from './project-card.js';

/** Replies with the card of `projectId` (throws WorkApiError when it cannot be loaded). */
export async function replyWithProjectCard(
  ctx: WorkContext,
  projectId: string,
  intro?: string,
): Promise<void> {
  const overview = await forgetIfGone(ctx, projectId, loadProjectOverview(ctx.work, projectId));
  await rememberProject(ctx, overview.project.projectId, overview.project.projectName);
  const card = projectCard(overview, {
    intro,
    linkedHere: (await channelProjectId(ctx)) === overview.project.projectId,
    canLink: Boolean(ctx.channelId),
  });
  await ctx.reply(card);
}
