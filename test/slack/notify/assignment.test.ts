/**
 * The assignment DM (a pure builder) and the reading of Slack failures.
 */
import { describe, expect, it } from 'vitest';
import { describeAssignmentReport } from '../../../src/slack/notify/announce.js';
import { assignmentMessage } from '../../../src/slack/notify/assignment-message.js';
import { outboxStatusText } from '../../../src/slack/notify/outbox-status.js';
import { classifySlackError } from '../../../src/slack/notify/slack-errors.js';
import { ACTION } from '../../../src/slack/ui/block-ids.js';

describe('assignmentMessage', () => {
  const base = {
    taskId: '65a1f0c2e4b0a1b2c3d4e5f6',
    taskName: 'Fix the login page',
    projectName: 'Website',
    creator: '<@U_ALICE>',
    dueDate: '2026-11-25T00:00:00.000Z',
    priority: '2',
  };

  it('says who assigned what, where, when it is due and how urgent', () => {
    const m = assignmentMessage(base);
    expect(m.text).toBe(
      '<@U_ALICE> assigned you *Fix the login page* in *Website* — due Wed, Nov 25, 2026, priority High',
    );
    const [section, context] = m.blocks as {
      text?: { text: string };
      elements?: { text: string }[];
    }[];
    expect(section.text?.text).toBe('<@U_ALICE> assigned you *Fix the login page* in *Website*');
    expect(context.elements?.map((e) => e.text)).toEqual([
      '*Due:* Wed, Nov 25, 2026',
      '*Priority:* High',
    ]);
  });

  it('shows the due date by its calendar date, in any time zone', () => {
    const m = assignmentMessage({ ...base, dueDate: '2026-03-01T00:00:00.000Z' });
    expect(m.text).toContain('due Sun, Mar 1, 2026');
    const undated = assignmentMessage({ ...base, dueDate: null }).text;
    expect(undated).toContain('— no due date');
    expect(undated).not.toContain('due no due date');
  });

  it('has Comment, Mark complete and Details buttons carrying the task id, and Remind me', () => {
    const actions = assignmentMessage(base).blocks.find((b) => b.type === 'actions') as {
      elements: {
        action_id: string;
        value?: string;
        text?: { text: string };
        options?: { value: string }[];
      }[];
    };
    expect(actions.elements.slice(0, 3).map((e) => [e.text?.text, e.action_id, e.value])).toEqual([
      ['Comment', ACTION.taskComment, base.taskId],
      ['Mark complete', ACTION.taskComplete, base.taskId],
      ['Details', ACTION.taskOpen, base.taskId],
    ]);
    expect(actions.elements[3]?.action_id).toBe(ACTION.remindMe);
    expect(actions.elements[3]?.options?.map((o) => o.value)).toEqual([
      `hour:${base.taskId}`,
      `morning:${base.taskId}`,
      `week:${base.taskId}`,
    ]);
  });

  it('keeps names as text: no mentions, links or formatting smuggled in', () => {
    const m = assignmentMessage({
      ...base,
      creator: 'Eve <!channel>',
      taskName: '*bold* <https://evil.example|click>',
      projectName: undefined,
    });
    expect(m.text).toContain('Eve &lt;!channel&gt; assigned you');
    expect(m.text).toContain('*∗bold∗ &lt;https://evil.example|click&gt;*');
    expect(m.text).not.toContain(' in *');
  });

  it('copes with missing details', () => {
    const m = assignmentMessage({ taskId: 'x', taskName: ' ' });
    expect(m.text).toBe('You were assigned *Untitled task* — no due date');
  });
});

describe('describeAssignmentReport', () => {
  it('says how many were told and who has no Slack account', () => {
    expect(
      describeAssignmentReport({
        assignees: 3,
        notified: 2,
        skippedActor: false,
        unmatched: ['bob@example.com'],
      }),
    ).toBe('2 of 3 assignees notified — bob@example.com has no Slack account linked.');
    expect(
      describeAssignmentReport({ assignees: 2, notified: 1, skippedActor: true, unmatched: [] }),
    ).toBe('1 of 1 assignee notified.');
    expect(
      describeAssignmentReport({ assignees: 1, notified: 0, skippedActor: true, unmatched: [] }),
    ).toBe('');
  });
});

describe('classifySlackError', () => {
  const platform = (error: string) => ({
    code: 'slack_webapi_platform_error',
    data: { ok: false, error },
  });

  it('reads 429s, platform errors, HTTP errors and network errors', () => {
    expect(classifySlackError({ code: 'slack_webapi_rate_limited_error', retryAfter: 7 })).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 7_000,
      reason: 'rate limited',
    });
    expect(classifySlackError(platform('user_not_found'))).toEqual({
      kind: 'permanent',
      reason: 'user_not_found',
    });
    expect(classifySlackError(platform('internal_error'))).toMatchObject({ kind: 'transient' });
    expect(classifySlackError({ code: 'slack_webapi_http_error', statusCode: 503 })).toEqual({
      kind: 'transient',
      reason: 'HTTP 503',
      ambiguous: true,
    });
    expect(
      classifySlackError({
        code: 'slack_webapi_request_error',
        original: Object.assign(new Error('x'), { name: 'TimeoutError' }),
      }),
    ).toEqual({ kind: 'transient', reason: 'timed out', ambiguous: true });
  });
});

describe('outboxStatusText', () => {
  it('gives the figures and the latest failures with reasons', () => {
    const text = outboxStatusText(
      {
        pending: 1,
        sending: 1,
        sent: 5,
        failed: 1,
        skipped: 0,
        recentFailures: [
          {
            id: 1,
            teamId: 'T',
            taskId: 't',
            serviceUserId: 's',
            serviceUserEmail: 'erin@example.com',
            serviceUserName: 'Erin Evans',
            source: 'event',
            taskName: 'Ship it',
            status: 'failed',
            attempts: 0,
            nextAttemptAt: 0,
            uncertain: false,
            marker: 'm',
            lastError: 'no Slack account linked',
            createdAt: '2026-01-01T00:00:00.000Z',
            updatedAt: '2026-01-02T10:00:00.000Z',
          },
        ],
      },
      'UTC',
    );
    expect(text).toContain('*Assignment DMs:* 2 pending, 5 sent, 1 failed.');
    expect(text).toContain(
      '• Erin Evans (erin@example.com) — _Ship it_: no Slack account linked (Jan 2, 2026, 10:00 AM UTC)',
    );
  });
});
