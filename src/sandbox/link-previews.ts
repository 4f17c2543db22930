/**
 * Link previews in the sandbox, as Slack does them: a message posted with a link to one of the
 * app's unfurl domains sends `link_shared`; the app's `chat.unfurl` attaches the preview (Work
 * Object and blocks) to the message; pressing the preview's details asks the app with
 * `entity_details_requested`, and its `entity.presentDetails` opens the side panel for that
 * person. Domains: the manifest's (dash.teamcamp.app) and the app's own page hosts (start.ts).
 */

import type { SandboxChannel, SandboxMessage } from './records.js';
import { slackId } from './slack-ids.js';
import type { SandboxState } from './state.js';
import { UnfurlLog } from './unfurls.js';

const LINK = /<(https?:\/\/[^|>\s]+)(?:\|[^>]*)?>|(https?:\/\/[^\s<>|]+)/g;

export class LinkPreviews {
  private readonly domains = new Set<string>(['dash.teamcamp.app']);
  readonly log: UnfurlLog;

  constructor(private readonly state: SandboxState) {
    this.log = new UnfurlLog({
      unfurled: (u) => {
        const message = u.channel && u.ts ? state.findMessage(u.channel, u.ts) : undefined;
        if (!message) return;
        message.unfurl = { unfurls: u.unfurls ?? {}, entities: u.entities };
        state.changed();
      },
      detailed: (d) => {
        const userId = state.triggers.userOf(d.triggerId);
        if (!userId) return;
        state.panels.set(userId, d.metadata ?? { error: d.error });
        state.changed();
      },
    });
  }

  addDomains(hosts: readonly string[]): void {
    for (const h of hosts) this.domains.add(h);
  }

  /** The `link_shared` event for a message's links to the app's domains, if it has any. */
  linkShared(
    channel: SandboxChannel,
    message: SandboxMessage,
    botEvents: readonly string[],
  ): Record<string, unknown> | undefined {
    if (!botEvents.includes('link_shared')) return undefined;
    const links: { domain: string; url: string }[] = [];
    for (const m of message.text.matchAll(LINK)) {
      const url = (m[1] ?? m[2] ?? '').replace(/&amp;/g, '&');
      if (!URL.canParse(url)) continue;
      const host = new URL(url).host;
      if (this.domains.has(host) && !links.some((l) => l.url === url)) {
        links.push({ domain: host, url });
      }
    }
    if (links.length === 0) return undefined;
    return {
      type: 'link_shared',
      channel: channel.id,
      is_bot_user_member: channel.members.has(this.state.bot.botUserId),
      user: message.user,
      message_ts: message.ts,
      ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
      links: links.slice(0, 5),
      unfurl_id: slackId('U'),
      source: 'conversations_history',
      event_ts: message.ts,
    };
  }

  /** The `entity_details_requested` event for a person opening a preview's details. */
  detailsRequested(userId: string, message: SandboxMessage, url: string): Record<string, unknown> {
    const entity = message.unfurl?.entities.find((e) => e.app_unfurl_url === url);
    const ref = entity?.external_ref;
    return {
      type: 'entity_details_requested',
      user: userId,
      trigger_id: this.state.issueTrigger(userId),
      link: { url, domain: URL.canParse(url) ? new URL(url).host : '' },
      entity_url: typeof entity?.url === 'string' ? entity.url : url,
      app_unfurl_url: url,
      ...(ref && typeof ref === 'object' ? { external_ref: ref } : {}),
      user_locale: 'en-US',
      event_ts: `${Date.now() / 1000}`,
      channel: message.channel,
      message_ts: message.ts,
    };
  }
}
