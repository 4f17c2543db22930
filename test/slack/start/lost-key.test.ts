/**
 * OAuth mode after SECRETS_KEY changed: the stored installations cannot be decrypted. Start-up
 * says so in one sentence naming the setting, and a slash command from such a workspace gets
 * a reply saying what the admin must do (not an empty answer).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Installation } from '@slack/bolt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Harness, oauthMode, startHarness } from '../../support/harness.js';

const TEAM = 'T_LOST_KEY';
let dataDir: string;
let h: Harness;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'worklink-lost-key-'));
  const before = await startHarness({ dataDir, secretsKey: randomBytes(32), configure: oauthMode });
  const installation: Installation<'v2', false> = {
    team: { id: TEAM, name: 'Lost Key Team' },
    enterprise: undefined,
    isEnterpriseInstall: false,
    user: { id: 'U_ADMIN', token: undefined, scopes: undefined },
    bot: { id: 'B1', userId: 'U_WORKLINK', token: 'xoxb-lost', scopes: ['commands'] },
    tokenType: 'bot',
    appId: 'A_WORKLINK',
    authVersion: 'v2',
  };
  await before.worklink.store.installations.storeInstallation(installation);
  await before.stop();
  // The same data directory, another SECRETS_KEY.
  h = await startHarness({ dataDir, secretsKey: randomBytes(32), configure: oauthMode });
});
afterAll(async () => {
  await h?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('says at start-up, in one sentence naming SECRETS_KEY, that installations cannot be read', () => {
  const line = h.logs.find((l) => l.includes('cannot be decrypted'));
  expect(line).toContain(
    '1 of 1 Slack installations cannot be decrypted because SECRETS_KEY is not the key they were stored with: restore that key, or have each workspace install Worklink again at /slack/install.',
  );
});

it('answers a command from that workspace with what the admin must do', async () => {
  const res = await h.slack.slashCommand('status', { teamId: TEAM });
  expect(res.status).toBe(200);
  const reply = await h.replyTo(res, 5_000);
  expect(reply.text).toBe(
    'Worklink cannot read its installation for this workspace: the server’s SECRETS_KEY changed since Worklink was installed. An admin must restore that key on the server, or install Worklink again (its /slack/install page).',
  );
});
