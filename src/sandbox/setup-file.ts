// DATA_DIR/sandbox.json: what `npm start` in sandbox mode must remember between runs — the
// generated Slack credentials, the seeded demo workspace (its API key included) and whether
// the first-run setup (connection, channel links) is done. It holds secrets: mode 0600.

import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { errMessage } from '../error-message.js';

export const SETUP_FILE = 'sandbox.json';

const Seed = z.object({
  apiKey: z.string().min(1),
  workspaceId: z.string().min(1),
  workspaceName: z.string(),
  users: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      apiKey: z.string().optional(),
    }),
  ),
  customers: z.array(z.object({ customerId: z.string(), companyName: z.string() })),
  projects: z.array(
    z.object({
      projectId: z.string(),
      projectName: z.string(),
      groups: z.array(z.object({ groupId: z.string(), groupName: z.string() })),
    }),
  ),
});

const SetupFile = z.object({
  version: z.literal(1),
  /** Generated once; the sandbox signs its requests to the app with it. */
  signingSecret: z.string().min(16),
  /** Generated once; the app's bot token for the sandbox's Web API. */
  botToken: z.string().startsWith('xoxb-'),
  /** The demo workspace seeded into DATA_DIR/service.db on the first run. */
  seed: Seed.optional(),
  /** The first-run setup (connection, #website/#onboarding links) is done. */
  setupDone: z.boolean().default(false),
});

export type SandboxSetup = z.infer<typeof SetupFile>;

/** Thrown when the file exists but cannot be used; `message` is one sentence. */
export class SetupFileError extends Error {
  override readonly name = 'SetupFileError';
}

export function setupFilePath(dataDir: string): string {
  return join(dataDir, SETUP_FILE);
}

/** The saved setup, or new credentials (not yet saved) when there is no file. */
export function loadSetup(dataDir: string): { setup: SandboxSetup; fresh: boolean } {
  const path = setupFilePath(dataDir);
  if (!existsSync(path)) {
    return {
      fresh: true,
      setup: {
        version: 1,
        signingSecret: randomBytes(32).toString('hex'),
        botToken: `xoxb-sandbox-${randomBytes(24).toString('hex')}`,
        setupDone: false,
      },
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new SetupFileError(
      `${path} could not be read (${errMessage(e)}); delete it (or the whole data directory) to start the sandbox afresh.`,
    );
  }
  const parsed = SetupFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SetupFileError(
      `${path} is not a sandbox setup file (${issue?.path.join('.') || 'root'}: ${issue?.message}); delete it (or the whole data directory) to start the sandbox afresh.`,
    );
  }
  return { setup: parsed.data, fresh: false };
}

/** Writes the file atomically (temp file + rename), readable by its owner only. */
export function saveSetup(dataDir: string, setup: SandboxSetup): void {
  const path = setupFilePath(dataDir);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(setup, null, 2)}\n`, { mode: 0o600 });
  // `mode` applies only when the file is created; make sure of it either way.
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}
