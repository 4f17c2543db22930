/**
 * Directory fallbacks (issue 24, finding 7): the `text` of `/work groups`, `/work users` and
 * `/work customers` — what notifications and screen readers show — carries the service's
 * names escaped (no `<!channel>`, no disguised link) and cut within Slack's limit, like every
 * other message; the groups one was uncut (40,000+ characters).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customersMessage } from '../../src/slack/projects/directory/directory-lists.js';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';

const HOSTILE = '<!channel> <http://evil.example|Verify your account> & co';
const RAW = ['<!channel>', '<http://evil.example'];

let h: HostedHarness;

beforeAll(async () => {
  h = await startHostedHarness({ connect: true });
  const website = h.hosted.projectsById.get(h.hosted.projects.website)!;
  for (let i = 0; i < 800; i++) website.groups.push({ id: `g${i}`, name: `${HOSTILE} ${i}` });
  h.hosted.userList[1]!.name = HOSTILE;
});
afterAll(() => h?.stop());

describe('directory fallbacks', () => {
  it('/work groups: escaped and cut', async () => {
    const reply = await h.replyTo(
      await h.slack.slashCommand(`groups ${h.hosted.projects.website}`),
    );
    for (const raw of RAW) expect(reply.text).not.toContain(raw);
    expect(reply.text).toContain('&lt;!channel&gt;');
    expect(reply.text!.length).toBeLessThanOrEqual(3000);
    expect(reply.text).not.toMatch(/&[a-z]{0,3}…$/);
  });

  it('/work users: escaped', async () => {
    const reply = await h.replyTo(await h.slack.slashCommand('users'));
    for (const raw of RAW) expect(reply.text).not.toContain(raw);
    expect(reply.text).toContain('&lt;!channel&gt;');
  });

  it('/work customers: escaped and cut', () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      customerId: `c${i}`,
      companyName: `${HOSTILE} ${i}`,
    }));
    const { text } = customersMessage(many);
    for (const raw of RAW) expect(text).not.toContain(raw);
    expect(text).toContain('&lt;!channel&gt;');
    expect(text.length).toBeLessThanOrEqual(3000);
  });
});
