/** buildApp per mode, and the extra-route registry others hang HTTP endpoints on. */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivityHub } from '../../src/activity/hub.js';
import type { AppConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { buildApp } from '../../src/slack/app.js';
import type { WorklinkDeps } from '../../src/slack/context/deps.js';
import { RouteRegistry } from '../../src/slack/context/routes.js';
import { ServiceDirectory } from '../../src/slack/context/service-directory.js';
import { SlackMatcher } from '../../src/slack/context/slack-matcher.js';
import { SlackUserDirectory } from '../../src/slack/context/slack-users.js';
import { WorkClientCache } from '../../src/slack/context/work-clients.js';
import { createChannelFeeds } from '../../src/slack/feeds/channel-feeds.js';
import { WorkLinks } from '../../src/slack/links/addresses.js';
import { createLiveMessages } from '../../src/slack/live/live-messages.js';
import { createNotifications } from '../../src/slack/notify/notifications.js';
import { openStore } from '../../src/store/index.js';
import { TaskIndexRefresh } from '../../src/sync/task-index-refresh.js';
import { Watcher } from '../../src/sync/watcher.js';
import { type Harness, startHarness } from '../support/harness.js';

describe('extra routes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.stop());

  it('serves routes added after start, beside /slack/events', async () => {
    h.worklink.deps.routes.add({
      method: 'POST',
      path: '/test/extra',
      handler: (req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          res.writeHead(202, { 'content-type': 'text/plain' });
          res.end(`got ${body}`);
        });
      },
    });
    const res = await fetch(`${h.worklink.url}/test/extra`, { method: 'POST', body: 'hello' });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('got hello');
  });

  it('answers /healthz, 404 for unknown paths and 500 for a failing handler', async () => {
    expect(await (await fetch(`${h.worklink.url}/healthz`)).text()).toBe('ok');
    expect((await fetch(`${h.worklink.url}/nope`)).status).toBe(404);
    expect((await fetch(`${h.worklink.url}/test/extra`)).status).toBe(404); // GET not added
    h.worklink.deps.routes.add({
      method: 'GET',
      path: '/broken',
      handler: async () => {
        throw new Error('route bug');
      },
    });
    expect((await fetch(`${h.worklink.url}/broken`)).status).toBe(500);
    expect(h.logs.some((l) => l.includes('Route GET /broken failed: route bug'))).toBe(true);
  });

  it('refuses the same route twice', () => {
    const routes = new RouteRegistry();
    routes.add({ method: 'post', path: '/x', handler: () => {} });
    expect(() => routes.add({ method: 'POST', path: '/x', handler: () => {} })).toThrow(
      'Route POST /x is registered twice.',
    );
  });
});

describe('buildApp', () => {
  let dir: string;
  let deps: WorklinkDeps;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'worklink-app-'));
    const base = { slack: { mode: 'sandbox' }, port: 0, dataDir: dir, logLevel: 'error' } as const;
    const urls = { baseUrl: 'http://127.0.0.1:9/v1.0', altUrl: 'http://127.0.0.1:9/api/v1' };
    const store = openStore(dir);
    const logger = createLogger('error', () => {});
    const workClients = new WorkClientCache(urls);
    const directory = new ServiceDirectory();
    const matcher = new SlackMatcher(store);
    deps = {
      config: base,
      store,
      logger,
      workUrls: urls,
      links: new WorkLinks({}),
      routes: new RouteRegistry(),
      users: new SlackUserDirectory(),
      workClients,
      directory,
      matcher,
      activity: createActivityHub(logger),
      indexRefresh: new TaskIndexRefresh({ store, logger, workFor: async () => undefined }),
      watcher: new Watcher({
        store,
        logger,
        intervalMs: 0,
        workFor: async () => undefined,
        announce: async () => {},
      }),
      notifications: createNotifications({
        config: base,
        store,
        logger,
        workClients,
        directory,
        matcher,
      }),
      live: createLiveMessages({
        store,
        logger,
        slackFor: async () => undefined,
        deps: () => deps,
      }),
      feeds: createChannelFeeds({
        store,
        logger,
        slackFor: async () => undefined,
        deps: () => deps,
        graceMs: () => 0,
        now: Date.now,
      }),
    };
  });
  afterAll(async () => {
    await deps.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds a Socket Mode app without connecting, at the configured LOG_LEVEL', () => {
    const config: AppConfig = {
      ...deps.config,
      slack: { mode: 'socket', botToken: 'xoxb-1', appToken: 'xapp-1' },
      logLevel: 'warn',
    };
    const logger = createLogger('warn', () => {});
    buildApp(config, { ...deps, config, logger }, { botIdentity: { botId: 'B', botUserId: 'U' } });
    // Bolt resets the logger it is given to its own logLevel (info unless told).
    expect(logger.getLevel()).toBe('warn');
  });

  it('refuses the sandbox mode with a sentence', () => {
    expect(() => buildApp(deps.config, deps)).toThrow(/sandbox mode has no Slack app of its own/);
  });
});
