/**
 * Statements the instances send to one PostgreSQL database, counted by the server
 * (pg_stat_statements, loaded by startPostgres({ statementStats: true })): every statement is
 * one round trip for node-pg, BEGIN and COMMIT included, and BEGINs count transactions. The
 * view is read from the server's `postgres` database, filtered to the instances' database.
 */
import pg from 'pg';

export interface StatementCounts {
  statements: number;
  transactions: number;
}

export interface StatementCounter {
  reset(): Promise<void>;
  read(): Promise<StatementCounts>;
  /** How often statements whose text matches `pattern` (a POSIX regex) were sent. */
  calls(pattern: string): Promise<number>;
  /** The `n` statements sent most often since the reset, with how often. */
  top(n: number): Promise<{ calls: number; query: string }[]>;
  close(): Promise<void>;
}

export async function statementCounter(databaseUrl: string): Promise<StatementCounter> {
  const url = new URL(databaseUrl);
  const database = url.pathname.slice(1);
  url.pathname = '/postgres';
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  return {
    reset: async () => {
      await pool.query('SELECT pg_stat_statements_reset()');
    },
    read: async () => {
      const { rows } = await pool.query<{ statements: string; transactions: string }>(
        `SELECT coalesce(sum(calls), 0) AS statements,
                coalesce(sum(calls) FILTER (WHERE query ~* '^\\s*BEGIN'), 0) AS transactions
           FROM pg_stat_statements
          WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)`,
        [database],
      );
      return {
        statements: Number(rows[0]?.statements ?? 0),
        transactions: Number(rows[0]?.transactions ?? 0),
      };
    },
    calls: async (pattern) => {
      const { rows } = await pool.query<{ calls: string }>(
        `SELECT coalesce(sum(calls), 0) AS calls FROM pg_stat_statements
          WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1) AND query ~ $2`,
        [database, pattern],
      );
      return Number(rows[0]?.calls ?? 0);
    },
    top: async (n) => {
      const { rows } = await pool.query<{ calls: string; query: string }>(
        `SELECT calls, query FROM pg_stat_statements
          WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)
          ORDER BY calls DESC LIMIT $2`,
        [database, n],
      );
      return rows.map((r) => ({ calls: Number(r.calls), query: r.query.replace(/\s+/g, ' ') }));
    },
    close: () => pool.end(),
  };
}
