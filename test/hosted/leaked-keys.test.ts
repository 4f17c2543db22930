/**
 * Secrets never leave (issue 24, finding 2): a service whose 400 or 500 message names the
 * request's API key is quoted with the key redacted in every answer — `/work task`,
 * `/work status`, `/work users`, `/work connect <key>` (checkKey's 500 branch) — and in no
 * log line; Slack tokens and the configuration's secrets are redacted from logs too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { knownSecrets, REDACTED, SecretSet } from '../../src/secrets.js';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';

let h: HostedHarness;

beforeAll(async () => {
  h = await startHostedHarness({ connect: true });
});
afterAll(() => h?.stop());
beforeEach(() => h.hosted.keyEchoes(0, 400));

const shown = (x: unknown) => JSON.stringify(x);

describe.each([400, 500])('a service whose %i names the request’s key', (status) => {
  it.each(['task <id>', 'status', 'users', 'customers', 'groups', 'list'])(
    '/work %s quotes it without the key',
    async (command) => {
      const taskId = [...h.hosted.tasks.keys()][0]!;
      h.hosted.keyEchoes(1_000, status);
      const reply = await h.replyTo(await h.slack.slashCommand(command.replace('<id>', taskId)));
      h.hosted.keyEchoes(0, status);
      expect(shown(reply)).not.toContain(h.hosted.apiKey);
      expect(shown(h.logs)).not.toContain(h.hosted.apiKey);
    },
  );

  it('/work connect <key> does not show the key it checked', async () => {
    const typed = `typed-key-${status}-0123456789abcdef`;
    h.hosted.keyEchoes(1_000, status);
    const reply = await h.replyTo(await h.slack.slashCommand(`connect ${typed}`));
    h.hosted.keyEchoes(0, status);
    expect(shown(reply)).toContain('Nothing was saved');
    expect(shown(reply)).not.toContain(typed);
    expect(shown(h.logs)).not.toContain(typed);
  });
});

describe('the scrubber', () => {
  it('redacts each secret it was given, in any text, and every Slack token', () => {
    const set = new SecretSet();
    set.add('s3cr3t-signing-value');
    set.add('key/with+url=chars');
    set.add('short');
    const text =
      'sig s3cr3t-signing-value, url key%2Fwith%2Burl%3Dchars, raw key/with+url=chars, ' +
      'token xoxb-1234-5678-abcdefgh, app xapp-1-A0-123-abcdef, short stays';
    expect(set.scrub(text)).toBe(
      `sig ${REDACTED}, url ${REDACTED}, raw ${REDACTED}, token ${REDACTED}, app ${REDACTED}, short stays`,
    );
  });

  it('is applied to every log line, whoever writes it', () => {
    knownSecrets.add('client-secret-for-the-log-test');
    const lines: string[] = [];
    const logger = createLogger('debug', (l) => lines.push(l));
    logger.debug(
      'http request body: {"client_secret":"client-secret-for-the-log-test","token":"xoxe-1-abcdefghijk"}',
    );
    expect(lines.join('\n')).not.toContain('client-secret-for-the-log-test');
    expect(lines.join('\n')).not.toContain('xoxe-1-abcdefghijk');
  });
});
