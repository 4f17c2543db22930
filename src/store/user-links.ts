/**
 * notify_user_links: explicit matches of a service user (by e-mail) to a Slack user, made by
 * an admin with `/work link @slack-user <e-mail>`. They win over matching by e-mail, for
 * people whose Slack and service addresses differ. E-mails are kept lower-case.
 */
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

export interface UserLink {
  teamId: string;
  serviceEmail: string;
  slackUserId: string;
  linkedBy: string;
  linkedAt: string;
}

export interface UserLinksStore {
  /** Links (or re-links) an e-mail to a Slack user; returns the previous Slack user, if any. */
  link(link: Omit<UserLink, 'linkedAt'> & { linkedAt?: string }): Promise<string | undefined>;
  /** Removes every link to this Slack user; returns the e-mails that were linked. */
  unlinkSlackUser(teamId: string, slackUserId: string): Promise<string[]>;
  byEmail(teamId: string, email: string): Promise<UserLink | undefined>;
  bySlackUser(teamId: string, slackUserId: string): Promise<UserLink[]>;
  /** Removes all of a team's links (it uninstalled Worklink); returns how many. */
  deleteTeam(teamId: string): Promise<number>;
}

/** A row as stored (both engines read it the same way). */
export interface Row {
  team_id: string;
  service_email: string;
  slack_user_id: string;
  linked_by: string;
  linked_at: string;
}

export const fromRow = (r: Row): UserLink => ({
  teamId: r.team_id,
  serviceEmail: r.service_email,
  slackUserId: r.slack_user_id,
  linkedBy: r.linked_by,
  linkedAt: r.linked_at,
});

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
