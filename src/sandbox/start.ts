// `npm start` with no Slack credentials: the embedded service (seeded on the first run), the
// real Worklink app in HTTP mode with generated credentials, and the sandbox Slack it talks
// to — the demo team already connected, so `/work new` works at once.
//
//   launchSandbox(config, {port: 0})  everything started; returns a handle (tests use this)
//   startSandbox(config)              the same, plus the welcome text and Ctrl+C handling

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@slack/bolt';
import type { AppConfig } from '../config.js';
import { errCode, errMessage } from '../error-message.js';
import { createLogger } from '../logger.js';
import { makePrivateDir } from '../private-files.js';
import { projectFile } from '../project-root.js';
import { seedDemoWorkspace } from '../service/index.js';
import { StartupError } from '../slack/start/startup-error.js';
import { startWorklink, type WorklinkHandle } from '../slack/start/worklink.js';
import { type Welcome, welcomeText } from './banner.js';
import { connectDemoTeam } from './demo-connection.js';
import { firstHourSeed, postWelcome, START_CHANNEL } from './first-hour.js';
import { type AppSurface, DEFAULT_APP_SURFACE, readAppManifest } from './manifest.js';
import { type SandboxServer, startSandboxServer } from './server.js';
import { loadSetup, type SandboxSetup, SetupFileError, saveSetup } from './setup-file.js';
import { readStepDefinitions } from './workflow-functions.js';
import { DEFAULT_CHANNELS, DEFAULT_TEAM, DEFAULT_USERS } from './workspace.js';

export interface LaunchOptions {
  /** Overrides config.port; 0 picks a free port. */
  port?: number;
  /** Interface the sandbox page listens on (default 127.0.0.1: it is a local tool). */
  host?: string;
  logger?: Logger;
  /** The Slack app manifest whose commands and shortcuts the page offers. */
  manifestPath?: string;
}

export interface SandboxStack {
  /** The page to open, e.g. http://127.0.0.1:3000 */
  url: string;
  sandbox: SandboxServer;
  worklink: WorklinkHandle;
  setup: SandboxSetup;
  /** The demo workspace was seeded by this start. */
  firstRun: boolean;
  /** The sandbox Slack team (connected to the demo workspace). */
  teamId: string;
  dataDir: string;
  /** Where the app's service is (embedded, or WORK_API_URL). */
  embeddedService: boolean;
  stop(): Promise<void>;
}

function defaultManifestPath(): string {
  return projectFile('manifest.yml');
}

async function appSurface(path: string, logger: Logger): Promise<AppSurface> {
  if (!existsSync(path)) return DEFAULT_APP_SURFACE;
  try {
    return await readAppManifest(path);
  } catch (e) {
    logger.warn(`The sandbox could not use ${path} (${errMessage(e)}); using defaults.`);
    return DEFAULT_APP_SURFACE;
  }
}

