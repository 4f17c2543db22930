// A person runs one of the app's shortcuts (manifest `shortcuts`): a global one from the header,
// or a message shortcut from a message's ⋯ menu, sent to the app as a signed payload.

import { type AppLink, answered, type InteractionResult } from './app-link.js';
import { nextTs } from './slack-ids.js';
import { messageObject } from './slack-objects.js';

export interface ShortcutInput {
  userId: string;
  callbackId: string;
  /** For message shortcuts: the message. */
  channel?: string;
  ts?: string;
}

export async function shortcut(link: AppLink, input: ShortcutInput): Promise<InteractionResult> {
  const s = link.state;
  if (!link.human(input.userId)) return { ok: false, problem: `There is no user ${input.userId}.` };
  const isMessage = input.channel !== undefined;
  const known = link.opts
    .surface()
    .shortcuts.find(
      (x) => x.callbackId === input.callbackId && x.type === (isMessage ? 'message' : 'global'),
    );
  if (!known) return { ok: false, problem: `The app has no shortcut "${input.callbackId}".` };
  const base = {
    token: link.opts.verificationToken,
    action_ts: nextTs(),
    team: link.team(),
    user: link.userRef(input.userId),
    is_enterprise_install: false,
    enterprise: null,
    callback_id: input.callbackId,
    trigger_id: s.issueTrigger(input.userId),
  };
  let payload: Record<string, unknown>;
  if (isMessage) {
    const message = s.findMessage(input.channel ?? '', input.ts ?? '');
    const channel = s.channels.get(input.channel ?? '');
    if (!message || !channel || !s.canSee(input.userId, message) || message.ephemeralTo) {
      return { ok: false, problem: 'That message cannot be used with a shortcut.' };
    }
    const hook = s.newResponseHook(input.userId, channel.id);
    payload = {
      type: 'message_action',
      ...base,
      channel: { id: channel.id, name: s.channelName(channel) },
      message_ts: message.ts,
      message: messageObject(s, message),
      response_url: s.responseUrl(hook),
    };
  } else {
    payload = { type: 'shortcut', ...base };
  }
  const d = await link.deliver('interactivity', payload, `Shortcut "${known.name}"`);
  if (!answered(d)) {
    return { ok: false, status: d.status, problem: 'The app did not respond to the shortcut.' };
  }
  return { ok: true, status: d.status };
}
