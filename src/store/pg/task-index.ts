/**
 * task_index on PostgreSQL (see ../task-index.ts for what it holds and why). Words are
 * searched with PostgreSQL's full-text search: `words` (a tsvector of the name's normalised
 * words, task-words.ts) under a GIN index, queried with prefixes (`word:*`) in any order.
 * A sighting merges into the stored row under a row lock, so two instances recording the
 * same task do not lose each other's fields.
 */
import type { IndexedTask, TaskIndexStore, TaskSighting } from '../task-index.js';
import { indexDate } from '../task-index.js';
import type { Sql } from './db.js';
import { nameWords, tsQuery } from './task-words.js';

interface Row {
  team_id: string;
  task_id: string;
  project_id: string;
  number: number | null;
  name: string;
  done: boolean;
  gone: boolean;
  status_name: string | null;
  due_date: string | null;
  priority: number | null;
  assignees: string[];
  creator_id: string | null;
  read_at: number | null;
  seen_at: number;
}

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

// Every column but `words` (only searched, never read back), bare and for alias t.
const COLUMNS = [
  'team_id',
  'task_id',
  'project_id',
  'number',
  'name',
  'done',
  'gone',
  'status_name',
  'due_date',
  'priority',
  'assignees',
  'creator_id',
  'read_at',
  'seen_at',
];
const ROW = COLUMNS.join(', ');
const T_ROW = COLUMNS.map((c) => `t.${c}`).join(', ');

async function record(tx: Sql, teamId: string, s: TaskSighting, now: number): Promise<void> {
  const old = await tx.row<Row>(
    `SELECT ${ROW} FROM task_index WHERE team_id = $1 AND task_id = $2 FOR UPDATE`,
    [teamId, s.taskId],
  );
  const projectId = s.projectId || old?.project_id;
  if (!projectId) return;
  const pick = <T>(given: T | null | undefined, kept: T | null | undefined): T | null =>
    given === undefined ? (kept ?? null) : given;
  const assigneeIds = s.assigneeIds ?? old?.assignees ?? [];
  const name = s.name ?? old?.name ?? '';
  await tx.run(
    `INSERT INTO task_index (team_id, task_id, project_id, number, name, words, done, gone,
       status_name, due_date, priority, assignees, creator_id, read_at, seen_at)
     VALUES ($1, $2, $3, $4, $5, to_tsvector('simple', $6), $7, false, $8, $9, $10, $11, $12,
       $13, $14)
     ON CONFLICT (team_id, task_id) DO UPDATE SET project_id = excluded.project_id,
       number = excluded.number, name = excluded.name, words = excluded.words,
       done = excluded.done, gone = false, status_name = excluded.status_name,
       due_date = excluded.due_date, priority = excluded.priority,
       assignees = excluded.assignees, creator_id = excluded.creator_id,
       read_at = excluded.read_at, seen_at = excluded.seen_at`,
    [
      teamId,
      s.taskId,
      projectId,
      pick(s.number, old?.number),
      name,
      nameWords(name),
      s.done ?? old?.done ?? false,
      // A new done flag without a status name makes the old name stale.
      s.statusName !== undefined
        ? s.statusName
        : s.done !== undefined && old && s.done !== old.done
          ? null
          : (old?.status_name ?? null),
      s.dueDate === undefined ? (old?.due_date ?? null) : (indexDate(s.dueDate) ?? null),
      pick(s.priority, old?.priority),
      assigneeIds,
      pick(s.creatorId, old?.creator_id),
      s.read ? now : (old?.read_at ?? null),
      now,
    ],
  );
  if (s.assigneeIds || !old) {
    await tx.run('DELETE FROM task_index_assignees WHERE team_id = $1 AND task_id = $2', [
      teamId,
      s.taskId,
    ]);
    if (assigneeIds.length) {
      await tx.run(
        `INSERT INTO task_index_assignees (team_id, user_id, task_id)
         SELECT $1, unnest($2::text[]), $3 ON CONFLICT DO NOTHING`,
        [teamId, assigneeIds, s.taskId],
      );
    }
  }
}

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
      `SELECT ${T_ROW} FROM task_index t, to_tsquery('simple', $1) q
        WHERE t.team_id = $2 AND t.words @@ q AND NOT t.gone
          ${openOnly ? 'AND NOT t.done' : ''} ${projectId ? 'AND t.project_id = $4' : ''}
        ORDER BY t.done, ts_rank(t.words, q, 1) DESC, t.number NULLS FIRST LIMIT $3`,
      projectId ? [query, teamId, limit, projectId] : [query, teamId, limit],
    );

  return {
    record: (teamId, s, now = Date.now()) => sql.tx((tx) => record(tx, teamId, s, now)),
    recordMany: (teamId, list, now = Date.now()) =>
      sql.tx(async (tx) => {
        for (const s of list) await record(tx, teamId, s, now);
      }),
    sawOpenList: (teamId, projectId, items, now = Date.now()) =>
      sql.tx(async (tx) => {
        // What record() does for each listed task (open, in this project, named and numbered
        // when the list says), as two statements for the whole list.
        const ids = items.map((i) => i.taskId);
        const names = items.map((i) => i.taskName ?? null);
        const words = items.map((i) => nameWords(i.taskName ?? ''));
        const numbers = items.map((i) => i.number ?? null);
        await tx.run(
          `INSERT INTO task_index (team_id, task_id, project_id, number, name, words, seen_at)
           SELECT $1, v.id, $2, v.number, coalesce(v.name, ''), to_tsvector('simple', v.words), $3
             FROM unnest($4::text[], $5::text[], $6::text[], $7::int[]) AS v(id, name, words, number)
           ON CONFLICT DO NOTHING`,
          [teamId, projectId, now, ids, names, words, numbers],
        );
        await tx.run(
          `UPDATE task_index t SET project_id = $2, number = coalesce(v.number, t.number),
             name = coalesce(v.name, t.name),
             words = CASE WHEN v.name IS NULL THEN t.words ELSE to_tsvector('simple', v.words) END,
             status_name = CASE WHEN t.done THEN NULL ELSE t.status_name END,
             done = false, gone = false, seen_at = $3
             FROM unnest($4::text[], $5::text[], $6::text[], $7::int[]) AS v(id, name, words, number)
            WHERE t.team_id = $1 AND t.task_id = v.id`,
          [teamId, projectId, now, ids, names, words, numbers],
        );
        return tx.run(
          `UPDATE task_index SET done = true, status_name = NULL, seen_at = $3
            WHERE team_id = $1 AND project_id = $2 AND NOT done AND NOT gone
              AND task_id <> ALL($4::text[])`,
          [teamId, projectId, now, ids],
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
