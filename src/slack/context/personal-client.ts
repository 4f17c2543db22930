/**
 * A person's own key, as a WorkClient that notices when the service stops accepting it:
 * the first 401/403 marks the key failing (store), tells its owner once by DM, and the error
 * goes on marked `personalKey` (so the reply says it was their key, not the workspace's).
 * From the next request on, the acting seam no longer uses the key: the person acts as the
 * workspace's policy allows until they connect a new one.
 */
import { errMessage } from '../../error-message.js';
import { isWorkApiError, type WorkClient } from '../../workapi/client.js';
import type { WorkContext } from './work-context.js';

/** The DM a person gets once when their key stops working. */
export function keyRefusedText(workspaceName: string): string {
  return `The work-management service no longer accepts your own API key for *${workspaceName}* (it may have been revoked), so Worklink stopped using it. Until you connect a new one with \`/work connect me <apiKey>\` (or “Connect your account” on Worklink’s Home tab), you act as this workspace allows.`;
}

export function guardPersonalClient(ctx: WorkContext, client: WorkClient): WorkClient {
  const refused = async (e: unknown): Promise<never> => {
    if (isWorkApiError(e) && e.kind === 'auth') {
      e.personalKey = true;
      await keyRefused(ctx, errMessage(e)).catch((err: unknown) =>
        ctx.logger.warn(`Could not record a refused personal key: ${errMessage(err)}`),
      );
    }
    throw e;
  };
  const guard =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      fn(...args).catch(refused);
  // A new object over the shared client: the guard knows this request's person and Slack.
  const guarded: WorkClient = Object.create(client);
  guarded.verify = guard(client.verify.bind(client));
  guarded.createTask = guard(client.createTask.bind(client));
  guarded.getTask = guard(client.getTask.bind(client));
  guarded.updateTask = guard(client.updateTask.bind(client));
  guarded.postComment = guard(client.postComment.bind(client));
  guarded.createProject = guard(client.createProject.bind(client));
  guarded.getProject = guard(client.getProject.bind(client));
  guarded.updateProject = guard(client.updateProject.bind(client));
  guarded.getProjectDetails = guard(client.getProjectDetails.bind(client));
  guarded.listTasks = guard(client.listTasks.bind(client));
  return guarded;
}

async function keyRefused(ctx: WorkContext, reason: string): Promise<void> {
  const first = await ctx.store.personalKeys.markFailing(ctx.teamId, ctx.userId, reason);
  if (!first) return;
  ctx.logger.info(`Team ${ctx.teamId}: the service refused ${ctx.userId}'s own key; not used now.`);
  const text = keyRefusedText(ctx.connection?.workspaceName ?? 'the work-management workspace');
  await ctx.slack.chat.postMessage({ channel: ctx.userId, text });
}
