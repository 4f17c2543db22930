/**
 * `worklink service`, `worklink seed` and `worklink key` (dispatched by src/main.ts). Problems
 * with the arguments are one sentence on stderr and exit code 2, never a stack trace.
 */

import { existsSync } from 'node:fs';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { errMessage } from '../error-message.js';
import { openDatabase } from './db.js';
import { startService } from './index.js';
import { type SeedResult, seedDemoWorkspace } from './seed.js';
import { createApiKey, usersByEmail } from './workspaces.js';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

class UsageError extends Error {}

function parse<const O extends ParseArgsOptionsConfig>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    // node:util's messages are already one sentence ("Unknown option '--x'").
    throw new UsageError(errMessage(e));
  }
}

function fail(e: unknown): number {
  if (e instanceof UsageError) {
    console.error(e.message);
    process.exitCode = 2;
    return 2;
  }
  console.error(errMessage(e));
  process.exitCode = 1;
  return 1;
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) {
    throw new UsageError(`--port must be a number from 0 to 65535, not "${text}".`);
  }
  return Number(text);
}

/**
 * `service --db <file> [--port <n>] [--host <ip>] [--events-url <url> --events-secret <s>]`:
 * serves until SIGTERM or SIGINT, then closes cleanly and exits 0.
 */
export async function runServiceCommand(argv: string[]): Promise<number> {
  try {
    const v = parse(argv, {
      db: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'events-url': { type: 'string' },
      'events-secret': { type: 'string' },
    });
    if (!v.db) throw new UsageError('--db <file> is required: the SQLite file to serve from.');
    const port = parsePort(v.port);
    if ((v['events-url'] === undefined) !== (v['events-secret'] === undefined)) {
      throw new UsageError('--events-url and --events-secret go together: give both or neither.');
    }
    if (v['events-url'] !== undefined && !URL.canParse(v['events-url'])) {
      throw new UsageError(`--events-url must be a URL, not "${v['events-url']}".`);
    }
    const service = await startService({
      dbPath: v.db,
      port,
      host: v.host ?? '127.0.0.1',
      eventsUrl: v['events-url'],
      eventsSecret: v['events-secret'],
      logger: {
        info: (m) => console.log(m),
        warn: (m) => console.warn(m),
        error: (m) => console.error(m),
      },
    });
    console.log(`Work service running (database ${v.db})`);
    console.log(`base URL: ${service.baseUrl}`);
    console.log(`alt URL:  ${service.altUrl}`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        resolve();
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
    await service.close();
    console.log('Work service stopped.');
    process.exitCode = 0;
    return 0;
  } catch (e) {
    return fail(e);
  }
}

/** `seed --db <file> [--json]`: a new demo workspace; with --json the last line is JSON. */
export async function runSeedCommand(argv: string[]): Promise<number> {
  try {
    const v = parse(argv, { db: { type: 'string' }, json: { type: 'boolean' } });
    if (!v.db) throw new UsageError('--db <file> is required: the SQLite file to seed.');
    const result = seedDemoWorkspace(v.db);
    console.log(v.json ? JSON.stringify(result) : summary(result, v.db));
    process.exitCode = 0;
    return 0;
  } catch (e) {
    return fail(e);
  }
}

/**
 * `key --db <file> --user <email> [--workspace <id>]`: issues a new API key acting as that
 * user (what a person pastes into `/work connect me`). The key is printed once, alone on the
 * last line. An e-mail in several workspaces needs `--workspace`.
 */
export async function runKeyCommand(argv: string[]): Promise<number> {
  try {
    const v = parse(argv, {
      db: { type: 'string' },
      user: { type: 'string' },
      workspace: { type: 'string' },
    });
    if (!v.db) throw new UsageError("--db <file> is required: the service's SQLite file.");
    if (!v.user) throw new UsageError('--user <email> is required: whose key it is.');
    if (!existsSync(v.db)) throw new UsageError(`There is no database at ${v.db}.`);
    const db = openDatabase(v.db);
    try {
      const found = usersByEmail(db, v.user).filter(
        (u) => !v.workspace || u.workspaceId === v.workspace,
      );
      if (found.length === 0) {
        const where = v.workspace ? ` in workspace ${v.workspace}` : '';
        throw new UsageError(`No user has the e-mail ${v.user}${where}.`);
      }
      if (found.length > 1) {
        const list = found.map((u) => `${u.workspaceName} (${u.workspaceId})`).join(', ');
        throw new UsageError(
          `${v.user} is a user in ${found.length} workspaces: ${list}. Name one with --workspace <id>.`,
        );
      }
      const user = found[0]!;
      const key = createApiKey(db, user.workspaceId, user.userId);
      console.log(
        `New API key for ${user.name} <${v.user}> in "${user.workspaceName}" (shown once):`,
      );
      console.log(key);
    } finally {
      db.close();
    }
    process.exitCode = 0;
    return 0;
  } catch (e) {
    return fail(e);
  }
}

function summary(r: SeedResult, dbPath: string): string {
  return [
    `Created demo workspace "${r.workspaceName}" (${r.workspaceId}) in ${dbPath}.`,
    `API key (shown once, keep it): ${r.apiKey}`,
    'Users:',
    ...r.users.map(
      (u) => `  ${u.name} <${u.email}>  ${u.id}${u.apiKey ? `  own key: ${u.apiKey}` : ''}`,
    ),
    'Customers:',
    ...r.customers.map((c) => `  ${c.companyName}  ${c.customerId}`),
    'Projects:',
    ...r.projects.map(
      (p) =>
        `  ${p.projectName}  ${p.projectId}  groups: ${p.groups.map((g) => g.groupName).join(', ')}`,
    ),
  ].join('\n');
}
