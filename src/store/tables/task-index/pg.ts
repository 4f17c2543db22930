/**
 * task_index on PostgreSQL (see contract.ts for what it holds and why). Words are
 * searched with PostgreSQL's full-text search: `words` (a tsvector of the name's normalised
 * words, task-words.ts) under a GIN index, queried with prefixes (`word:*`) in any order.
 * Sightings are merged in task-sightings.ts.
 */

import type { Sql } from '../../pg/db.js';
import {
  type IndexedTask,
  listedSighting,
  type SeenChange,
  seenDiffers,
  type TaskIndexStore,
} from './contract.js';
import { COLUMNS, ROW, type Row, type RowChange, recordSightings } from './pg-sightings.js';
import { nameWords, tsQuery, wordsVector } from './pg-words.js';

const fromRow = (r: Row): IndexedTask => ({
  teamId: r.team_id,
  taskId: r.task_id,
  projectId: r.project_id,
  number: r.number ?? undefined,
  name: r.name,
  done: r.done,
  gone: r.gone,
  statusName: r.status_name ?? undefined,
  dueDate: r.due_date ?? undefined,
  priority: r.priority ?? undefined,
  assigneeIds: r.assignees,
  creatorId: r.creator_id ?? undefined,
  readAt: r.read_at ?? undefined,
  seenAt: r.seen_at,
});

/** The changes whose told fields differ (contract.ts, seenDiffers). */
const seen = (changes: readonly RowChange[]): SeenChange[] =>
  changes
    .map((c) => ({ before: fromRow(c.before), after: fromRow(c.after) }))
    .filter((c) => seenDiffers(c.before, c.after));

const T_ROW = COLUMNS.map((c) => `t.${c}`).join(', ');

