/**
 * Was an outbox row's DM posted after all? A send that may have reached Slack (its worker
 * died mid-send, whatever instance that was; a timeout; a 5xx) is looked for in the DM
 * channel's recent history, by the row's marker in the message metadata, before it is sent
 * again (worker.ts).
 */
import type { Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { OutboxRow, OutboxStore } from '../../store/index.js';
import { classifySlackError } from './slack-errors.js';

/** The message metadata event type that marks Worklink's assignment DMs. */
export const DM_EVENT_TYPE = 'worklink_task_assigned';

/** Slack answers meaning "history cannot be read here", so the send goes ahead unchecked. */
const CANNOT_RECONCILE = new Set([
  'missing_scope',
  'unknown_method',
  'not_allowed_token_type',
  'method_deprecated',
  'no_permission',
]);

export class Reconciler {
  private warnedNoHistory = false;

  constructor(
    private readonly outbox: OutboxStore,
    /** Messages of the DM's history searched (the DM is among the latest). */
    private readonly historyLimit: number,
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {}

  /**
   * The posted DM, or undefined when it is not there. When history cannot be read at all
   * (scope missing), the send goes ahead: a rare duplicate beats a lost notification.
   */
  async find(
    slack: WebClient,
    row: OutboxRow,
  ): Promise<{ ts?: string; channel?: string } | undefined> {
    try {
      let channel = row.dmChannel;
      if (!channel) {
        const opened = await slack.conversations.open({ users: row.slackUserId! });
        channel = opened.channel?.id;
        if (!channel) return undefined;
        await this.outbox.update(row.id, { dmChannel: channel });
      }
      const oldest = Math.floor(Date.parse(row.createdAt) / 1000) - 60;
      const history = await slack.conversations.history({
        channel,
        limit: this.historyLimit,
        include_all_metadata: true,
        oldest: String(Math.max(oldest, 0)),
      });
      const found = history.messages?.find((m) => {
        const meta = m.metadata as
          | { event_type?: string; event_payload?: Record<string, unknown> }
          | undefined;
        return meta?.event_type === DM_EVENT_TYPE && meta.event_payload?.marker === row.marker;
      });
      return found ? { ts: found.ts, channel } : undefined;
    } catch (e) {
      const failure = classifySlackError(e);
      if (failure.kind === 'permanent' && CANNOT_RECONCILE.has(failure.reason)) {
        if (!this.warnedNoHistory) {
          this.warnedNoHistory = true;
          this.logger?.warn(
            `Cannot read DM history to reconcile interrupted sends (${failure.reason}); add the im:history scope. Resending instead.`,
          );
        }
        return undefined;
      }
      throw e;
    }
  }
}
