// Block Kit checks and state building, and the page API's handling of bad input.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlockObj, normalizeBlocks } from '../../src/sandbox/block-kit.js';
import { validateBlocks, validateView } from '../../src/sandbox/block-validation.js';
import type { StateContext } from '../../src/sandbox/element-values.js';
import { buildState } from '../../src/sandbox/view-state.js';
import { startTestSandbox } from './helpers.js';

const ctx: StateContext = {
  userExists: (id) => id.startsWith('U0SB'),
  channelExists: (id) => id === 'C0SBGENERAL',
  makeFile: (url) => ({ id: 'F1', url_private: url }),
};

describe('validateBlocks', () => {
  it('accepts the blocks Worklink sends', () => {
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Task 7' } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '*Write the brief*' },
        fields: [{ type: 'mrkdwn', text: '*Due*\n2026-11-25' }],
        accessory: {
          type: 'overflow',
          action_id: 'more',
          options: [{ text: { type: 'plain_text', text: 'Open' }, value: 'open' }],
        },
      },
      { type: 'divider' },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: 'done',
            style: 'primary',
            text: { type: 'plain_text', text: 'Done' },
          },
        ],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'in Website' }] },
    ];
    expect(validateBlocks(blocks, 'message')).toEqual([]);
  });

  it('names each problem with a JSON pointer', () => {
    const problems = validateBlocks(
      [
        { type: 'section', block_id: 'a' },
        { type: 'section', block_id: 'a', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } },
        {
          type: 'actions',
          elements: [{ type: 'button', text: { type: 'plain_text', text: 'B' }, style: 'green' }],
        },
        { type: 'table' },
      ],
      'message',
    );
    expect(problems).toEqual([
      '[ERROR] must provide either text or fields [json-pointer:/blocks/0]',
      '[ERROR] duplicate block_id `a` [json-pointer:/blocks/1/block_id]',
      '[ERROR] must be less than 3001 characters [json-pointer:/blocks/1/text/text]',
      '[ERROR] must be one of: primary, danger [json-pointer:/blocks/2/elements/0/style]',
      '[ERROR] unsupported type `table` [json-pointer:/blocks/3/type]',
    ]);
  });

  it('limits messages to 50 blocks and views to 100', () => {
    const divider = { type: 'divider' };
    expect(validateBlocks(Array(51).fill(divider), 'message')).toHaveLength(1);
    expect(validateBlocks(Array(51).fill(divider), 'modal')).toEqual([]);
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(Array.isArray(validateBlocks(v, 'message'))).toBe(true);
        expect(Array.isArray(validateView(v, 'modal'))).toBe(true);
        expect(Array.isArray(validateView({ type: 'modal', title: v, blocks: [v] }, 'modal'))).toBe(
          true,
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('normalizeBlocks', () => {
  it('fills in block_id and action_id as Slack does, without touching the input', () => {
    const input = [
      { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Go' } }] },
    ];
    const [block] = normalizeBlocks(input);
    expect(block.block_id).toMatch(/^[\w-]{5}$/);
    expect(block.elements?.[0]?.action_id).toMatch(/^[\w-]{5}$/);
    expect(input[0]).not.toHaveProperty('block_id');
  });
});

describe('buildState', () => {
  const blocks = normalizeBlocks([
    {
      type: 'input',
      block_id: 'title',
      label: { type: 'plain_text', text: 'T' },
      element: { type: 'plain_text_input', action_id: 'v', max_length: 10 },
    },
    {
      type: 'input',
      block_id: 'hours',
      optional: true,
      label: { type: 'plain_text', text: 'H' },
      element: { type: 'number_input', action_id: 'v', is_decimal_allowed: false, min_value: '1' },
    },
    {
      type: 'input',
      block_id: 'prio',
      label: { type: 'plain_text', text: 'P' },
      element: {
        type: 'static_select',
        action_id: 'v',
        initial_option: { text: { type: 'plain_text', text: 'High' }, value: '2' },
        option_groups: [
          {
            label: { type: 'plain_text', text: 'All' },
            options: [{ text: { type: 'plain_text', text: 'High' }, value: '2' }],
          },
        ],
      },
    },
    {
      type: 'input',
      block_id: 'files',
      optional: true,
      label: { type: 'plain_text', text: 'F' },
      element: { type: 'file_input', action_id: 'v', max_files: 1 },
    },
    {
      type: 'actions',
      block_id: 'filter',
      elements: [{ type: 'channels_select', action_id: 'where' }],
    },
  ]) as BlockObj[];

  it('uses initial values for elements the user did not touch', () => {
    const { values, errors } = buildState(blocks, { title: { v: 'Brief' } }, ctx, true);
    expect(errors).toEqual({});
    expect(values.prio.v).toEqual({
      type: 'static_select',
      selected_option: { text: { type: 'plain_text', text: 'High' }, value: '2' },
    });
    expect(values.hours.v).toEqual({ type: 'number_input', value: null });
    expect(values.files.v).toEqual({ type: 'file_input', files: [] });
    expect(values.filter.where).toEqual({ type: 'channels_select', selected_channel: null });
  });

  it('reports what Slack’s client would refuse', () => {
    const { errors } = buildState(
      blocks,
      {
        title: { v: 'Far too long a title' },
        hours: { v: '1.5' },
        prio: { v: '9' },
        files: { v: ['https://a.example/1', 'https://a.example/2'] },
      },
      ctx,
      true,
    );
    expect(errors).toEqual({
      title: 'Enter at most 10 characters.',
      hours: 'Enter a whole number.',
      prio: 'Choose an option from the list.',
      files: 'Attach at most 1 files.',
    });
    expect(buildState(blocks, { hours: { v: '0' } }, ctx, true).errors.hours).toBe(
      'Enter a number of at least 1.',
    );
  });

  it('never throws on odd input', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string(),
          fc.dictionary(
            fc.string(),
            fc.oneof(fc.string(), fc.array(fc.string()), fc.constant(null)),
          ),
        ),
        (raw) => {
          const result = buildState(blocks, raw, ctx, true);
          expect(typeof result.errors).toBe('object');
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('page API input', () => {
  let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  const post = (path: string, body: string) =>
    fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it('answers bad requests with 400 and a sentence, and changes nothing', async () => {
    const version = sandbox.state.version;
    const cases: [string, string][] = [
      ['/sandbox/message', '{"user":"U0SBALICE"}'],
      ['/sandbox/message', 'not json'],
      [
        '/sandbox/action',
        '{"user":"U0SBALICE","container":{"type":"nope"},"blockId":"b","actionId":"a"}',
      ],
      ['/sandbox/submit', '{"user":"U0SBALICE","viewId":"V1","values":{"b":{"a":42}}}'],
      ['/sandbox/home', '{"user":"U0SBALICE","tab":"settings"}'],
    ];
    for (const [path, body] of cases) {
      const res = await post(path, body);
      expect(res.status, `${path} ${body}`).toBe(400);
      const data = (await res.json()) as { ok: boolean; problem?: string; message?: string };
      expect(data.ok ?? false).toBe(false);
    }
    expect(sandbox.state.version).toBe(version);
  });

  it('refuses actions by unknown users or outside their channels', async () => {
    const stranger = await post(
      '/sandbox/message',
      JSON.stringify({ user: 'U0NOPE', channel: 'C0SBGENERAL', text: 'hi' }),
    );
    expect(await stranger.json()).toEqual({ ok: false, problem: 'There is no user U0NOPE.' });
    const elsewhere = await post(
      '/sandbox/message',
      JSON.stringify({ user: 'U0SBALICE', channel: 'D0SBBOB', text: 'hi' }),
    );
    expect(await elsewhere.json()).toEqual({
      ok: false,
      problem: 'You are not in channel D0SBBOB.',
    });
    expect(sandbox.state.messages.get('D0SBBOB') ?? []).toHaveLength(0);
  });

  it('shows each user only what they may see', async () => {
    sandbox.state.addMessage({ channel: 'C0SBGENERAL', user: 'U0SBBOB', text: 'for all' });
    sandbox.state.addMessage({
      channel: 'C0SBGENERAL',
      user: 'U0SBWORKLINK',
      text: 'for Bob',
      ephemeralTo: 'U0SBBOB',
    });
    sandbox.state.addMessage({ channel: 'D0SBBOB', user: 'U0SBWORKLINK', text: 'Bob’s DM' });
    const alice = (await (await fetch(`${sandbox.url}/sandbox/state?user=U0SBALICE`)).json()) as {
      messages: Record<string, { text: string }[]>;
      channels: { id: string }[];
    };
    expect(alice.messages.C0SBGENERAL.map((m) => m.text)).toEqual(['for all']);
    expect(alice.channels.map((c) => c.id)).not.toContain('D0SBBOB');
    const bob = (await (
      await fetch(`${sandbox.url}/sandbox/state?user=U0SBBOB`)
    ).json()) as typeof alice;
    expect(bob.messages.C0SBGENERAL.map((m) => m.text)).toEqual(['for all', 'for Bob']);
    expect(bob.messages.D0SBBOB.map((m) => m.text)).toEqual(['Bob’s DM']);
  });
});
