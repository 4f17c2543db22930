/** task-index on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import {
  type IndexedTask,
  indexDate,
  listedSighting,
  type OpenListSeen,
  type SeenChange,
  seenDiffers,
  type TaskIndexStore,
  type TaskSighting,
} from './contract.js';
import { fillWords } from './sqlite-fill-words.js';
import { queryWords, wordsText } from './words.js';

interface Row {
  team_id: string;
  task_id: string;
  project_id: string;
  number: number | null;
  name: string;
  done: number;
  gone: number;
  status_name: string | null;
  due_date: string | null;
  priority: number | null;
  assignees: string;
  creator_id: string | null;
  read_at: number | null;
  seen_at: number;
}

function fromRow(r: Row): IndexedTask {
  return {
    teamId: r.team_id,
    taskId: r.task_id,
    projectId: r.project_id,
    number: r.number ?? undefined,
    name: r.name,
    done: r.done === 1,
    gone: r.gone === 1,
    statusName: r.status_name ?? undefined,
    dueDate: r.due_date ?? undefined,
    priority: r.priority ?? undefined,
    assigneeIds: parseIds(r.assignees),
    creatorId: r.creator_id ?? undefined,
    readAt: r.read_at ?? undefined,
    seenAt: r.seen_at,
  };
}

function parseIds(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    // Only this file writes the column (JSON.stringify of a string list), so this cannot
    // happen short of a hand-edited database; no assignees is the safe reading of that.
    return [];
  }
}

/**
 * An FTS5 query from what a person typed: each word (letters and digits) as a quoted prefix,
 * so punctuation and FTS5 syntax in the input mean nothing. Undefined when there is no word.
 */
export function ftsQuery(text: string, join: 'AND' | 'OR' = 'AND'): string | undefined {
  // Folded as names are (words.ts): letters, digits and dotted numbers only, never a quote.
  const words = queryWords(text);
  if (words.length === 0) return undefined;
  return words.map((w) => `"${w}"*`).join(` ${join} `);
}

