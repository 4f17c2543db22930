// DNS rebinding: a hostile page that points its own name at 127.0.0.1 reaches the sandbox
// with its own name in Host. The sandbox answers only loopback names and its configured host.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedHost } from '../../src/sandbox/host-check.js';
import { startTestSandbox } from './helpers.js';

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
beforeAll(async () => {
  sandbox = await startTestSandbox({ host: '127.0.0.1' });
});
afterAll(() => sandbox?.stop());

/** GET with a chosen Host header (fetch does not let a caller set it). */
function get(path: string, host: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(sandbox.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the sandbox’s Host check', () => {
  it('refuses a rebound name on the page, its API and the Web API', async () => {
    for (const path of ['/', '/sandbox/state', '/api/auth.test']) {
      const res = await get(path, 'evil.example:3000');
      expect([path, res.status]).toEqual([path, 421]);
      expect(res.body).toContain('localhost');
    }
  });

  it('answers loopback names and the configured host', async () => {
    const { port } = new URL(sandbox.url);
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'app.localhost',
    ]) {
      expect([host, (await get('/', host)).status]).toEqual([host, 200]);
    }
  });

  it('accepts the host it was told to listen on, and only that', () => {
    expect(isAllowedHost('sandbox.lan:3000', 'sandbox.lan')).toBe(true);
    expect(isAllowedHost('[fd00::5]:3000', 'fd00::5')).toBe(true);
    expect(isAllowedHost('other.lan:3000', 'sandbox.lan')).toBe(false);
    expect(isAllowedHost('evil.example', '0.0.0.0')).toBe(false);
    expect(isAllowedHost(undefined)).toBe(false);
  });
});
