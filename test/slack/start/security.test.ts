/**
 * Request authenticity and secrets at rest, through the real app: forged and stale requests
 * are refused with 401 and change nothing; the API key's bytes are nowhere in the database
 * files or the logs; a different SECRETS_KEY cannot open a stored key, and users are told so.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_UNREADABLE } from '../../../src/slack/ui/error-text.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { sqliteHandle } from '../../support/sqlite-handle.js';

describe('request signatures', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.stop());

  it('rejects a forged signature with 401 and does nothing', async () => {
    h.fake.reset();
    const res = await h.slack.slashCommand(`connect ${h.seed.apiKey}`, { forgeSignature: true });
    expect(res.status).toBe(401);
    // Give a wrongly accepted request every chance to act before checking that none did.
    const control = await h.slack.slashCommand('help');
    await h.replyTo(control);
    expect(h.repliesTo(res)).toEqual([]);
    expect(h.fake.calls.map((c) => c.method)).toEqual([]);
    expect(await h.worklink.store.connections.info(h.teamId)).toBeUndefined();
  });

  it('rejects a stale timestamp (10 minutes old) with 401 and does nothing', async () => {
    h.fake.reset();
    const stale = Math.floor(Date.now() / 1000) - 600;
    const res = await h.slack.slashCommand(`connect ${h.seed.apiKey}`, { timestamp: stale });
    expect(res.status).toBe(401);
    const control = await h.slack.slashCommand('help');
    await h.replyTo(control);
    expect(h.repliesTo(res)).toEqual([]);
    expect(await h.worklink.store.connections.info(h.teamId)).toBeUndefined();
  });

  it('rejects forged interactivity payloads and events too', async () => {
    const submission = await h.slack.viewSubmission(
      { callbackId: 'connect_workspace', values: {} },
      { forgeSignature: true },
    );
    expect(submission.status).toBe(401);
    await h.connect();
    const event = await h.slack.event({ type: 'app_uninstalled' }, { forgeSignature: true });
    expect(event.status).toBe(401);
    expect(await h.worklink.store.connections.info(h.teamId)).toBeDefined();
  });
});

describe('secrets at rest', () => {
  it('keeps the key’s bytes out of the database files and the logs', async () => {
    const h = await startHarness();
    try {
      const res = await h.slack.slashCommand(`connect ${h.seed.apiKey}`);
      expect((await h.replyTo(res)).text).toContain('Connected Worklink');
      const status = await h.slack.slashCommand('status');
      await h.replyTo(status);
      const files = ['worklink.db', 'worklink.db-wal', 'worklink.db-shm']
        .map((f) => join(h.dataDir, f))
        .filter(existsSync);
      expect(files.length).toBeGreaterThanOrEqual(2);
      const needle = Buffer.from(h.seed.apiKey, 'utf8');
      for (const file of files) {
        expect(readFileSync(file).includes(needle), file).toBe(false);
      }
      // The row exists and holds a sealed value of the right size (1 + 12 + 16 + key).
      const row = sqliteHandle(h.worklink.store)
        .prepare('SELECT api_key_enc FROM connections WHERE team_id = ?')
        .get(h.teamId) as { api_key_enc: Buffer };
      expect(row.api_key_enc.length).toBe(29 + needle.length);
      expect(h.logs.length).toBeGreaterThan(0);
      expect(h.logs.join('\n')).not.toContain(h.seed.apiKey);
    } finally {
      await h.stop();
    }
  });

  it('a different SECRETS_KEY cannot decrypt the key, and users are told plainly', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'worklink-key-'));
    try {
      const first = await startHarness({ dataDir, secretsKey: randomBytes(32) });
      await first.connect();
      await first.stop();

      const second = await startHarness({ dataDir, secretsKey: randomBytes(32) });
      try {
        await expect(second.worklink.store.connections.get(second.teamId)).rejects.toThrow(
          /cannot be decrypted: SECRETS_KEY/,
        );
        const status = await second.slack.slashCommand('status');
        expect((await second.replyTo(status)).text).toContain(KEY_UNREADABLE);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
