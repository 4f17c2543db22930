/**
 * The PostgreSQL connection for the store: a pg Pool, and `Sql`, what every table module
 * queries through. `Sql.tx` runs a unit of work in one transaction on one connection; called
 * on a `Sql` that is already a transaction it joins it, so a table's own multi-statement
 * method (e.g. deleteTeam) becomes part of a larger unit (forgetTeam) unchanged.
 */
import pg from 'pg';
import type { Logger } from '../../logger.js';

export interface Sql {
  /** Rows of a query; `$1…` parameters. */
  rows<R>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** The first row, or undefined. */
  row<R>(text: string, params?: readonly unknown[]): Promise<R | undefined>;
  /** How many rows a statement changed. */
  run(text: string, params?: readonly unknown[]): Promise<number>;
  /** Runs `work` in one transaction (or inside the current one), committed when it resolves. */
  tx<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
}

export interface PgDb extends Sql {
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

// Epoch-ms columns and counts are BIGINT (int8), which pg returns as strings by default:
// read them as numbers (every value Worklink stores is far below 2^53).
const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary'
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

type Queryable = pg.Pool | pg.PoolClient;

function sqlOn(q: Queryable, inTx: boolean, pool: pg.Pool): Sql {
  const query = (text: string, params?: readonly unknown[]) =>
    q.query(text, params as unknown[] | undefined);
  const sql: Sql = {
    rows: async <R>(text: string, params?: readonly unknown[]) =>
      (await query(text, params)).rows as R[],
    row: async <R>(text: string, params?: readonly unknown[]) =>
      (await query(text, params)).rows[0] as R | undefined,
    run: async (text, params) => (await query(text, params)).rowCount ?? 0,
    tx: (work) => (inTx ? work(sql) : transaction(pool, work)),
  };
  return sql;
}

async function transaction<T>(pool: pg.Pool, work: (sql: Sql) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(sqlOn(client, true, pool));
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (e) {
    // A failed ROLLBACK means the connection is broken: drop it from the pool.
    await client.query('ROLLBACK').then(
      () => client.release(),
      (rollbackError: unknown) => client.release(rollbackError as Error),
    );
    throw e;
  }
}

export function openPgDb(url: string, options: { max?: number; logger?: Logger } = {}): PgDb {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    // A server that does not answer (a wrong host, a dropped route) fails in seconds, at
    // start-up with a sentence, instead of after the system's TCP timeout of minutes.
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection the server drops (restart, failover) must not crash the process; the
  // pool replaces it on the next query.
  pool.on('error', (e) =>
    options.logger?.warn(`PostgreSQL dropped an idle connection: ${e.message}`),
  );
  let closed: Promise<void> | undefined;
  return {
    ...sqlOn(pool, false, pool),
    pool,
    close: () => {
      closed ??= pool.end();
      return closed;
    },
  };
}
