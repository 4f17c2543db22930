/**
 * The app database: opening SQLite files in a temp DATA_DIR, then each table and unit of work
 * on both engines (SQLite files, a real PostgreSQL server).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Installation } from '@slack/bolt';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DecryptError } from '../../src/store/crypto.js';
import { openStore, type Store } from '../../src/store/index.js';
import { migrate, migrations } from '../../src/store/migrations.js';
import { matchedRow } from '../support/notify-rows.js';
import { sqliteHandle } from '../support/sqlite-handle.js';
import { storeEngines } from '../support/store-engines.js';

let dir: string;
let store: Store | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'worklink-store-'));
});
afterEach(async () => {
  await store?.close();
  store = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const connection = (teamId = 'T1', apiKey = 'wk_live_0123456789abcdef') => ({
  teamId,
  workspaceId: 'ws1',
  workspaceName: 'Acme',
  keyOwnerId: 'u1',
  apiKey,
  connectedBy: 'U_ALICE',
  connectedAt: '2026-01-02T03:04:05.000Z',
});

describe('opening', () => {
  it('creates the database in WAL mode at the latest schema version', () => {
    store = openStore(dir);
    expect(sqliteHandle(store).pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sqliteHandle(store).pragma('foreign_keys', { simple: true })).toBe(1);
    expect(sqliteHandle(store).pragma('user_version', { simple: true })).toBe(migrations.length);
  });

  it('generates secret.key once, mode 0600, and reuses it', async () => {
    store = openStore(dir);
    await store.connections.save(connection());
    await store.close();
    const file = join(dir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = readFileSync(file, 'utf8');
    store = openStore(dir);
    expect(readFileSync(file, 'utf8')).toBe(key);
    expect((await store.connections.get('T1'))?.apiKey).toBe('wk_live_0123456789abcdef');
  });

  it('uses SECRETS_KEY instead of a key file when given', () => {
    store = openStore(dir, { secretsKey: randomBytes(32) });
    expect(() => statSync(join(dir, 'secret.key'))).toThrow();
  });

  it('refuses a damaged key file with a sentence naming it', () => {
    writeFileSync(join(dir, 'secret.key'), 'not a key', { mode: 0o600 });
    expect(() => openStore(dir)).toThrow(/secret\.key does not hold a 64-hex-character key/);
  });

  it('runs appended migrations once, in order', () => {
    const db = new Database(join(dir, 'm.db'));
    const list = [...migrations, 'CREATE TABLE extra (x INTEGER) STRICT;'];
    migrate(db, list);
    migrate(db, list);
    expect(db.pragma('user_version', { simple: true })).toBe(list.length);
    expect(() => migrate(db, migrations)).toThrow(/newer than this Worklink/);
    db.close();
  });
});

for (const engine of storeEngines()) {
  describe(engine.name, () => {
    const open = async () => (await engine.fresh()).open();
    // Closed by storeEngines after each test.
    let store: Store;

    describe('connections', () => {
      it('round-trips, replaces, lists without keys and deletes', async () => {
        store = await open();
        await store.connections.save(connection());
        await store.connections.save({
          ...connection(),
          apiKey: 'wk_second_key_000',
          workspaceName: 'Acme 2',
        });
        expect(await store.connections.get('T1')).toMatchObject({
          apiKey: 'wk_second_key_000',
          workspaceName: 'Acme 2',
        });
        expect(await store.connections.list()).toEqual([
          {
            teamId: 'T1',
            workspaceId: 'ws1',
            workspaceName: 'Acme 2',
            keyOwnerId: 'u1',
            connectedBy: 'U_ALICE',
            connectedAt: '2026-01-02T03:04:05.000Z',
          },
        ]);
        expect(await store.connections.delete('T1')).toBe(true);
        expect(await store.connections.delete('T1')).toBe(false);
        expect(await store.connections.get('T1')).toBeUndefined();
      });

      it('does not store the key in the clear', async () => {
        store = await open();
        const key = 'wk_plaintext_must_not_appear_42';
        await store.connections.save(connection('T1', key));
        expect(await engine.holdsInClear(store, key)).toBe(false);
      });

      it('cannot be opened with another key', async () => {
        const db = await engine.fresh();
        store = await db.open({ secretsKey: randomBytes(32) });
        await store.connections.save(connection());
        store = await db.open({ secretsKey: randomBytes(32) });
        await expect(store!.connections.get('T1')).rejects.toThrow(DecryptError);
        // The metadata stays readable, so status can still say what is connected.
        expect((await store.connections.info('T1'))?.workspaceName).toBe('Acme');
      });

      it('detects a sealed key moved to another team’s row', async () => {
        store = await open();
        await store.connections.save(connection('T1', 'key-of-team-one'));
        await store.connections.save(connection('T2', 'key-of-team-two'));
        await engine.exec(
          store,
          `UPDATE connections SET api_key_enc = (SELECT api_key_enc FROM connections WHERE team_id = 'T1') WHERE team_id = 'T2'`,
        );
        await expect(store!.connections.get('T2')).rejects.toThrow(DecryptError);
      });
    });

    describe('installations', () => {
      const teamInstall: Installation<'v2', false> = {
        team: { id: 'T1', name: 'One' },
        enterprise: undefined,
        user: { id: 'U_INSTALLER', token: undefined, scopes: undefined },
        bot: { id: 'B1', userId: 'U_BOT', token: 'xoxb-team-one', scopes: ['commands'] },
        isEnterpriseInstall: false,
        authVersion: 'v2',
      };
      const orgInstall: Installation<'v2', true> = {
        team: undefined,
        enterprise: { id: 'E1', name: 'Org' },
        user: { id: 'U_ORG_ADMIN', token: undefined, scopes: undefined },
        bot: { id: 'B2', userId: 'U_BOT2', token: 'xoxb-org', scopes: ['commands'] },
        isEnterpriseInstall: true,
        authVersion: 'v2',
      };

      it('stores, fetches and deletes team and org-wide installs', async () => {
        store = await open();
        const s = store.installations;
        await s.storeInstallation(teamInstall);
        await s.storeInstallation(orgInstall);
        expect(await s.count()).toBe(2);
        expect(
          (
            await s.fetchInstallation({
              teamId: 'T1',
              enterpriseId: undefined,
              isEnterpriseInstall: false,
            })
          ).bot?.token,
        ).toBe('xoxb-team-one');
        expect(
          (
            await s.fetchInstallation({
              teamId: undefined,
              enterpriseId: 'E1',
              isEnterpriseInstall: true,
            })
          ).bot?.token,
        ).toBe('xoxb-org');
        // A team of the org without its own install is served by the org's.
        expect((await s.find('T_IN_ORG', 'E1'))?.bot?.token).toBe('xoxb-org');
        expect(await s.installerUserId('T1')).toBe('U_INSTALLER');
        await expect(
          s.fetchInstallation({
            teamId: 'T_NONE',
            enterpriseId: undefined,
            isEnterpriseInstall: false,
          }),
        ).rejects.toThrow(/No installation for team T_NONE/);
        await s.deleteInstallation!({
          teamId: 'T1',
          enterpriseId: undefined,
          isEnterpriseInstall: false,
        });
        expect(await s.find('T1')).toBeUndefined();
        expect(await s.deleteFor(undefined, 'E1')).toBe(1);
        expect(await s.count()).toBe(0);
      });

      it('seals the bot token', async () => {
        store = await open();
        await store.installations.storeInstallation(teamInstall);
        expect(await engine.holdsInClear(store, 'xoxb-team-one')).toBe(false);
      });
    });

    describe('channel links and known projects', () => {
      it('links, relinks, unlinks and lists', async () => {
        store = await open();
        const links = store.channelProjects;
        await links.link('T1', 'C1', 'p1', 'U1');
        await links.link('T1', 'C1', 'p2', 'U2');
        await links.link('T1', 'C2', 'p1', 'U1');
        await links.link('T2', 'C1', 'p9', 'U9');
        expect(await links.get('T1', 'C1')).toMatchObject({ projectId: 'p2', linkedBy: 'U2' });
        expect((await links.listForTeam('T1')).map((l) => l.channelId).sort()).toEqual([
          'C1',
          'C2',
        ]);
        expect(await links.unlink('T1', 'C2')).toBe(true);
        expect(await links.unlink('T1', 'C2')).toBe(false);
        expect((await links.get('T2', 'C1'))?.projectId).toBe('p9');
      });

      it('remembers projects, most recent first, refreshing names', async () => {
        store = await open();
        const known = store.knownProjects;
        await known.remember('T1', 'p1', 'Website');
        await new Promise((r) => setTimeout(r, 5));
        await known.remember('T1', 'p2', 'Onboarding');
        await new Promise((r) => setTimeout(r, 5));
        await known.remember('T1', 'p1', 'Website relaunch');
        expect((await known.list('T1')).map((p) => [p.projectId, p.projectName])).toEqual([
          ['p1', 'Website relaunch'],
          ['p2', 'Onboarding'],
        ]);
        expect(await known.forget('T1', 'p2')).toBe(true);
        expect(await known.list('T1')).toHaveLength(1);
      });

      it('forgetTeam removes the connection, links and projects of that team only', async () => {
        store = await open();
        await store.connections.save(connection('T1'));
        await store.connections.save(connection('T2'));
        await store.channelProjects.link('T1', 'C1', 'p1', 'U1');
        await store.channelProjects.link('T2', 'C1', 'p1', 'U1');
        await store.knownProjects.remember('T1', 'p1', 'P');
        expect(await store.forgetTeam('T1')).toEqual({ connection: true, links: 1, projects: 1 });
        expect(await store.connections.info('T1')).toBeUndefined();
        expect(await store.connections.info('T2')).toBeDefined();
        expect(await store.channelProjects.get('T2', 'C1')).toBeDefined();
      });

      it('forgetUninstalledTeam also drops user links, lookups and pending DMs of that team only', async () => {
        store = await open();
        await store.connections.save(connection('T1'));
        await store.channelProjects.link('T1', 'C1', 'p1', 'U1');
        const links = store.userLinks;
        const lookups = store.lookups;
        const outbox = store.outbox;
        for (const team of ['T1', 'T2']) {
          await links.link({
            teamId: team,
            serviceEmail: 'bob@x.com',
            slackUserId: 'U2',
            linkedBy: 'U1',
          });
          await lookups.put(team, 'carol@x.com', 'U3', 60_000);
        }
        const [pending, sent] = await outbox.enqueue(
          [matchedRow('T1', 'U_BOB'), matchedRow('T1', 'U_CAROL')],
          'slack',
        );
        await outbox.markSent(sent.id, { ts: '1.1', channel: 'D1' });
        const [other] = await outbox.enqueue([matchedRow('T2', 'U_BOB')], 'slack');

        expect(await store.forgetUninstalledTeam('T1', 'Worklink was removed')).toEqual({
          connection: true,
          links: 1,
          projects: 0,
          userLinks: 1,
          droppedDms: 1,
        });
        expect(await outbox.get(pending.id)).toMatchObject({
          status: 'failed',
          lastError: 'Worklink was removed',
        });
        // A sent row stays as it was: the DM was delivered, and the key keeps it to one.
        expect(await outbox.get(sent.id)).toMatchObject({ status: 'sent', messageTs: '1.1' });
        expect(await links.byEmail('T1', 'bob@x.com')).toBeUndefined();
        expect(await lookups.get('T1', 'carol@x.com')).toBeUndefined();
        // Another team keeps everything.
        expect((await outbox.get(other.id))?.status).toBe('pending');
        expect((await links.byEmail('T2', 'bob@x.com'))?.slackUserId).toBe('U2');
        expect((await lookups.get('T2', 'carol@x.com'))?.slackUserId).toBe('U3');
      });
    });
  });
}
