/**
 * channel_feeds and feed_posts on PostgreSQL (contract.ts). A claim is one
 * transaction that first locks the channel's feed row, so claims for one channel take turns
 * across every instance: the burst rule counts what the channel already got, and a task is
 * posted to a channel once.
 */

import type { Sql } from '../../pg/db.js';
import type { ChannelFeedsStore, FeedClaim } from './contract.js';
import { choiceColumns, type FeedRow, fromRow } from './rows.js';

export function pgChannelFeedsStore(sql: Sql): ChannelFeedsStore {
  return {
    async get(teamId, channelId) {
      const row = await sql.row<FeedRow>(
        'SELECT * FROM channel_feeds WHERE team_id = $1 AND channel_id = $2',
        [teamId, channelId],
      );
      return row ? fromRow(row) : undefined;
    },
    async enable(teamId, channelId, sync, by, now = Date.now(), choice) {
      const { events, filters } = choiceColumns(choice);
      await sql.run(
        `INSERT INTO channel_feeds (team_id, channel_id, sync, enabled_by, enabled_at, events,
           filters)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (team_id, channel_id) DO UPDATE SET sync = excluded.sync,
           enabled_by = excluded.enabled_by, enabled_at = excluded.enabled_at
           ${choice ? ', events = excluded.events, filters = excluded.filters' : ''}`,
        [teamId, channelId, sync, by, now, events, filters],
      );
    },
    disable: async (teamId, channelId) =>
      (await sql.run('DELETE FROM channel_feeds WHERE team_id = $1 AND channel_id = $2', [
        teamId,
        channelId,
      ])) > 0,
    forProject: async (teamId, projectId) =>
      (
        await sql.rows<FeedRow>(
          `SELECT f.* FROM channel_feeds f
             JOIN channel_projects p ON p.team_id = f.team_id AND p.channel_id = f.channel_id
            WHERE f.team_id = $1 AND p.project_id = $2
            ORDER BY f.enabled_at, f.channel_id COLLATE "C"`,
          [teamId, projectId],
        )
      ).map(fromRow),
    claim: (teamId, channelId, taskId, now, rule) =>
      sql.tx(async (tx): Promise<FeedClaim> => {
        await tx.run(
          'SELECT 1 FROM channel_feeds WHERE team_id = $1 AND channel_id = $2 FOR UPDATE',
          [teamId, channelId],
        );
        const there = await tx.row(
          'SELECT 1 FROM feed_posts WHERE team_id = $1 AND channel_id = $2 AND task_id = $3',
          [teamId, channelId, taskId],
        );
        if (there) return { kind: 'taken' };
        const since = now - rule.windowMs;
        const recent = await tx.row<{ n: number }>(
          `SELECT COUNT(*)::int AS n FROM feed_posts
            WHERE team_id = $1 AND channel_id = $2 AND posted_at > $3`,
          [teamId, channelId, since],
        );
        const insert = (kind: 'card' | 'summary', ts: string | null) =>
          tx.run(
            `INSERT INTO feed_posts (team_id, channel_id, task_id, kind, posted_at, ts)
             VALUES ($1, $2, $3, $4, $5, $6)`,
            [teamId, channelId, taskId, kind, now, ts],
          );
        if ((recent?.n ?? 0) < rule.cards) {
          await insert('card', null);
          return { kind: 'card' };
        }
        const last = await tx.row<{ ts: string; started: number }>(
          `SELECT ts, MIN(posted_at) AS started FROM feed_posts
            WHERE team_id = $1 AND channel_id = $2 AND kind = 'summary' AND ts IS NOT NULL
            GROUP BY ts ORDER BY started DESC LIMIT 1`,
          [teamId, channelId],
        );
        const open = last && last.started > since ? last.ts : undefined;
        await insert('summary', open ?? null);
        const rows = await tx.rows<{ task_id: string }>(
          `SELECT task_id FROM feed_posts
            WHERE team_id = $1 AND channel_id = $2 AND kind = 'summary'
              AND (ts = $3 OR (ts IS NULL AND posted_at > $4))
            ORDER BY posted_at, seq`,
          [teamId, channelId, open ?? null, since],
        );
        return { kind: 'summary', summaryTs: open, taskIds: rows.map((r) => r.task_id) };
      }),
    async cardPosted(teamId, channelId, taskId, ts) {
      await sql.run(
        'UPDATE feed_posts SET ts = $1 WHERE team_id = $2 AND channel_id = $3 AND task_id = $4',
        [ts, teamId, channelId, taskId],
      );
    },
    async summaryPosted(teamId, channelId, ts, taskIds) {
      await sql.run(
        `UPDATE feed_posts SET ts = $1
          WHERE team_id = $2 AND channel_id = $3 AND task_id = ANY($4::text[])`,
        [ts, teamId, channelId, taskIds],
      );
    },
    async release(teamId, channelId, taskId) {
      await sql.run(
        'DELETE FROM feed_posts WHERE team_id = $1 AND channel_id = $2 AND task_id = $3',
        [teamId, channelId, taskId],
      );
    },
    cardsOf: async (teamId, taskId) =>
      (
        await sql.rows<{ channel_id: string; ts: string; sync: boolean }>(
          `SELECT p.channel_id, p.ts, f.sync FROM feed_posts p
             JOIN channel_feeds f ON f.team_id = p.team_id AND f.channel_id = p.channel_id
            WHERE p.team_id = $1 AND p.task_id = $2 AND p.kind = 'card' AND p.ts IS NOT NULL
            ORDER BY p.seq`,
          [teamId, taskId],
        )
      ).map((r) => ({ channelId: r.channel_id, ts: r.ts, sync: r.sync })),
    async taskOfCard(teamId, channelId, ts) {
      const row = await sql.row<{ task_id: string; sync: boolean }>(
        `SELECT p.task_id, f.sync FROM feed_posts p
           JOIN channel_feeds f ON f.team_id = p.team_id AND f.channel_id = p.channel_id
          WHERE p.team_id = $1 AND p.channel_id = $2 AND p.ts = $3 AND p.kind = 'card'`,
        [teamId, channelId, ts],
      );
      return row ? { taskId: row.task_id, sync: row.sync } : undefined;
    },
    deleteTeam: (teamId) =>
      sql.tx(
        async (tx) =>
          (await tx.run('DELETE FROM feed_posts WHERE team_id = $1', [teamId])) +
          (await tx.run('DELETE FROM channel_feeds WHERE team_id = $1', [teamId])),
      ),
  };
}
