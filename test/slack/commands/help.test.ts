/**
 * `/work help` is short and task-first: the five things people do, with buttons that work
 * (New task opens the form; My tasks answers with the person's tasks); `/work help all` lists
 * every command, admin-only ones to admins only, and no example needs a raw id.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
});
afterAll(() => h?.stop());

interface Block {
  type: string;
  text?: { text: string };
  accessory?: { action_id: string; value?: string; text: { text: string } };
}

it('answers /work help with the five things people do, and buttons that work', async () => {
  const reply = await h.replyTo(await h.slack.slashCommand('help', { userId: h.users.bob.id }));
  const blocks = reply.blocks as Block[];
  const things = blocks.filter((b) => b.type === 'section' && b.text?.text.startsWith('*'));
  expect(things.map((b) => /^\*([^*]+)\*/.exec(b.text!.text)?.[1])).toEqual([
    'Create a task',
    'See your tasks',
    'Finish a task',
    'Comment on a task',
    'Turn a message into a task',
  ]);
  expect(JSON.stringify(blocks)).toContain('`/work help all`');
  // Short: no admin command, no raw id.
  const all = JSON.stringify(reply);
  expect(all).not.toMatch(/connect|disconnect|link @|[0-9a-f]{24}/);

  const mine = things[1]!.accessory!;
  const pressed = await h.slack.blockAction(
    { actionId: mine.action_id, value: mine.value },
    { userId: h.users.bob.id },
  );
  expect(pressed.status).toBe(200);
  expect(String((await h.replyTo(pressed)).text)).toMatch(/open task|no open tasks/i);

  const create = things[0]!.accessory!;
  expect(create.action_id).toBe(ACTION.homeNewTask);
  const opened = await h.slack.blockAction({ actionId: create.action_id });
  const open = await h.fake.waitForCall(
    'views.open',
    (c) => c.body.trigger_id === opened.triggerId,
  );
  expect(JSON.stringify(open.body.view)).toContain('New task');
});

it('lists every command with `help all`: admin commands to admins only', async () => {
  const bob = await h.replyTo(await h.slack.slashCommand('help all', { userId: h.users.bob.id }));
  const alice = await h.replyTo(
    await h.slack.slashCommand('help all', { userId: h.users.alice.id }),
  );
  for (const usage of ['/work list', '/work done', '/work notify', '/work project new']) {
    expect(bob.text).toContain(usage);
  }
  expect(bob.text).not.toContain('/work connect [apiKey]');
  expect(bob.text).not.toContain('/work link');
  expect(alice.text).toContain('/work connect [apiKey]');
  expect(alice.text).toContain('/work link');
  expect(JSON.stringify(bob.blocks)).not.toMatch(/e\.g\. `[^`]*[0-9a-f]{24}/);
});
