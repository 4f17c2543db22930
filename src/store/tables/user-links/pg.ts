/** notify_user_links on PostgreSQL: admins' e-mail → Slack user matches (contract.ts). */

import { named, type Sql } from '../../pg/db.js';
import type { UserLinksStore } from './contract.js';
import { fromRow, type Row } from './rows.js';

export function pgUserLinksStore(sql: Sql): UserLinksStore {
  return {
    link: (l) =>
      sql.tx(async (tx) => {
        const email = l.serviceEmail.trim().toLowerCase();
        // The row is locked until the new link is written: two admins at once see each other.
        const previous = await tx.row<{ slack_user_id: string }>(
          named(
            'user-links.link',
            `SELECT slack_user_id FROM notify_user_links WHERE team_id = $1 AND service_email = $2
            FOR UPDATE`,
          ),
          [l.teamId, email],
        );
        await tx.run(
          named(
            'user-links.link.2',
            `INSERT INTO notify_user_links (team_id, service_email, slack_user_id, linked_by, linked_at)
           VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (team_id, service_email) DO UPDATE SET slack_user_id = excluded.slack_user_id,
             linked_by = excluded.linked_by, linked_at = excluded.linked_at`,
          ),
          [l.teamId, email, l.slackUserId, l.linkedBy, l.linkedAt ?? new Date().toISOString()],
        );
        return previous?.slack_user_id;
      }),
    unlinkSlackUser: async (teamId, slackUserId) =>
      (
        await sql.rows<{ service_email: string }>(
          named(
            'user-links.unlinkSlackUser',
            `WITH gone AS (
             DELETE FROM notify_user_links WHERE team_id = $1 AND slack_user_id = $2
             RETURNING service_email, linked_at)
           SELECT service_email FROM gone ORDER BY linked_at`,
          ),
          [teamId, slackUserId],
        )
      ).map((r) => r.service_email),
    async byEmail(teamId, email) {
      const r = await sql.row<Row>(
        named(
          'user-links.byEmail',
          'SELECT * FROM notify_user_links WHERE team_id = $1 AND service_email = $2',
        ),
        [teamId, email.trim().toLowerCase()],
      );
      return r ? fromRow(r) : undefined;
    },
    bySlackUser: async (teamId, slackUserId) =>
      (
        await sql.rows<Row>(
          named(
            'user-links.bySlackUser',
            `SELECT * FROM notify_user_links WHERE team_id = $1 AND slack_user_id = $2
            ORDER BY linked_at`,
          ),
          [teamId, slackUserId],
        )
      ).map(fromRow),
    deleteTeam: (teamId) =>
      sql.run(named('user-links.deleteTeam', 'DELETE FROM notify_user_links WHERE team_id = $1'), [
        teamId,
      ]),
  };
}
