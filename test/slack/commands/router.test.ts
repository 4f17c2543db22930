/**
 * The /work router through signed HTTP: help, unknown input, the "not connected" sentence,
 * the subcommand convention (a test-only subcommand registered the way features do), and
 * error wording for WorkClient failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subcommand } from '../../../src/slack/commands/router.js';
import { APOLOGY, NOT_CONNECTED } from '../../../src/slack/ui/error-text.js';
import { type Harness, startHarness } from '../../support/harness.js';

// Handed to the app the way src/slack/app.ts hands the features' lists.
const probes: Subcommand[] = [
  {
    name: 'probe',
    group: 'Test',
    usage: 'probe <taskId>',
    example: 'probe 65a1f0c2e4b0a1b2c3d4e5f6',
    summary: 'load a task (test only)',
    async run(ctx, args) {
      const task = await ctx.work.getTask(args.words[0] ?? '');
      await ctx.reply(`Task: ${task.taskName}`);
    },
  },
  {
    name: 'probe two',
    group: 'Test',
    usage: 'probe two <text>',
    example: 'probe two Hello',
    summary: 'echo (test only)',
    needsConnection: false,
    async run(ctx, args) {
      await ctx.reply(`echo:${args.text}|${args.words.length}|${args.name}`);
    },
  },
  {
    name: 'boom',
    group: 'Test',
    usage: 'boom',
    example: 'boom',
    summary: 'throws (test only)',
    hidden: true,
    needsConnection: false,
    async run() {
      throw new Error('kaboom at /secret/path');
    },
  },
];

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ subcommands: probes });
});
afterAll(() => h?.stop());

describe('help', () => {
  it('answers /work help all with every registered command and one example each', async () => {
    const res = await h.slack.slashCommand('help all', { userId: h.users.bob.id });
    expect(res.status).toBe(200);
    const reply = await h.replyTo(res);
    expect(reply.response_type).toBe('ephemeral');
    for (const usage of ['status', 'help [all]', 'probe <taskId>']) {
      expect(reply.text).toContain(`/work ${usage}`);
    }
    const blocksText = JSON.stringify(reply.blocks);
    expect(blocksText).toContain('e.g. `/work probe 65a1f0c2e4b0a1b2c3d4e5f6`');
    expect(blocksText).toContain('*Workspace*');
    // Hidden commands are dispatched but not listed.
    expect(reply.text).not.toContain('boom');
  });

  it('answers empty input with the short help', async () => {
    const res = await h.slack.slashCommand('   ');
    const reply = await h.replyTo(res);
    expect(reply.text).toMatch(/^What you can do with Worklink:/);
  });

  it('answers unknown input with one sentence and help', async () => {
    const res = await h.slack.slashCommand('frobnicate the widgets');
    const reply = await h.replyTo(res);
    expect(reply.text).toMatch(
      /^I don’t know `\/work frobnicate the widgets`\.\nWhat you can do with Worklink:/,
    );
  });
});

describe('dispatch', () => {
  it('matches two-word names before one-word names and keeps the rest verbatim', async () => {
    const res = await h.slack.slashCommand('PROBE  two  Hello <@U_BOB>  world');
    const reply = await h.replyTo(res);
    expect(reply.text).toBe('echo:Hello <@U_BOB>  world|3|probe two');
  });

  it('answers a command used before connecting with the helpful sentence', async () => {
    const res = await h.slack.slashCommand('probe 65a1f0c2e4b0a1b2c3d4e5f6');
    const reply = await h.replyTo(res);
    expect(reply.text).toBe(NOT_CONNECTED);
    expect(h.repliesTo(res)).toHaveLength(1);
  });

  it('turns an unexpected exception into an apology, logged, and keeps serving', async () => {
    const res = await h.slack.slashCommand('boom');
    expect(res.status).toBe(200);
    const reply = await h.replyTo(res);
    expect(reply.text).toBe(APOLOGY);
    expect(h.logs.some((l) => l.includes('kaboom'))).toBe(true);
    const again = await h.slack.slashCommand('help');
    expect((await h.replyTo(again)).text).toContain('What you can do with Worklink');
  });
});

describe('once connected', () => {
  beforeAll(() => h.connect());

  it('reaches the service through ctx.work', async () => {
    const tasks = await h.work.listTasks({ projectId: h.seed.projects[0].projectId });
    const res = await h.slack.slashCommand(`probe ${tasks[0].taskId}`);
    expect((await h.replyTo(res)).text).toBe(`Task: ${tasks[0].taskName}`);
  });

  it('answers an unknown task id in one sentence', async () => {
    const res = await h.slack.slashCommand('probe 0123456789abcdef01234567');
    const reply = await h.replyTo(res);
    // The router's fallback wording has no id; features pass `id` to describeWorkError.
    expect(reply.text).toBe(
      'Could not run `/work probe`: there is no task in the connected workspace. Check the id (it is shown on task cards).',
    );
  });

  it('shows the service’s own message for bad input', async () => {
    const res = await h.slack.slashCommand('probe short');
    const reply = await h.replyTo(res);
    expect(reply.text).toBe(
      'Could not run `/work probe`: taskId: must be an id of at least 10 characters.',
    );
  });
});
