// A POST to a response_url, answered as Slack answers it: 200 "ok", 404 for a URL that expired
// (30 minutes) or was used five times, 400 for a body Slack refuses. It replaces or deletes the
// message the interaction came from, or posts a new one.

import type { AppLink } from './app-link.js';
import { validateBlocks } from './block-validation.js';
import { parseJsonObject } from './json-guards.js';
import { RESPONSE_URL_MAX_USES, RESPONSE_URL_TTL_MS } from './state.js';

export function respond(
  link: AppLink,
  hookId: string,
  raw: string,
): { status: number; text: string } {
  const s = link.state;
  const hook = s.hooks.get(hookId);
  if (!hook || Date.now() - hook.createdAt > RESPONSE_URL_TTL_MS) {
    return { status: 404, text: 'expired_url' };
  }
  if (hook.uses >= RESPONSE_URL_MAX_USES) return { status: 404, text: 'used_url' };
  const body = parseJsonObject(raw);
  if (!body) return { status: 400, text: 'invalid_payload' };
  const flag = (v: unknown) => v === true || v === 'true';
  const original = hook.original
    ? s.findMessage(hook.original.channel, hook.original.ts)
    : undefined;
  if (flag(body.delete_original)) {
    hook.uses += 1;
    if (original) s.deleteMessage(original);
    return { status: 200, text: 'ok' };
  }
  const blocks = Array.isArray(body.blocks) ? body.blocks : undefined;
  if (blocks && validateBlocks(blocks, 'message').length > 0) {
    return { status: 400, text: 'invalid_blocks' };
  }
  const text = typeof body.text === 'string' ? body.text : '';
  const attachments =
    Array.isArray(body.attachments) && body.attachments.length > 0 ? body.attachments : undefined;
  if (!text && !blocks?.length && !attachments) return { status: 400, text: 'no_text' };
  const channel = s.channels.get(hook.channelId);
  if (!channel) return { status: 404, text: 'channel_not_found' };
  // Only accepted posts count towards the five uses.
  hook.uses += 1;
  if (flag(body.replace_original) && original) {
    s.replaceMessage(original, { text, blocks, attachments }, s.bot.botUserId);
    return { status: 200, text: 'ok' };
  }
  const posted = link.postAppMessage(hook.userId, channel, body, 'response_url');
  if (posted) hook.original = { channel: posted.channel, ts: posted.ts };
  return { status: 200, text: 'ok' };
}
