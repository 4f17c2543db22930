/** buildApp per mode, and the extra-route registry others hang HTTP endpoints on. */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { buildApp } from '../../src/slack/app.js';
import type { WorklinkDeps } from '../../src/slack/context/deps.js';
import { RouteRegistry } from '../../src/slack/context/routes.js';
import { buildParts } from '../../src/slack/start/parts.js';
import { openStore } from '../../src/store/index.js';
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
    // The same ports and parts startWorklink builds, never started.
    deps = buildParts({
      config: base,
      store,
      logger,
      workUrls: urls,
      instanceId: 'app-test',
    }).deps;
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
