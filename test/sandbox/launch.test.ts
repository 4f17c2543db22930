// launchSandbox's first-run setup and what later runs keep, against real files: the seed in
// service.db, the connection and channel links in worklink.db, the setup in sandbox.json.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { welcomeText } from '../../src/sandbox/banner.js';
import { launchSandbox, welcomeOf } from '../../src/sandbox/start.js';
import { StartupError } from '../../src/slack/start/startup-error.js';
import { openStore } from '../../src/store/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'worklink-launch-'));
  dirs.push(dir);
  return dir;
}

const quiet = createLogger('error', () => {});
const configFor = (dataDir: string): AppConfig => ({
  slack: { mode: 'sandbox' },
  port: 0,
  dataDir,
  logLevel: 'error',
});

describe('launchSandbox', () => {
  const dataDir = tempDir();

  it('seeds, connects the sandbox team and links #website and #onboarding on the first run', async () => {
    const stack = await launchSandbox(configFor(dataDir), { logger: quiet });
    try {
      expect(stack.firstRun).toBe(true);
      const seed = stack.setup.seed;
      const { store } = stack.worklink;
      const connection = await store.connections.get(stack.teamId);
      expect(connection).toMatchObject({
        workspaceId: seed?.workspaceId,
        apiKey: seed?.apiKey,
        keyOwnerId: seed?.users.find((u) => u.email === 'alice@example.com')?.id,
        connectedBy: 'U0SBALICE',
      });
      const projectOf = (name: string) =>
        seed?.projects.find((p) => p.projectName === name)?.projectId;
      expect((await store.channelProjects.get(stack.teamId, 'C0SBWEBSITE'))?.projectId).toBe(
        projectOf('Website relaunch'),
      );
      expect((await store.channelProjects.get(stack.teamId, 'C0SBONBOARD'))?.projectId).toBe(
        projectOf('Customer onboarding'),
      );
      expect(
        (await store.knownProjects.list(stack.teamId)).map((p) => p.projectName).sort(),
      ).toEqual(['Customer onboarding', 'Website relaunch']);
      // The sandbox's people are the seed's people: DMs find them by e-mail.
      for (const user of seed?.users ?? []) {
        expect(stack.sandbox.state.userByEmail(user.email)?.realName).toBe(user.name);
      }
      const welcome = welcomeText(await welcomeOf(stack));
      expect(welcome).toContain(stack.url);
      expect(welcome).toContain('#website → Website relaunch');
      expect(welcome).not.toContain(seed?.apiKey ?? '-');
    } finally {
      await stack.stop();
    }
  });

  it('reconnects a later run whose connection was removed, leaving links as they are', async () => {
    const store = openStore(dataDir);
    await store.forgetTeam('T0SANDBOX');
    await store.close();
    const stack = await launchSandbox(configFor(dataDir), { logger: quiet });
    try {
      expect(stack.firstRun).toBe(false);
      expect((await stack.worklink.store.connections.info(stack.teamId))?.workspaceId).toBe(
        stack.setup.seed?.workspaceId,
      );
      // The person unlinked them; a restart does not undo that.
      expect(await stack.worklink.store.channelProjects.listForTeam(stack.teamId)).toEqual([]);
    } finally {
      await stack.stop();
    }
  });

  it('says in one sentence what to do with an unreadable sandbox.json', async () => {
    const broken = tempDir();
    writeFileSync(join(broken, 'sandbox.json'), '{"version": 1, "botToken": "nope"}');
    const error = await launchSandbox(configFor(broken), { logger: quiet }).catch((e) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect(error.message).toMatch(/sandbox\.json is not a sandbox setup file \(.+\); delete it/);
    expect(error.message).not.toContain('\n');
  });
});
