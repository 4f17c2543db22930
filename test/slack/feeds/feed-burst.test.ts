/**
 * Channel feeds, through signed Slack requests against the embedded service: 20 creates in a
 * minute (fake clock) become 5 cards and one summary edited as more arrive, and a task made
 * from a message answers in that message's thread.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TASK_ACTION } from '../../../src/slack/tasks/form/task-form-fields.js';
import { SHORTCUT } from '../../../src/slack/ui/block-ids.js';
import {
  answeredView,
  findTask,
  shown,
  stateFor,
  type ViewJson,
  viewOf,
} from '../tasks/helpers.js';
import { replyTs, useFeedHarness } from './feed-harness.js';

const f = useFeedHarness();

describe('a burst of new tasks', () => {
  beforeAll(async () => {
    await f.h.worklink.store.channelFeeds.enable(
      f.h.teamId,
      'C_ONBOARDING',
      false,
      f.h.users.alice.id,
    );
  });

  it('20 creates in a minute: 5 cards, then one summary edited to list the other 15', async () => {
    const names = Array.from(
      { length: 20 },
      (_, i) => `Burst task ${String(i + 1).padStart(2, '0')}`,
    );
    const answers: string[] = [];
    for (const name of names) {
      const res = await f.h.slack.slashCommand(`add ${name}`, { channelId: 'C_ONBOARDING' });
      if (answers.length >= 5) answers.push((await f.h.replyTo(res)).text ?? '');
      else {
        // One command at a time (each checks who acts before it creates): the feed's card
        // is this command's confirmation.
        await f.h.fake.waitForCall(
          'chat.postMessage',
          (c) => c.body.channel === 'C_ONBOARDING' && shown(c.body).includes(name),
        );
        answers.push('');
      }
      f.advance(1_000); // 20 s in all: one minute's burst
    }
    await f.settled();
    const top = f.h.fake
      .callsOf('chat.postMessage')
      .filter((c) => c.body.channel === 'C_ONBOARDING' && !c.body.thread_ts);
    const cards = top.filter((c) => shown(c.body).includes('created'));
    expect(cards.map((c) => names.find((n) => shown(c.body).includes(n)))).toEqual(
      names.slice(0, 5),
    );
    const summaries = top.filter((c) => shown(c.body).includes('more new task'));
    expect(summaries).toHaveLength(1);
    // The summary as it reads now: the first post, then its edits.
    const ts = replyTs(summaries[0]!);
    const edits = f.h.fake
      .callsOf('chat.update')
      .filter((c) => c.body.channel === 'C_ONBOARDING' && c.body.ts === ts);
    const last = edits.at(-1)?.body ?? summaries[0]!.body;
    expect(shown(last)).toContain('15 more new tasks in *Customer onboarding*');
    for (const name of names.slice(5)) expect(shown(last)).toContain(name);
    for (const name of names.slice(0, 5)) expect(shown(last)).not.toContain(name);
    // Their authors are told where their task went.
    for (const answer of answers.slice(5)) {
      expect(answer).toContain('It is listed in this channel’s summary of new tasks.');
    }

    // A minute later the channel is quiet again: a new task gets its own card.
    f.advance(61_000);
    await f.h.slack.slashCommand('add After the burst', { channelId: 'C_ONBOARDING' });
    await f.h.fake.waitForCall(
      'chat.postMessage',
      (c) =>
        c.body.channel === 'C_ONBOARDING' && /created \*#\d+ After the burst\*/.test(shown(c.body)),
    );
  });
});

describe('a burst of long-named tasks', () => {
  it('lists exactly what the summary says it lists: whole lines, then how many more', async () => {
    const names = Array.from({ length: 30 }, (_, i) =>
      `Long burst ${String(i + 1).padStart(2, '0')} ${'words '.repeat(30)}`.trim(),
    );
    for (const name of names) {
      await f.h.slack.slashCommand(`add ${name}`, { channelId: 'C_ONBOARDING' });
      f.advance(500);
    }
    await f.settled();
    const summary = f.h.fake
      .callsOf('chat.postMessage')
      .find((c) => c.body.channel === 'C_ONBOARDING' && shown(c.body).includes('more new task'));
    const ts = replyTs(summary!);
    const last =
      f.h.fake
        .callsOf('chat.update')
        .filter((c) => c.body.channel === 'C_ONBOARDING' && c.body.ts === ts)
        .at(-1)?.body ?? summary!.body;
    const blocks = (typeof last.blocks === 'string' ? JSON.parse(last.blocks) : last.blocks) as {
      text?: { text: string };
    }[];
    expect(blocks[0]?.text?.text).toContain('25 more new tasks in *Customer onboarding*');
    const lines = blocks[1]!.text!.text.split('\n');
    const listed = lines.filter((l) => l.startsWith('• '));
    const more = Number(/^…and (\d+) more/.exec(lines.at(-1) ?? '')?.[1] ?? 0);
    expect(more).toBeGreaterThan(0);
    expect(listed.length + more).toBe(25);
    // Every listed line is whole: its task's number and the start of its name.
    for (const line of listed) expect(line).toMatch(/^• #\d+ Long burst \d\d words/);
  });
});

describe('a task made from a message', () => {
  beforeAll(async () => {
    await f.h.worklink.store.channelFeeds.enable(
      f.h.teamId,
      'C_GENERAL',
      false,
      f.h.users.alice.id,
    );
  });

  it('answers in the message’s thread: "created … for @bob"', async () => {
    const messageTs = '1700000000.000777';
    const res = await f.h.slack.messageShortcut(SHORTCUT.createTaskFromMessage, {
      ts: messageTs,
      text: 'The footer overlaps on phones',
      user: f.h.users.bob.id,
    });
    const open = await f.h.fake.waitForCall(
      'views.open',
      (c) => c.body.trigger_id === res.triggerId,
    );
    const id = (await answeredView(f.h, open)).id;
    const update = await f.h.fake.waitForCall('views.update', (c) => c.body.view_id === id);
    const form = { ...viewOf(update), id } as ViewJson;
    const bob = f.h.seed.users.find((u) => u.email.startsWith('bob'))!.id;
    await f.h.slack.viewSubmission({
      callbackId: form.callback_id!,
      id: form.id,
      privateMetadata: form.private_metadata,
      values: stateFor(form, { [TASK_ACTION.assignees]: [bob] }),
    });
    const answer = await f.h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_GENERAL' && c.body.thread_ts === messageTs,
    );
    expect(shown(answer.body)).toMatch(
      /<@U_ALICE> created \*#\d+ The footer overlaps on phones\* for <@U_BOB>/,
    );
    const task = (await findTask(f.h, f.website, 'The footer overlaps on phones'))!;
    // It is a live message too: remembered with the task.
    expect(
      (await f.h.worklink.store.taskMessages.forTask(f.h.teamId, task.taskId)).some(
        (m) => m.channelId === 'C_GENERAL' && m.ts === replyTs(answer),
      ),
    ).toBe(true);
    // In a feed channel that answer is the feed's card: one card, not a second at the top of
    // the channel; the task's later activity follows in the message's thread.
    expect((await f.feedCard(task.taskId)).ts).toBe(messageTs);
    await f.settled();
    expect(f.posts('C_GENERAL', 'The footer overlaps on phones')).toEqual([]);
    const cards = f.h.fake
      .callsOf('chat.postMessage')
      .filter((c) => c.body.channel === 'C_GENERAL' && shown(c.body).includes('The footer'));
    expect(cards).toHaveLength(1);
  });
});
