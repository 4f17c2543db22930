/**
 * LOG_LEVEL holds for every line the app writes — its own, Bolt's and the Web API client's.
 * (Bolt resets the logger it is given to `info` unless it is told the level too.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** A slash command, a Home tab (a Web API call) and a request Bolt refuses. */
async function busyApp(harness: Harness): Promise<void> {
  await harness.replyTo(await harness.slack.slashCommand('help'));
  await harness.slack.event({ type: 'app_home_opened', user: harness.users.alice.id, tab: 'home' });
  await harness.waitFor(() => harness.fake.calls.some((c) => c.method === 'views.publish'));
}

const at = (level: string) => (line: string) => new RegExp(`\\b${level}\\b`).test(line);

describe('LOG_LEVEL', () => {
  it('warn hides the info lines', async () => {
    h = await startHarness({ logLevel: 'warn' });
    await busyApp(h);
    expect(h.logs.filter(at('INFO'))).toEqual([]);
    expect(h.logs.filter(at('DEBUG'))).toEqual([]);
  });

  it('info shows info lines and hides debug ones', async () => {
    h = await startHarness({ logLevel: 'info' });
    await busyApp(h);
    expect(h.logs.some((l) => at('INFO')(l) && l.includes('Worklink is listening'))).toBe(true);
    expect(h.logs.filter(at('DEBUG'))).toEqual([]);
  });

  it('debug shows the debug lines, Bolt’s and the Web API client’s among them', async () => {
    h = await startHarness({ logLevel: 'debug' });
    await busyApp(h);
    expect(h.logs.some((l) => at('DEBUG')(l) && l.includes("apiCall('views.publish')"))).toBe(true);
  });
});
