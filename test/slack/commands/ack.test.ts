/**
 * ack() comes first: with users.info held until the test lets it go, the slash command's HTTP
 * response still arrives before that call completes. Order of events, not timings.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.js';
import { heldCalls } from '../../support/held-calls.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
});
afterAll(() => h?.stop());

it('answers the slash command before slow work finishes', async () => {
  const usersInfo = heldCalls();
  h.fake.script('users.info', usersInfo.script);
  const res = await h.slack.slashCommand('status', { userId: h.users.bob.id });
  const acked = h.fake.mark('slash command answered');
  usersInfo.release();
  expect(res.status).toBe(200);
  expect(res.text).toBe('');

  const reply = await h.replyTo(res);
  expect(reply.text).toContain(h.seed.workspaceName);
  const infoCall = h.fake.callsOf('users.info').find((c) => c.body.user === h.users.bob.id);
  expect(infoCall?.doneSeq).toBeDefined();
  expect(acked).toBeLessThan(infoCall!.doneSeq!);
});

it('answers the connect command before the modal and the role check', async () => {
  h.worklink.deps.users.forget(h.teamId, h.users.alice.id);
  const usersInfo = heldCalls();
  h.fake.script('users.info', usersInfo.script);
  h.fake.reset();
  const res = await h.slack.slashCommand('connect');
  const acked = h.fake.mark('slash command answered');
  usersInfo.release();
  expect(res.status).toBe(200);
  await h.fake.waitForCall('views.open');
  await h.waitFor(() => h.fake.callsOf('users.info')[0]?.doneSeq, { timeoutMs: 5_000 });
  const timeline = h.fake.timeline;
  expect(acked).toBeLessThan(timeline.lastIndexOf('call views.open'));
  expect(acked).toBeLessThan(timeline.lastIndexOf('done users.info'));
});
