// The sandbox team's connection to the demo workspace, made at start as `/work connect` makes
// it (verify the key, then the store), with #website and #onboarding linked to their projects
// on the first run.

import type { Logger } from '@slack/bolt';
import { errMessage } from '../error-message.js';
import { StartupError } from '../slack/start/startup-error.js';
import type { WorklinkHandle } from '../slack/start/worklink.js';
import type { Verification } from '../workapi/contract.js';
import { type SandboxSetup, saveSetup, setupFilePath } from './setup-file.js';
import { DEFAULT_CHANNELS, DEFAULT_USERS } from './workspace.js';

/** The sandbox channels linked to the seed's projects on the first run. */
const CHANNEL_PROJECTS = [
  { channel: 'website', project: 'Website relaunch' },
  { channel: 'onboarding', project: 'Customer onboarding' },
] as const;

const ADMIN = DEFAULT_USERS.find((u) => u.isOwner) ?? DEFAULT_USERS[0];

/** What connecting needs of the started stack (start.ts's SandboxStack has it all). */
export interface DemoTeam {
  setup: SandboxSetup;
  worklink: WorklinkHandle;
  teamId: string;
  dataDir: string;
  embeddedService: boolean;
}

/**
 * Connects the sandbox team to the demo workspace, as `/work connect` would (verify, then the
 * store). The first run also links #website and #onboarding to their projects. A later run
 * reconnects only when the connection is gone, so a deliberate switch to another key stays.
 */
export async function connectDemoTeam(stack: DemoTeam, logger: Logger): Promise<void> {
  const { setup, worklink, teamId } = stack;
  const seed = setup.seed;
  if (!seed || !stack.embeddedService) return;
  const { store } = worklink;
  const existing = await store.connections.info(teamId);
  if (setup.setupDone && existing) return;

  let verification: Verification;
  try {
    verification = await worklink.deps.workClients.adHoc(seed.apiKey).verify();
  } catch (e) {
    throw new StartupError(
      `The demo workspace's API key was refused by the embedded service (${errMessage(e)}); delete ${setupFilePath(stack.dataDir)} to seed a new one.`,
    );
  }
  const connection = {
    teamId,
    workspaceId: verification.workspaceId,
    workspaceName: verification.workspaceName || seed.workspaceName,
    keyOwnerId: verification.createdBy,
    apiKey: seed.apiKey,
    connectedBy: ADMIN.id,
    connectedAt: new Date().toISOString(),
  };
  const firstSetup = !setup.setupDone;
  // Another workspace's links and projects would point at ids this one does not have:
  // connect forgets them when the workspace changed.
  const links = firstSetup
    ? CHANNEL_PROJECTS.flatMap((link) => {
        const channel = DEFAULT_CHANNELS.find((c) => c.name === link.channel);
        const project = seed.projects.find((p) => p.projectName === link.project);
        if (!channel || !project) return [];
        return [
          { channelId: channel.id, projectId: project.projectId, projectName: project.projectName },
        ];
      })
    : [];
  await store.connect(connection, links);
  if (firstSetup) {
    setup.setupDone = true;
    saveSetup(stack.dataDir, setup);
  }
  logger.info(`Sandbox team ${teamId} connected to demo workspace ${connection.workspaceId}.`);
}
