/** Making a project the channel's default: `/work project link <id>` and the card's button. */
import { runSafely } from '../context/error-replies.js';
import { canChangeChannelLinks } from '../context/permissions.js';
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { forgetIfGone, linkChannel } from '../shared/project-context.js';
import { announceInChannel } from './announce.js';

/** Links the context's channel to `projectId` after checking that the project exists. */
export async function linkProject(ctx: WorkContext, projectId: string): Promise<void> {
  const channelId = ctx.channelId;
  if (!channelId) {
    await ctx.reply('Run `/work project link <projectId>` in the channel to link it there.');
    return;
  }
  const permission = await canChangeChannelLinks(ctx);
  if (!permission.allowed) {
    await ctx.reply(permission.message);
    return;
  }
  await runSafely(ctx, { action: 'link the project', id: projectId }, async () => {
    // The project must exist before a channel points at it.
    const project = await forgetIfGone(ctx, projectId, ctx.work.getProject(projectId));
    const result = await linkChannel(ctx, channelId, project.projectId, project.projectName);
    const name = esc(project.projectName || project.projectId);
    if (result.already) {
      await ctx.reply(`*${name}* is already the default project of <#${channelId}>.`);
      return;
    }
    const instead = result.replaced ? ` (instead of *${esc(result.replaced.name)}*)` : '';
    const what = `: tasks created here go to it, and \`/work groups\` shows its groups.`;
    await announceInChannel(
      ctx,
      `<@${ctx.userId}> made *${name}* the default project of this channel${instead}${what}`,
      `*${name}* is now the default project of <#${channelId}>${instead}${what}`,
    );
  });
}
