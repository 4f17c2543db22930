/**
 * Held DMs follow their person's quiet hours as they change: turned off, or moved so they no
 * longer cover this moment, the DMs held for them go out at once (not at the old end, hours
 * later); moved to end later, they wait for the new end. Through signed `/work` commands.
 */
import { TZDate } from '@date-fns/tz';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.js';
import { linkChannel } from '../tasks/helpers.js';

let h: Harness;
const BOB = 'U_BOB';

beforeAll(async () => {
  h = await startHarness({ connect: true });
  await linkChannel(h, 0);
});
afterAll(() => h?.stop());

/** A window around this moment in Bob's zone (Europe/Berlin), `before`–`after` hours. */
function windowAroundNow(before: number, after: number): string {
  const hour = new TZDate(Date.now(), 'Europe/Berlin').getHours();
  const at = (hh: number) => `${String((hh + 24) % 24).padStart(2, '0')}:00`;
  return `${at(hour - before)}-${at(hour + after)}`;
}

const dmTo = (name: string) =>
  h.fake
    .callsOf('chat.postMessage')
    .filter((c) => c.body.channel === BOB && JSON.stringify(c.body).includes(name));

async function heldDm(name: string) {
  await h.slack.slashCommand(`add ${name} @bob`);
  await h.waitFor(async () => (await h.worklink.store.heldDms.heldFor(h.teamId, BOB)).length > 0);
  expect(dmTo(name)).toEqual([]);
}

it('sends the held DMs at once when quiet hours are turned off', async () => {
  await h.replyTo(
    await h.slack.slashCommand(`notify quiet ${windowAroundNow(1, 3)}`, { userId: BOB }),
  );
  await heldDm('Water the plants');
  const res = await h.slack.slashCommand('notify quiet off', { userId: BOB });
  expect((await h.replyTo(res)).text).toBe(
    'Quiet hours are now *off*: DMs come as they happen. The 1 DM held for you comes now.',
  );
  await h.waitFor(() => dmTo('Water the plants').length === 1);
  expect(await h.worklink.store.heldDms.heldFor(h.teamId, BOB)).toEqual([]);
});

it('sends them at once when new quiet hours no longer cover now, and keeps them when they do', async () => {
  await h.replyTo(
    await h.slack.slashCommand(`notify quiet ${windowAroundNow(1, 3)}`, { userId: BOB }),
  );
  await heldDm('Feed the cat');
  // Still quiet now, but ending sooner: held until the new end.
  await h.replyTo(
    await h.slack.slashCommand(`notify quiet ${windowAroundNow(2, 1)}`, { userId: BOB }),
  );
  const [held] = await h.worklink.store.heldDms.heldFor(h.teamId, BOB);
  expect(held!.releaseAt - Date.now()).toBeLessThanOrEqual(3_600_000);
  // Hours that ended an hour ago: out now.
  await h.replyTo(
    await h.slack.slashCommand(`notify quiet ${windowAroundNow(5, -1)}`, { userId: BOB }),
  );
  await h.waitFor(() => dmTo('Feed the cat').length === 1);
});