/** Starts service + app + sandbox. Throws StartupError (one sentence) for what a person fixes. */
export async function launchSandbox(
  config: AppConfig,
  options: LaunchOptions = {},
): Promise<SandboxStack> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const dataDir = config.dataDir;
  const port = options.port ?? config.port;
  const embeddedService = config.workApi === undefined;

  try {
    makePrivateDir(dataDir);
  } catch (e) {
    throw new StartupError(
      `DATA_DIR ${dataDir} could not be created (${errCode(e) ?? errMessage(e)}).`,
    );
  }

  let loaded: ReturnType<typeof loadSetup>;
  try {
    loaded = loadSetup(dataDir);
  } catch (e) {
    if (e instanceof SetupFileError) throw new StartupError(e.message);
    throw e;
  }
  const { setup } = loaded;

  const manifestPath = options.manifestPath ?? defaultManifestPath();
  const surface = await appSurface(manifestPath, logger);
  const steps = await readStepDefinitions(manifestPath).catch((e: unknown) => {
    logger.warn(`The sandbox could not read the steps of ${manifestPath}: ${errMessage(e)}`);
    return [];
  });
  let sandbox: SandboxServer;
  try {
    sandbox = await startSandboxServer({
      port,
      host: options.host ?? '127.0.0.1',
      signingSecret: setup.signingSecret,
      botToken: setup.botToken,
      users: DEFAULT_USERS,
      channels: DEFAULT_CHANNELS,
      teamId: DEFAULT_TEAM.id,
      app: surface,
      steps,
      logger: (entry) => logger[entry.level](`[sandbox] ${entry.text}`),
    });
  } catch (e) {
    const code = errCode(e);
    if (code === 'EADDRINUSE') {
      throw new StartupError(
        `PORT ${port} is already in use: stop whatever is using it, or choose another port (PORT=3001 npm start).`,
      );
    }
    if (code === 'EACCES') {
      throw new StartupError(`PORT ${port} may not be used by this user: choose one above 1023.`);
    }
    throw e;
  }

  let worklink: WorklinkHandle;
  let firstRun = false;
  try {
    // Only once the port is ours: a start that cannot listen changes nothing on disk.
    if (embeddedService && !setup.seed) {
      // Seeded straight into the file the embedded service will serve; kept for later runs.
      setup.seed = seedDemoWorkspace(join(dataDir, 'service.db'), firstHourSeed());
      firstRun = true;
    }
    if (loaded.fresh || firstRun) saveSetup(dataDir, setup);
    // The real app, in HTTP mode, with the sandbox as its Slack.
    const appConfig: AppConfig = {
      ...config,
      slack: { mode: 'http', botToken: setup.botToken, signingSecret: setup.signingSecret },
      slackApiUrl: sandbox.apiUrl,
    };
    worklink = await startWorklink({
      config: appConfig,
      port: 0,
      host: '127.0.0.1',
      logger,
      // The sandbox knows its demo people's own keys: they connect from App Home in one click.
      demoKeys: async (_teamId, slackUserId) => {
        const email = sandbox.state.users.get(slackUserId)?.email;
        return setup.seed?.users.find((u) => u.email === email)?.apiKey;
      },
    });
  } catch (e) {
    await sandbox.stop();
    throw e;
  }
  sandbox.setAppEventsUrl(worklink.eventsUrl);
  // Links to the app's task pages unfurl here as Slack would for its unfurl domains.
  sandbox.previews.addDomains(worklink.deps.links.hosts());

  const stack: SandboxStack = {
    url: sandbox.url,
    sandbox,
    worklink,
    setup,
    firstRun,
    teamId: sandbox.state.team.id,
    dataDir,
    embeddedService,
    stop: (() => {
      let stopping: Promise<void> | undefined;
      return () => {
        stopping ??= (async () => {
          await worklink.stop();
          await sandbox.stop();
        })();
        return stopping;
      };
    })(),
  };

  try {
    await connectDemoTeam(stack, logger);
  } catch (e) {
    await stack.stop();
    throw e;
  }
  sandbox.state.startChannel = START_CHANNEL;
  if (firstRun) postWelcome(sandbox.state);
  return stack;
}

/**
 * `npm start` in sandbox mode: everything started, one welcome block on stdout, and a clean
 * stop (exit 0) on Ctrl+C or SIGTERM.
 */
export async function startSandbox(config: AppConfig): Promise<SandboxStack> {
  const stack = await launchSandbox(config);
  process.stdout.write(`${welcomeText(await welcomeOf(stack))}\n`);
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    process.stdout.write('Stopping the Worklink sandbox…\n');
    stack
      .stop()
      .catch((e: unknown) => {
        process.stderr.write(`worklink: stopping failed: ${errMessage(e)}\n`);
        process.exitCode = 1;
      })
      // Keep-alive sockets and the page's event streams must not hold the process open.
      .finally(() => process.exit());
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return stack;
}

/** What the welcome block says, read from the running stack. */
export async function welcomeOf(stack: SandboxStack): Promise<Welcome> {
  const { store } = stack.worklink;
  const { state } = stack.sandbox;
  const links = await store.channelProjects.listForTeam(stack.teamId);
  return {
    url: stack.url,
    dataDir: stack.dataDir,
    teamName: state.team.name,
    workspaceName: (await store.connections.info(stack.teamId))?.workspaceName,
    firstRun: stack.firstRun,
    embeddedService: stack.embeddedService,
    links: await Promise.all(
      links.map(async (l) => ({
        channel: state.channels.get(l.channelId)?.name ?? l.channelId,
        project:
          (await store.knownProjects.get(stack.teamId, l.projectId))?.projectName ?? l.projectId,
      })),
    ),
  };
}
