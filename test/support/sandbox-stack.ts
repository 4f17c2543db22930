/**
 * The whole local demo (`npm start`) for a test file: the sandbox, the app and the embedded
 * service on free ports and a fresh data directory, started before the file's tests and
 * stopped (and the directory removed) after them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { launchSandbox, type SandboxStack } from '../../src/sandbox/start.js';

/** Registers the file's beforeAll/afterAll; the returned function gives the running stack. */
export function useSandboxStack(dirPrefix: string): () => SandboxStack {
  let stack: SandboxStack | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), dirPrefix));
    stack = await launchSandbox(
      { slack: { mode: 'sandbox' }, port: 0, dataDir, logLevel: 'error' },
      { logger: createLogger('error', () => {}) },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!stack) throw new Error('the sandbox stack is not running');
    return stack;
  };
}
