/**
 * The PostgreSQL connection for the store: a pg Pool, and `Sql`, what every table module
 * queries through. `Sql.tx` runs a unit of work in one transaction on one connection; called
 * on a `Sql` that is already a transaction it joins it, so a table's own multi-statement
 * method (e.g. deleteTeam) becomes part of a larger unit (forgetTeam) unchanged.
 */
import pg from 'pg';
import type { Logger } from '../../logger.js';

/**
 * A statement: its text, or a named one (`named`), which each connection parses and plans
 * once and then only executes — for the statements run per command or per DM.
 */
export type Statement = string | Named;

export interface Named {
  readonly name: string;
  readonly text: string;
}

/** A prepared statement: the name must be unique in the app (one text per name). */
export const named = (name: string, text: string): Named => ({ name, text });

export interface Sql {
  /** Rows of a query; `$1…` parameters. */
  rows<R>(text: Statement, params?: readonly unknown[]): Promise<R[]>;
  /** The first row, or undefined. */
  row<R>(text: Statement, params?: readonly unknown[]): Promise<R | undefined>;
  /** How many rows a statement changed. */
  run(text: Statement, params?: readonly unknown[]): Promise<number>;
  /** Runs `work` in one transaction (or inside the current one), committed when it resolves. */
  tx<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
}

/** What went to the server (benchmarks: round trips per command, per DM). */
export interface SqlCounts {
  /** Statements sent, BEGIN and COMMIT included: one round trip each. */
  statements: number;
  /** Transactions opened by `tx`. */
  transactions: number;
}

export interface PgDb extends Sql {
  readonly pool: pg.Pool;
  /** Counted since the pool opened. */
  counts(): SqlCounts;
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

function sqlOn(q: Queryable, inTx: boolean, pool: pg.Pool, counts: SqlCounts): Sql {
  const query = (statement: Statement, params: readonly unknown[] = []) => {
    counts.statements++;
    const values = [...params];
    return typeof statement === 'string'
      ? q.query(statement, values)
      : q.query({ name: statement.name, text: statement.text, values });
  };
  const sql: Sql = {
    // pg types rows as `any`: each caller names the row type it selects.
    rows: async <R>(text: Statement, params?: readonly unknown[]): Promise<R[]> =>
      (await query(text, params)).rows,
    row: async <R>(text: Statement, params?: readonly unknown[]): Promise<R | undefined> =>
      (await query(text, params)).rows[0],
    run: async (text, params) => (await query(text, params)).rowCount ?? 0,
    tx: (work) => (inTx ? work(sql) : transaction(pool, work, counts)),
  };
  return sql;
}

async function transaction<T>(
  pool: pg.Pool,
  work: (sql: Sql) => Promise<T>,
  counts: SqlCounts,
): Promise<T> {
  const client = await pool.connect();
  counts.transactions++;
  counts.statements += 2; // BEGIN and COMMIT (or ROLLBACK)
  try {
    await client.query('BEGIN');
    const result = await work(sqlOn(client, true, pool, counts));
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (e) {
    // A failed ROLLBACK means the connection is broken: drop it from the pool.
    await client.query('ROLLBACK').then(
      () => client.release(),
      (rollbackError: unknown) =>
        client.release(rollbackError instanceof Error ? rollbackError : true),
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
  const counts: SqlCounts = { statements: 0, transactions: 0 };
  return {
    ...sqlOn(pool, false, pool, counts),
    pool,
    counts: () => ({ ...counts }),
    close: () => {
      closed ??= pool.end();
      return closed;
    },
  };
}
