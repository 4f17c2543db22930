// What a person opens that the app draws: the app's Home or Messages tab (app_home_opened) and
// a link preview's side panel (entity_details_requested; the app answers with
// entity.presentDetails, link-previews.ts).

import { type AppLink, answered, type InteractionResult } from './app-link.js';
import { eventCallback } from './event-callbacks.js';
import { nextTs } from './slack-ids.js';

export async function openHome(
  link: AppLink,
  input: { userId: string; tab: 'home' | 'messages' },
): Promise<InteractionResult> {
  const s = link.state;
  if (!link.human(input.userId)) return { ok: false, problem: `There is no user ${input.userId}.` };
  const im = s.imFor(input.userId);
  const homeId = s.homeViews.get(input.userId);
  const view = homeId ? s.views.get(homeId)?.view : undefined;
  const d = await link.deliver(
    'event',
    eventCallback(s, link.opts.verificationToken, {
      type: 'app_home_opened',
      user: input.userId,
      channel: im?.id,
      tab: input.tab,
      event_ts: nextTs(),
      ...(view && input.tab === 'home' ? { view } : {}),
    }),
    `app_home_opened (${input.tab})`,
  );
  return { ok: answered(d), status: d.status };
}

/** A person opens a link preview's details: the app is asked for the side panel. */
export async function entityDetails(
  link: AppLink,
  userId: string,
  message: { channel: string; ts: string; url: string },
): Promise<InteractionResult> {
  const s = link.state;
  const previews = link.opts.previews;
  const found = s.findMessage(message.channel, message.ts);
  if (!previews || !found?.unfurl) return { ok: false, problem: 'That message has no preview.' };
  s.panels.delete(userId);
  const event = previews.detailsRequested(userId, found, message.url);
  const body = eventCallback(s, link.opts.verificationToken, event);
  await link.deliver('event', body, 'a preview’s details');
  return { ok: true };
}
