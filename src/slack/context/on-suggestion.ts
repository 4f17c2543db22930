/**
 * A type-ahead field's options (external_select, multi_external_select): Slack asks as the
 * person types (a block_suggestion), and this answers within Slack's 3 seconds with what
 * `answer` finds, through the one length guard. A failure is logged and answered with no
 * options, so the field stays usable instead of showing Slack's error.
 */
import type { App, BlockSuggestion } from '@slack/bolt';
import type { Option } from '@slack/types';
import { fitOptionsAnswer } from '../ui/limits.js';
import type { WorklinkDeps } from './deps.js';
import { errMessage } from './error-replies.js';

export function onSuggestion(
  app: App,
  deps: Pick<WorklinkDeps, 'logger'>,
  actionId: string,
  /** What the options are of, for the log ("Project", "Assignee", …). */
  what: string,
  answer: (teamId: string, typed: string, body: BlockSuggestion) => Promise<Option[]>,
): void {
  app.options<'block_suggestion'>(
    { type: 'block_suggestion', action_id: actionId },
    async ({ ack, body }) => {
      const teamId = body.team?.id ?? body.user.team_id ?? '';
      try {
        await ack(fitOptionsAnswer({ options: await answer(teamId, body.value ?? '', body) }));
      } catch (e) {
        deps.logger.warn(`${what} options failed: ${errMessage(e)}`);
        await ack({ options: [] });
      }
    },
  );
}
