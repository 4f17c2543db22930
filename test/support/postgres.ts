/**
 * A real PostgreSQL server for tests, from Debian's `postgresql` package (installed by
 * scripts/ensure-postgres.sh before `npm test`): `initdb` into a temp directory, `pg_ctl`
 * start on a free port (TCP on 127.0.0.1, its socket in the same directory), stopped and
 * removed at the end. The server refuses to run as root, so as root it runs as the
 * `postgres` user (runuser) in a directory that user owns.
 *
 * One server for the whole run (`npm test`): test/support/postgres-run.ts starts it before
 * the first file (vitest.config.ts `globalSetup`) and stops it after the last; each test
 * takes a fresh empty database (CREATE DATABASE, a few tens of ms) and `usePostgres()` drops
 * its file's databases after the file. Without that run-wide server (a run of the fast tier
 * only, or a benchmark), `usePostgres()` starts one for the file on first use.
 *
 *   const pg = usePostgres();
 *   it('…', async () => { const url = await pg.freshDatabase(); … });
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, inject } from 'vitest';

declare module 'vitest' {
  interface ProvidedContext {
    /** The run-wide server's port (test/support/postgres-run.ts); absent without one. */
    postgresPort?: number;
  }
}

const run = promisify(execFile);
const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;

export interface PostgresServer {
  port: number;
  /** The URL of a database on this server (user postgres, no password). */
  url(database: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/** Runs a server binary as the user the server accepts. */
function command(bin: string, args: string[]): [string, string[]] {
  const path = join(BIN, bin);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
}

function postgresUid(): { uid: number; gid: number } {
  const out = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error('Running as root, but there is no `postgres` user.');
  return { uid: Number(out.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface StartPostgresOptions {
  /**
   * Load pg_stat_statements (benchmarks count the statements instances send: `CREATE
   * EXTENSION pg_stat_statements` in a database, then read its view).
   */
  statementStats?: boolean;
}

export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'worklink-pg-'));
  if (asRoot) {
    const { uid, gid } = postgresUid();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  try {
    await run(
      ...command('initdb', [
        '-D',
        data,
        '-U',
        'postgres',
        '-A',
        'trust',
        '-E',
        'UTF8',
        '--locale=C.UTF-8',
        '--no-sync',
        '--no-instructions',
      ]),
    );
  } catch (e) {
    removeDir();
    throw e;
  }

  // A port found free can be taken before the server binds it: try again on another one.
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    // Durability is worthless for a throw-away server; speed is not.
    const stats = options.statementStats ? ' -c shared_preload_libraries=pg_stat_statements' : '';
    const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300${stats}`;
    try {
      await run(
        ...command('pg_ctl', [
          '-D',
          data,
          '-l',
          join(dir, 'log'),
          '-o',
          serverOptions,
          '-w',
          '-t',
          '60',
          'start',
        ]),
      );
      break;
    } catch (e) {
      if (attempt >= 3) {
        removeDir();
        throw e;
      }
    }
  }

  const [stopCmd, stopArgs] = command('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  // A test process killed outright (SIGKILL: a hung test file) runs no handler: a detached
  // watchdog stops the server and removes its directory once this process is gone.
  const watchdog = spawn(
    'sh',
    [
      '-c',
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; "$0" "$@" >/dev/null 2>&1; rm -rf '${dir}'`,
      stopCmd,
      ...stopArgs,
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  const stopNow = () => {
    watchdog.kill();
    spawnSync(stopCmd, stopArgs, { stdio: 'ignore' });
    removeDir();
  };
  // A test process that ends without afterAll (a crash, a timeout) still stops its server.
  process.once('exit', stopNow);

  let stopped = false;
  return {
    ...onPort(port),
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', stopNow);
      watchdog.kill();
      await run(stopCmd, stopArgs);
      removeDir();
    },
  };
}

export interface SharedPostgres {
  /** The file's server, started on first use. */
  server(): Promise<PostgresServer>;
  /** A new empty database on the file's server; its URL. */
  freshDatabase(): Promise<string>;
}

/** URLs and new databases on the server listening on `port`. */
function onPort(port: number): Omit<PostgresServer, 'stop'> & { drop(url: string): Promise<void> } {
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url('postgres') });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    port,
    url,
    async createDatabase() {
      // Unique across the files and processes sharing the server.
      const name = `t_${randomUUID().replaceAll('-', '')}`;
      await admin(`CREATE DATABASE ${name}`);
      return url(name);
    },
    drop: (database: string) =>
      admin(`DROP DATABASE IF EXISTS ${new URL(database).pathname.slice(1)} WITH (FORCE)`),
  };
}

/**
 * The server for the calling test file: the run's (its databases dropped after the file), or
 * one of the file's own, started when first asked for and stopped after the file.
 */
export function usePostgres(): SharedPostgres {
  const runPort = inject('postgresPort');
  if (runPort !== undefined) {
    const shared = onPort(runPort);
    const made: string[] = [];
    const server: PostgresServer = {
      ...shared,
      async createDatabase() {
        const url = await shared.createDatabase();
        made.push(url);
        return url;
      },
      // The run's server outlives the file.
      stop: async () => {},
    };
    afterAll(async () => {
      for (const url of made.splice(0)) await shared.drop(url);
    });
    return { server: async () => server, freshDatabase: () => server.createDatabase() };
  }
  let started: Promise<PostgresServer> | undefined;
  const server = () => {
    started ??= startPostgres();
    return started;
  };
  afterAll(async () => {
    if (started !== undefined) await (await started).stop();
  });
  return { server, freshDatabase: async () => (await server()).createDatabase() };
}