export function pgTaskIndexStore(sql: Sql): TaskIndexStore {
  const tasks = async (text: string, params: unknown[]) =>
    (await sql.rows<Row>(text, params)).map(fromRow);
  const one = async (text: string, params: unknown[]) => (await tasks(text, params))[0];
  // Open first (unless only open ones), then the best match (a larger share of the name
  // matched ranks higher, like bm25 on SQLite), then the task number.
  const search = (
    teamId: string,
    query: string,
    limit: number,
    projectId?: string,
    openOnly?: boolean,
  ) =>
    tasks(
      `SELECT ${T_ROW} FROM task_index t, CAST($1 AS tsquery) q
        WHERE t.team_id = $2 AND t.words @@ q AND NOT t.gone
          ${openOnly ? 'AND NOT t.done' : ''} ${projectId ? 'AND t.project_id = $4' : ''}
        ORDER BY t.done, ts_rank(t.words, q, 1) DESC, t.number NULLS FIRST LIMIT $3`,
      projectId ? [query, teamId, limit, projectId] : [query, teamId, limit],
    );

  return {
    // One statement each, no transaction (pg-sightings.ts).
    async record(teamId, s, now = Date.now()) {
      await recordSightings(sql, teamId, [s], now);
    },
    async recordMany(teamId, list, now = Date.now()) {
      await recordSightings(sql, teamId, list, now);
    },
    see: async (teamId, s, now = Date.now()) =>
      seen(await recordSightings(sql, teamId, [s], now))[0],
    seeMany: async (teamId, list, now = Date.now()) =>
      seen(await recordSightings(sql, teamId, list, now)),
    seeOpenList: (teamId, projectId, items, now = Date.now()) =>
      sql.tx(async (tx) => {
        const sightings = items.map((item) => listedSighting(projectId, item));
        const changed = seen(await recordSightings(tx, teamId, sightings, now));
        // RETURNING shows the new row: as it was, it was open (and its status name unknown).
        const closed = await tx.rows<Row>(
          `UPDATE task_index SET done = true, status_name = NULL, seen_at = $3
            WHERE team_id = $1 AND project_id = $2 AND NOT done AND NOT gone
              AND task_id <> ALL($4::text[])
            RETURNING ${ROW}`,
          [teamId, projectId, now, items.map((i) => i.taskId)],
        );
        return { closed: closed.map((r) => fromRow({ ...r, done: false })), changed };
      }),
    sawOpenList: (teamId, projectId, items, now = Date.now()) =>
      sql.tx(async (tx) => {
        const sightings = items.map((item) => listedSighting(projectId, item));
        await recordSightings(tx, teamId, sightings, now);
        return tx.run(
          `UPDATE task_index SET done = true, status_name = NULL, seen_at = $3
            WHERE team_id = $1 AND project_id = $2 AND NOT done AND NOT gone
              AND task_id <> ALL($4::text[])`,
          [teamId, projectId, now, items.map((i) => i.taskId)],
        );
      }),
    async markGone(teamId, taskId, now = Date.now()) {
      await sql.run(
        'UPDATE task_index SET gone = true, seen_at = $1 WHERE team_id = $2 AND task_id = $3',
        [now, teamId, taskId],
      );
    },
    get: (teamId, taskId) =>
      one(`SELECT ${ROW} FROM task_index WHERE team_id = $1 AND task_id = $2`, [teamId, taskId]),
    getMany: (teamId, taskIds) =>
      tasks(`SELECT ${ROW} FROM task_index WHERE team_id = $1 AND task_id = ANY($2::text[])`, [
        teamId,
        [...taskIds],
      ]),
    byNumber: (teamId, projectId, number) =>
      one(
        `SELECT ${ROW} FROM task_index
          WHERE team_id = $1 AND project_id = $2 AND number = $3 AND NOT gone
          ORDER BY seen_at DESC LIMIT 1`,
        [teamId, projectId, number],
      ),
    async search(teamId, words, options = {}) {
      const query = tsQuery(words);
      if (!query) return [];
      return search(teamId, query, options.limit ?? 20, options.projectId, options.openOnly);
    },
    async similar(teamId, projectId, title, limit = 3) {
      // Short words ("a", "to") would match nearly everything: similar means sharing words.
      const query = tsQuery((title.match(/[\p{L}\p{N}]{3,}/gu) ?? []).join(' '), 'OR');
      if (!query) return [];
      return search(teamId, query, limit, projectId, true);
    },
    assignedTo: (teamId, userId) =>
      tasks(
        `SELECT ${T_ROW} FROM task_index_assignees a
           JOIN task_index t ON t.team_id = a.team_id AND t.task_id = a.task_id
          WHERE a.team_id = $1 AND a.user_id = $2 AND NOT t.done AND NOT t.gone`,
        [teamId, userId],
      ),
    stalest: (teamId, limit) =>
      tasks(
        `SELECT ${ROW} FROM task_index WHERE team_id = $1 AND NOT done AND NOT gone
          ORDER BY read_at NULLS FIRST, seen_at LIMIT $2`,
        [teamId, limit],
      ),
    assigneesWithOpenTasks: async (teamId) =>
      (
        await sql.rows<{ user_id: string }>(
          `SELECT DISTINCT a.user_id FROM task_index_assignees a
             JOIN task_index t ON t.team_id = a.team_id AND t.task_id = a.task_id
            WHERE a.team_id = $1 AND NOT t.done AND NOT t.gone`,
          [teamId],
        )
      ).map((r) => r.user_id),
    count: async (teamId) =>
      (await sql.row<{ open: number; done: number; gone: number }>(
        `SELECT count(*) FILTER (WHERE NOT done AND NOT gone) AS open,
                count(*) FILTER (WHERE done AND NOT gone) AS done,
                count(*) FILTER (WHERE gone) AS gone
           FROM task_index WHERE team_id = $1`,
        [teamId],
      ))!,
    deleteTeam: (teamId) =>
      sql.tx(async (tx) => {
        await tx.run('DELETE FROM task_index_assignees WHERE team_id = $1', [teamId]);
        return tx.run('DELETE FROM task_index WHERE team_id = $1', [teamId]);
      }),
  };
}

/**
 * Rows indexed before the words were made in JavaScript (schema change 2026-11-24-task-words
 * emptied them) get them now, in batches; instances opening together each fill their share.
 */
export async function fillWords(sql: Sql): Promise<void> {
  for (;;) {
    const rows = await sql.rows<{ team_id: string; task_id: string; name: string }>(
      `SELECT team_id, task_id, name FROM task_index
        WHERE words = ''::tsvector AND name <> '' LIMIT 1000`,
    );
    if (rows.length === 0) return;
    const words = rows.map((r) => nameWords(r.name) || '·');
    await sql.run(
      `UPDATE task_index t SET words = ${wordsVector('v.words')}
         FROM unnest($1::text[], $2::text[], $3::text[]) AS v(team_id, task_id, words)
        WHERE t.team_id = v.team_id AND t.task_id = v.task_id`,
      [rows.map((r) => r.team_id), rows.map((r) => r.task_id), words],
    );
  }
}