export function taskIndexStore(db: Database.Database): Sync<TaskIndexStore> {
  const select = db.prepare<[string, string], Row>(
    'SELECT * FROM task_index WHERE team_id = ? AND task_id = ?',
  );
  const selectMany = db.prepare<[string, string], Row>(
    'SELECT * FROM task_index WHERE team_id = ? AND task_id IN (SELECT value FROM json_each(?))',
  );
  const upsert = db.prepare(
    `INSERT INTO task_index (team_id, task_id, project_id, number, name, words, done, gone,
       status_name, due_date, priority, assignees, creator_id, read_at, seen_at)
     VALUES (@team_id, @task_id, @project_id, @number, @name, @words, @done, @gone, @status_name,
       @due_date, @priority, @assignees, @creator_id, @read_at, @seen_at)
     ON CONFLICT (team_id, task_id) DO UPDATE SET project_id = excluded.project_id,
       number = excluded.number, name = excluded.name, words = excluded.words,
       done = excluded.done,
       gone = excluded.gone, status_name = excluded.status_name,
       due_date = excluded.due_date, priority = excluded.priority,
       assignees = excluded.assignees, creator_id = excluded.creator_id,
       read_at = excluded.read_at, seen_at = excluded.seen_at`,
  );
  const clearAssignees = db.prepare(
    'DELETE FROM task_index_assignees WHERE team_id = ? AND task_id = ?',
  );
  const addAssignee = db.prepare(
    'INSERT OR IGNORE INTO task_index_assignees (team_id, user_id, task_id) VALUES (?, ?, ?)',
  );
  const openOfProject = db.prepare<[string, string], { task_id: string }>(
    'SELECT task_id FROM task_index WHERE team_id = ? AND project_id = ? AND done = 0 AND gone = 0',
  );
  const closeMissing = db.prepare(
    `UPDATE task_index SET done = 1, status_name = NULL, seen_at = ?
     WHERE team_id = ? AND task_id = ?`,
  );
  const gone = db.prepare(
    'UPDATE task_index SET gone = 1, seen_at = ? WHERE team_id = ? AND task_id = ?',
  );
  const byNumber = db.prepare<[string, string, number], Row>(
    `SELECT * FROM task_index WHERE team_id = ? AND project_id = ? AND number = ? AND gone = 0
     ORDER BY seen_at DESC LIMIT 1`,
  );
  const searchSql = (extra: string) =>
    db.prepare<unknown[], Row>(
      // CROSS JOIN keeps FTS5 as the outer loop: one MATCH, then a rowid probe per hit
      // (a plain JOIN may scan the team's tasks and run the MATCH once per task).
      `SELECT t.* FROM task_index_fts CROSS JOIN task_index t ON t.rowid = task_index_fts.rowid
       WHERE task_index_fts MATCH ? AND t.team_id = ? AND t.gone = 0 ${extra}
       ORDER BY t.done, bm25(task_index_fts), t.number LIMIT ?`,
    );
  const searchAll = searchSql('');
  const searchOpen = searchSql('AND t.done = 0');
  const searchProject = searchSql('AND t.project_id = ?');
  const searchProjectOpen = searchSql('AND t.done = 0 AND t.project_id = ?');
  const assigned = db.prepare<[string, string], Row>(
    // The person's rows first (CROSS JOIN fixes the order), then each task by its key.
    `SELECT t.* FROM task_index_assignees a
     CROSS JOIN task_index t ON t.team_id = a.team_id AND t.task_id = a.task_id
     WHERE a.team_id = ? AND a.user_id = ? AND t.done = 0 AND t.gone = 0`,
  );
  const stalest = db.prepare<[string, number], Row>(
    `SELECT * FROM task_index WHERE team_id = ? AND done = 0 AND gone = 0
     ORDER BY read_at IS NOT NULL, read_at, seen_at LIMIT ?`,
  );
  const assignees = db.prepare<[string], { user_id: string }>(
    `SELECT DISTINCT a.user_id FROM task_index_assignees a
     JOIN task_index t ON t.team_id = a.team_id AND t.task_id = a.task_id
     WHERE a.team_id = ? AND t.done = 0 AND t.gone = 0`,
  );
  const counts = db.prepare<[string], { open: number; done: number; gone: number }>(
    `SELECT coalesce(sum(done = 0 AND gone = 0), 0) AS open,
       coalesce(sum(done = 1 AND gone = 0), 0) AS done, coalesce(sum(gone), 0) AS gone
     FROM task_index WHERE team_id = ?`,
  );
  const removeTeam = db.prepare('DELETE FROM task_index WHERE team_id = ?');
  fillWords(db);
  const removeTeamAssignees = db.prepare('DELETE FROM task_index_assignees WHERE team_id = ?');

  const record = (teamId: string, s: TaskSighting, now: number) => {
    const old = select.get(teamId, s.taskId);
    const projectId = s.projectId || old?.project_id;
    if (!projectId) return;
    const pick = <T>(given: T | null | undefined, kept: T | null | undefined): T | null =>
      given === undefined ? (kept ?? null) : given;
    const assigneeIds = s.assigneeIds ?? (old ? parseIds(old.assignees) : []);
    const name = s.name ?? old?.name ?? '';
    const assignees = JSON.stringify(assigneeIds);
    upsert.run({
      team_id: teamId,
      task_id: s.taskId,
      project_id: projectId,
      number: pick(s.number, old?.number),
      name,
      words: wordsText(name),
      done: s.done === undefined ? (old?.done ?? 0) : s.done ? 1 : 0,
      gone: 0,
      // A new done flag without a status name makes the old name stale.
      status_name:
        s.statusName !== undefined
          ? s.statusName
          : s.done !== undefined && old && s.done !== (old.done === 1)
            ? null
            : (old?.status_name ?? null),
      due_date: s.dueDate === undefined ? (old?.due_date ?? null) : (indexDate(s.dueDate) ?? null),
      priority: pick(s.priority, old?.priority),
      assignees,
      creator_id: pick(s.creatorId, old?.creator_id),
      read_at: s.read ? now : (old?.read_at ?? null),
      seen_at: now,
    });
    // A read repeats the assignees it found last time: their rows stay as they are.
    if (!old || (s.assigneeIds && assignees !== old.assignees)) {
      clearAssignees.run(teamId, s.taskId);
      for (const id of assigneeIds) addAssignee.run(teamId, id, s.taskId);
    }
  };
  const recordMany = db.transaction(
    (teamId: string, list: readonly TaskSighting[], now: number) => {
      for (const s of list) record(teamId, s, now);
    },
  );
  /** record, with the rows before and after when its told fields changed. */
  const seeOne = (teamId: string, s: TaskSighting, now: number): SeenChange | undefined => {
    const old = select.get(teamId, s.taskId);
    record(teamId, s, now);
    const row = old && select.get(teamId, s.taskId);
    if (!old || !row) return undefined;
    const change = { before: fromRow(old), after: fromRow(row) };
    return seenDiffers(change.before, change.after) ? change : undefined;
  };
  const see = db.transaction(seeOne);
  const seeMany = db.transaction((teamId: string, list: readonly TaskSighting[], now: number) =>
    list.flatMap((s) => seeOne(teamId, s, now) ?? []),
  );
  const seeOpenList = db.transaction(
    (
      teamId: string,
      projectId: string,
      items: readonly { taskId: string; taskName?: string; number?: number }[],
      now: number,
    ): OpenListSeen => {
      const listed = new Set<string>();
      const changed: SeenChange[] = [];
      for (const item of items) {
        listed.add(item.taskId);
        const change = seeOne(teamId, listedSighting(projectId, item), now);
        if (change) changed.push(change);
      }
      const closed: IndexedTask[] = [];
      for (const { task_id } of openOfProject.all(teamId, projectId)) {
        if (listed.has(task_id)) continue;
        const open = select.get(teamId, task_id);
        if (open && closeMissing.run(now, teamId, task_id).changes) closed.push(fromRow(open));
      }
      return { closed, changed };
    },
  );
  const deleteTeam = db.transaction((teamId: string) => {
    removeTeamAssignees.run(teamId);
    return removeTeam.run(teamId).changes;
  });

  return {
    record: (teamId, s, now = Date.now()) => record(teamId, s, now),
    recordMany: (teamId, list, now = Date.now()) => recordMany(teamId, list, now),
    sawOpenList: (teamId, projectId, items, now = Date.now()) =>
      seeOpenList(teamId, projectId, items, now).closed.length,
    see: (teamId, s, now = Date.now()) => see(teamId, s, now),
    seeMany: (teamId, list, now = Date.now()) => seeMany(teamId, list, now),
    seeOpenList: (teamId, projectId, items, now = Date.now()) =>
      seeOpenList(teamId, projectId, items, now),
    markGone: (teamId, taskId, now = Date.now()) => void gone.run(now, teamId, taskId),
    get: (teamId, taskId) => {
      const r = select.get(teamId, taskId);
      return r ? fromRow(r) : undefined;
    },
    getMany: (teamId, taskIds) => selectMany.all(teamId, JSON.stringify(taskIds)).map(fromRow),
    byNumber: (teamId, projectId, number) => {
      const r = byNumber.get(teamId, projectId, number);
      return r ? fromRow(r) : undefined;
    },
    search(teamId, words, options = {}) {
      const query = ftsQuery(words);
      if (!query) return [];
      const limit = options.limit ?? 20;
      const rows = options.projectId
        ? (options.openOnly ? searchProjectOpen : searchProject).all(
            query,
            teamId,
            options.projectId,
            limit,
          )
        : (options.openOnly ? searchOpen : searchAll).all(query, teamId, limit);
      return rows.map(fromRow);
    },
    similar(teamId, projectId, title, limit = 3) {
      // Short words ("a", "to") would match nearly everything: similar means sharing words.
      const words = (title.match(/[\p{L}\p{N}]{3,}/gu) ?? []).join(' ');
      const query = ftsQuery(words, 'OR');
      if (!query) return [];
      return searchProjectOpen.all(query, teamId, projectId, limit).map(fromRow);
    },
    assignedTo: (teamId, userId) => assigned.all(teamId, userId).map(fromRow),
    stalest: (teamId, limit) => stalest.all(teamId, limit).map(fromRow),
    assigneesWithOpenTasks: (teamId) => assignees.all(teamId).map((r) => r.user_id),
    count: (teamId) => counts.get(teamId) ?? { open: 0, done: 0, gone: 0 },
    deleteTeam: (teamId) => deleteTeam(teamId),
  };
}
