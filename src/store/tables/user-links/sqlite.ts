/** user-links on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { UserLink, UserLinksStore } from './contract.js';
import { fromRow, type Row } from './rows.js';

export function userLinksStore(db: Database.Database): Sync<UserLinksStore> {
  const upsert = db.prepare(
    `INSERT INTO notify_user_links (team_id, service_email, slack_user_id, linked_by, linked_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (team_id, service_email) DO UPDATE SET slack_user_id = excluded.slack_user_id,
       linked_by = excluded.linked_by, linked_at = excluded.linked_at`,
  );
  const byEmail = db.prepare<[string, string], Row>(
    'SELECT * FROM notify_user_links WHERE team_id = ? AND service_email = ?',
  );
  const bySlack = db.prepare<[string, string], Row>(
    'SELECT * FROM notify_user_links WHERE team_id = ? AND slack_user_id = ? ORDER BY linked_at',
  );
  const removeSlack = db.prepare(
    'DELETE FROM notify_user_links WHERE team_id = ? AND slack_user_id = ?',
  );
  const removeTeam = db.prepare('DELETE FROM notify_user_links WHERE team_id = ?');
  const link = db.transaction((l: Omit<UserLink, 'linkedAt'> & { linkedAt?: string }) => {
    const email = l.serviceEmail.trim().toLowerCase();
    const previous = byEmail.get(l.teamId, email)?.slack_user_id;
    upsert.run(l.teamId, email, l.slackUserId, l.linkedBy, l.linkedAt ?? new Date().toISOString());
    return previous;
  });
  const unlink = db.transaction((teamId: string, slackUserId: string) => {
    const emails = bySlack.all(teamId, slackUserId).map((r) => r.service_email);
    removeSlack.run(teamId, slackUserId);
    return emails;
  });
  return {
    link: (l) => link(l),
    unlinkSlackUser: (teamId, slackUserId) => unlink(teamId, slackUserId),
    byEmail(teamId, email) {
      const r = byEmail.get(teamId, email.trim().toLowerCase());
      return r ? fromRow(r) : undefined;
    },
    bySlackUser: (teamId, slackUserId) => bySlack.all(teamId, slackUserId).map(fromRow),
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
