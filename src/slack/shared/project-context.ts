/**
 * What the Slack side remembers about projects: the channel's default project
 * (channel_projects) and the projects this team has seen (known_projects, which stand in for
 * the project list the service does not have).
 */
import { isWorkApiError } from '../../workapi/client.js';
import type { WorkContext } from '../context/work-context.js';

/** Records a sighting of a project (linked, created or looked up). */
export async function rememberProject(
  ctx: Pick<WorkContext, 'store' | 'teamId'>,
  projectId: string,
  name: string | undefined,
): Promise<void> {
  await ctx.store.knownProjects.remember(ctx.teamId, projectId, name?.trim() || projectId);
}

/** The default project of the context's channel, if it has one. */
export async function channelProjectId(ctx: WorkContext): Promise<string | undefined> {
  if (!ctx.channelId) return undefined;
  return (await ctx.store.channelProjects.get(ctx.teamId, ctx.channelId))?.projectId;
}

/** A project's name as remembered, else its id. */
export async function knownName(ctx: WorkContext, projectId: string): Promise<string> {
  return (await ctx.store.knownProjects.get(ctx.teamId, projectId))?.projectName ?? projectId;
}

export interface LinkResult {
  /** The project the channel was linked to before, when it was another one. */
  replaced?: { projectId: string; name: string };
  /** The channel was already linked to this project. */
  already: boolean;
}

/** Makes `projectId` the channel's default project and remembers it (one unit of work). */
export async function linkChannel(
  ctx: WorkContext,
  channelId: string,
  projectId: string,
  name: string | undefined,
): Promise<LinkResult> {
  const { before } = await ctx.store.linkChannel(
    ctx.teamId,
    channelId,
    { projectId, projectName: name?.trim() || projectId },
    ctx.userId,
  );
  if (!before) return { already: false };
  if (before.projectId === projectId) return { already: true };
  return {
    already: false,
    replaced: { projectId: before.projectId, name: await knownName(ctx, before.projectId) },
  };
}

/**
 * What `loading` gives; when it fails with a 404 for `projectId`, that project is no longer
 * offered (it was deleted or never existed here) and the failure is passed on.
 */
export async function forgetIfGone<T>(
  ctx: WorkContext,
  projectId: string,
  loading: Promise<T>,
): Promise<T> {
  try {
    return await loading;
  } catch (err) {
    if (isWorkApiError(err) && err.kind === 'not_found') {
      await ctx.store.knownProjects.forget(ctx.teamId, projectId);
    }
    throw err;
  }
}
