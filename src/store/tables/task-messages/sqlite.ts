/** task-messages on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { TaskMessagesStore } from './contract.js';
import { fromRow, type Row } from './rows.js';

export function taskMessagesStore(db: Database.Database): Sync<TaskMessagesStore> {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO task_messages
       (team_id, task_id, channel_id, ts, kind, actor, task_number, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const select = db.prepare<[string, string], Row>(
    'SELECT * FROM task_messages WHERE team_id = ? AND task_id = ? ORDER BY created_at, ts',
  );
  const number = db.prepare(
    'UPDATE task_messages SET task_number = ? WHERE team_id = ? AND task_id = ?',
  );
  const remove = db.prepare(
    'DELETE FROM task_messages WHERE team_id = ? AND channel_id = ? AND ts = ?',
  );
  const removeTeam = db.prepare('DELETE FROM task_messages WHERE team_id = ?');
  return {
    remember(m, now = Date.now()) {
      insert.run(
        m.teamId,
        m.taskId,
        m.channelId,
        m.ts,
        m.kind,
        m.actor ?? null,
        m.number ?? null,
        now,
      );
    },
    forTask: (teamId, taskId) => select.all(teamId, taskId).map(fromRow),
    setNumber: (teamId, taskId, n) => void number.run(n, teamId, taskId),
    forget: (teamId, channelId, ts) => remove.run(teamId, channelId, ts).changes > 0,
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
