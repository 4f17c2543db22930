// Shared pieces for the sandbox tests: a sandbox on a free port, a tiny Bolt app wired to it
// (HTTP mode, the sandbox as its Slack Web API), and a polling waitFor.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';
import type { AppSurface } from '../../src/sandbox/manifest.js';
import type { LogEntry } from '../../src/sandbox/records.js';
import { type SandboxServer, startSandboxServer } from '../../src/sandbox/server.js';
import { DEFAULT_BOT } from '../../src/sandbox/workspace.js';

export const SIGNING_SECRET = 'sandbox-test-signing-secret';
export const BOT_TOKEN = 'xoxb-sandbox-test-token';

export const TEST_SURFACE: AppSurface = {
  name: 'Worklink',
  commands: [
    {
      command: '/work',
      description: 'Work with your tasks',
      usageHint: 'hello | modal',
      shouldEscape: true,
    },
  ],
  shortcuts: [
    { type: 'global', name: 'New task', callbackId: 'new_task', description: 'Create a task' },
    {
      type: 'message',
      name: 'Create task from message',
      callbackId: 'task_from_message',
      description: 'Turn a message into a task',
    },
  ],
  homeTab: true,
  messagesTab: true,
  botEvents: ['app_home_opened', 'message.channels'],
};

export async function waitFor<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function startTestSandbox(
  overrides: Partial<Parameters<typeof startSandboxServer>[0]> = {},
): Promise<SandboxServer & { logs: LogEntry[] }> {
  const logs: LogEntry[] = [];
  const sandbox = await startSandboxServer({
    port: 0,
    signingSecret: SIGNING_SECRET,
    botToken: BOT_TOKEN,
    app: TEST_SURFACE,
    logger: (e) => logs.push(e),
    ...overrides,
  });
  return Object.assign(sandbox, { logs });
}

export interface TinyApp {
  app: App;
  eventsUrl: string;
  stop(): Promise<void>;
}

/** A Bolt app in HTTP mode that talks to the sandbox as its Slack; `setup` adds listeners. */
export async function startTinyApp(
  sandbox: SandboxServer,
  setup: (app: App) => void,
  signingSecret = SIGNING_SECRET,
): Promise<TinyApp> {
  const app = new App({
    signingSecret,
    token: BOT_TOKEN,
    botId: DEFAULT_BOT.botId,
    botUserId: DEFAULT_BOT.botUserId,
    clientOptions: { slackApiUrl: sandbox.apiUrl },
    logLevel: LogLevel.ERROR,
  });
  setup(app);
  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
  const { port } = server.address() as AddressInfo;
  const eventsUrl = `http://127.0.0.1:${port}/slack/events`;
  sandbox.setAppEventsUrl(eventsUrl);
  return { app, eventsUrl, stop: () => app.stop() as Promise<void> };
}
