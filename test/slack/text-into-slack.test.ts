/**
 * One way to put service text into Slack (docs/design.md, "Text into Slack"): a task and a
 * project whose names carry mrkdwn's marks (`*`, `_`, `~`, backticks) look the same on every
 * surface — list, card, pick list, my tasks, digest, Home, the confirmation card, the DM, the
 * `text` fallbacks — and format nothing. Then a scan of EVERY mrkdwn string Worklink sent.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { esc } from '../../src/slack/format/text.js';
import type { RecordedCall, RecordedResponse } from '../support/fake-slack.js';
import { type Harness, startHarness } from '../support/harness.js';
import { mrkdwnStrings } from '../support/mrkdwn-strings.js';
import { linkChannel } from './tasks/helpers.js';

const NAME = 'Tidy *bold* _it_ ~gone~ `code` snake_case';
/** How the name reads in mrkdwn: lookalikes for the marks, `_` kept inside a word. */
const SHOWN = 'Tidy ∗bold∗ ˍitˍ ∼gone∼ ˋcodeˋ snake_case';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
});
afterAll(() => h?.stop());

it('neutralises the marks the same way, and leaves words and addresses alone', () => {
  expect(esc(NAME)).toBe(SHOWN);
  expect(esc('R&D <beta> https://x.example/a_b*c first_last@example.com')).toBe(
    'R&amp;D &lt;beta&gt; https://x.example/a_b*c first_last@example.com',
  );
});

it('shows a name with mrkdwn marks the same on every surface, formatting nothing', async () => {
  const projectId = await linkChannel(h, 0);
  const mine = h.seed.users.find((u) => u.email.startsWith('alice'))!;
  const today = new Date().toISOString().slice(0, 10);
  // Made in Slack (the confirmation card, the DM to Bob) and in the service (list, Home…).
  await h.slack.slashCommand(`add ${NAME} @bob @alice due:today`);
  await h.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.channel === 'C_GENERAL' && JSON.stringify(c.body).includes('Tidy'),
  );
  await h.work.createTask({
    projectId,
    name: `${NAME} again`,
    dueDate: today,
    taskUsers: [mine.id],
  });
  const task = (await h.work.listTasks({ projectId })).find((t) => t.taskName === NAME)!;
  expect(task).toBeDefined();
  for (const text of [`task ${task.taskId}`, 'list', 'done tidy bold', 'list mine', 'digest']) {
    const res = await h.slack.slashCommand(text);
    expect(res.status).toBe(200);
    await h.replyTo(res);
  }
  await h.slack.event({ type: 'app_home_opened', user: h.users.alice.id, tab: 'home' });
  await h.fake.waitForCall('views.publish');
  await h.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.channel !== 'C_GENERAL' && String(c.body.text).includes('Tidy'),
  );
  await h.worklink.parts.live.idle();

  const calls: (RecordedCall | RecordedResponse)[] = [...h.fake.calls, ...h.fake.responses];
  const about = calls.flatMap((c) =>
    mrkdwnStrings(c.body)
      .filter((t) => t.includes('Tidy'))
      .map((t) => ({ where: 'method' in c ? c.method : 'response_url', t })),
  );
  // Every surface named it: the card, the list, the pick list, mine, the digest, Home, the DM.
  expect(about.length).toBeGreaterThanOrEqual(8);
  const wrong = about.filter(
    ({ t }) => !t.includes(SHOWN) || /[*_~`]bold|it_ |~gone|`code/.test(t),
  );
  expect(wrong).toEqual([]);
});
