/**
 * Issue 11, section 4 ("small things users hit"), through signed slash commands against the
 * embedded service: a mistyped command gets the closest one, quick add reads natural dates
 * in the person's own Slack time zone (fixed clock) and says what it understood, a past date
 * is taken with a note, and in a DM the project is chosen with the form or `in:`.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseDueDate } from '../../../src/slack/parse/due-date.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { findTask, linkChannel } from './helpers.js';

let h: Harness;
let website: string;

beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
});
afterAll(() => h?.stop());
beforeEach(async () => {
  await h.worklink.store.channelProjects.unlink(h.teamId, 'C_GENERAL');
  h.fake.reset();
});
afterEach(() => vi.useRealTimers());

async function replyText(command: string, userId = h.users.alice.id, channelId?: string) {
  const res = await h.slack.slashCommand(command, { userId, channelId });
  expect(res.status).toBe(200);
  return (await h.replyTo(res)).text ?? '';
}

describe('a mistyped command', () => {
  it('suggests the closest command instead of the whole help', async () => {
    const text = await replyText('lsit');
    expect(text).toBe(
      'I don’t know `/work lsit`. Did you mean `/work list`? (`/work help all` lists every command.)',
    );
    expect(text).not.toContain('What you can do with Worklink');
  });

  it('keeps what followed and handles two-word commands', async () => {
    expect(await replyText('lsit open')).toContain('Did you mean `/work list open`?');
    expect(await replyText('dnoe 65a1f0c2e4b0a1b2c3d4e5f6')).toContain(
      'Did you mean `/work done 65a1f0c2e4b0a1b2c3d4e5f6`?',
    );
    expect(await replyText('statsu')).toContain('Did you mean `/work status`?');
  });

  it('still shows the help when nothing is close', async () => {
    expect(await replyText('frobnicate')).toMatch(/^I don’t know `\/work frobnicate`\.\n/);
  });
});

describe('natural due dates in quick add', () => {
  // Sunday 2026-11-22 23:30 UTC: still Sunday in New York (Alice), Monday in Tokyo (Carol).
  const NOW = new Date('2026-11-22T23:30:00Z');

  it('reads "next week" and "in 3 days" in each person’s own time zone and says so', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    await linkChannel(h, 0);
    const alice = await replyText('add Plan the offsite due:next week @bob');
    const carol = await replyText('add Book the venue due:in 3 days', h.users.carol.id);
    expect(alice).toContain('Due *Sun, Nov 29, 2026* (from “next week”).');
    expect(carol).toContain('Due *Thu, Nov 26, 2026* (from “in 3 days”).');
    expect((await findTask(h, website, 'Plan the offsite'))?.dueDate?.slice(0, 10)).toBe(
      '2026-11-29',
    );
    expect((await findTask(h, website, 'Book the venue'))?.dueDate?.slice(0, 10)).toBe(
      '2026-11-26',
    );
    // The title is what is not the date: "next week" and "in 3 days" are not in it.
    expect(await findTask(h, website, 'Plan the offsite @bob')).toBeUndefined();
  });

  it('reads "Dec 5" and "tomorrow 5pm" as their dates', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    await linkChannel(h, 0);
    await replyText('add Send the invoices due:Dec 5');
    await replyText('add Call the printer due:tomorrow 5pm', h.users.carol.id);
    expect((await findTask(h, website, 'Send the invoices'))?.dueDate?.slice(0, 10)).toBe(
      '2026-12-05',
    );
    // Tomorrow for Carol in Tokyo, where it is already Monday.
    expect((await findTask(h, website, 'Call the printer'))?.dueDate?.slice(0, 10)).toBe(
      '2026-11-24',
    );
  });

  it('accepts a date in the past, with a note', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    await linkChannel(h, 0);
    const text = await replyText('add Backdated report due:yesterday');
    expect(text).toContain(
      'That due date (Sat, Nov 21, 2026) is in the past; the task has it anyway',
    );
    expect((await findTask(h, website, 'Backdated report'))?.dueDate?.slice(0, 10)).toBe(
      '2026-11-21',
    );
  });

  it('parses the same phrase to different days in two zones (pure)', () => {
    expect(parseDueDate('in 3 days', 'America/New_York', NOW)).toEqual({
      ok: true,
      date: '2026-11-25',
      natural: true,
    });
    expect(parseDueDate('in 3 days', 'Asia/Tokyo', NOW)).toEqual({
      ok: true,
      date: '2026-11-26',
      natural: true,
    });
    expect(parseDueDate('2026-01-02', 'UTC', NOW)).toEqual({
      ok: true,
      date: '2026-01-02',
      past: true,
    });
  });
});

describe('in a direct message with Worklink', () => {
  it('says how to choose a project there, not to link the channel', async () => {
    const text = await replyText('add Orphan task', h.users.alice.id, 'D_ALICE');
    expect(text).toBe(
      'A direct message has no project of its own, so use `/work new` to choose a project in a form, or name it with `in:`, like `/work add Fix the login page in:"Website relaunch"`.',
    );
    expect(await replyText('list', h.users.alice.id, 'D_ALICE')).toBe(
      'A direct message has no project of its own, so name one: `/work list open <project>`.',
    );
  });

  it('creates the task in the project named with in:', async () => {
    await h.worklink.store.knownProjects.remember(h.teamId, website, 'Website relaunch');
    await h.slack.slashCommand('add Draft the DM plan in:"website relaunch" due:2026-12-24', {
      channelId: 'D_ALICE',
    });
    // The confirmation is the live card, only to its author: in their DM with Worklink.
    const card = await h.fake.waitForCall('chat.postMessage', (c) =>
      JSON.stringify(c.body).includes('Draft the DM plan'),
    );
    expect(card.body.channel).toBe(h.users.alice.id);
    expect(JSON.stringify(card.body.blocks)).toContain('Website relaunch');
    expect(await findTask(h, website, 'Draft the DM plan')).toBeDefined();
    expect(await replyText('add Nowhere in:Atlantis', h.users.alice.id, 'D_ALICE')).toContain(
      'No project named “Atlantis” is known here.',
    );
  });
});
