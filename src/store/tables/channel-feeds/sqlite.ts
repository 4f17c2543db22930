/** channel-feeds on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { BurstRule, ChannelFeedsStore, FeedClaim } from './contract.js';
import { choiceColumns, type FeedRow, fromRow } from './rows.js';

export function channelFeedsStore(db: Database.Database): Sync<ChannelFeedsStore> {
  const select = db.prepare<[string, string], FeedRow>(
    'SELECT * FROM channel_feeds WHERE team_id = ? AND channel_id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO channel_feeds (team_id, channel_id, sync, enabled_by, enabled_at, events, filters)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (team_id, channel_id) DO UPDATE SET sync = excluded.sync,
       enabled_by = excluded.enabled_by, enabled_at = excluded.enabled_at`,
  );
  const upsertChoice = db.prepare(
    `INSERT INTO channel_feeds (team_id, channel_id, sync, enabled_by, enabled_at, events, filters)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (team_id, channel_id) DO UPDATE SET sync = excluded.sync,
       enabled_by = excluded.enabled_by, enabled_at = excluded.enabled_at,
       events = excluded.events, filters = excluded.filters`,
  );
  const remove = db.prepare('DELETE FROM channel_feeds WHERE team_id = ? AND channel_id = ?');
  const byProject = db.prepare<[string, string], FeedRow>(
    `SELECT f.* FROM channel_feeds f
       JOIN channel_projects p ON p.team_id = f.team_id AND p.channel_id = f.channel_id
      WHERE f.team_id = ? AND p.project_id = ? ORDER BY f.enabled_at, f.channel_id`,
  );
  const exists = db.prepare<[string, string, string], { one: number }>(
    'SELECT 1 AS one FROM feed_posts WHERE team_id = ? AND channel_id = ? AND task_id = ?',
  );
  const recent = db.prepare<[string, string, number], { n: number }>(
    'SELECT COUNT(*) AS n FROM feed_posts WHERE team_id = ? AND channel_id = ? AND posted_at > ?',
  );
  // The newest posted summary and when its first task came (a summary gathers one window).
  const lastSummary = db.prepare<[string, string], { ts: string; started: number }>(
    `SELECT ts, MIN(posted_at) AS started FROM feed_posts
      WHERE team_id = ? AND channel_id = ? AND kind = 'summary' AND ts IS NOT NULL
      GROUP BY ts ORDER BY started DESC LIMIT 1`,
  );
  // A summary's tasks: those with its ts, and any whose summary could not be posted yet.
  const summaryTasks = db.prepare<[string, string, string | null, number], { task_id: string }>(
    `SELECT task_id FROM feed_posts
      WHERE team_id = ? AND channel_id = ? AND kind = 'summary'
        AND (ts = ? OR (ts IS NULL AND posted_at > ?))
      ORDER BY posted_at, rowid`,
  );
  const insert = db.prepare(
    `INSERT INTO feed_posts (team_id, channel_id, task_id, kind, posted_at, ts)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const setTs = db.prepare(
    'UPDATE feed_posts SET ts = ? WHERE team_id = ? AND channel_id = ? AND task_id = ?',
  );
  const removePost = db.prepare(
    'DELETE FROM feed_posts WHERE team_id = ? AND channel_id = ? AND task_id = ?',
  );
  const cards = db.prepare<[string, string], { channel_id: string; ts: string; sync: number }>(
    `SELECT p.channel_id, p.ts, f.sync FROM feed_posts p
       JOIN channel_feeds f ON f.team_id = p.team_id AND f.channel_id = p.channel_id
      WHERE p.team_id = ? AND p.task_id = ? AND p.kind = 'card' AND p.ts IS NOT NULL`,
  );
  const ofCard = db.prepare<[string, string, string], { task_id: string; sync: number }>(
    `SELECT p.task_id, f.sync FROM feed_posts p
       JOIN channel_feeds f ON f.team_id = p.team_id AND f.channel_id = p.channel_id
      WHERE p.team_id = ? AND p.channel_id = ? AND p.ts = ? AND p.kind = 'card'`,
  );

  const claim = db.transaction(
    (
      teamId: string,
      channelId: string,
      taskId: string,
      now: number,
      rule: BurstRule,
    ): FeedClaim => {
      if (exists.get(teamId, channelId, taskId)) return { kind: 'taken' };
      const since = now - rule.windowMs;
      if ((recent.get(teamId, channelId, since)?.n ?? 0) < rule.cards) {
        insert.run(teamId, channelId, taskId, 'card', now, null);
        return { kind: 'card' };
      }
      const last = lastSummary.get(teamId, channelId);
      const open = last && last.started > since ? last.ts : undefined;
      insert.run(teamId, channelId, taskId, 'summary', now, open ?? null);
      const taskIds = summaryTasks
        .all(teamId, channelId, open ?? null, since)
        .map((r) => r.task_id);
      return { kind: 'summary', summaryTs: open, taskIds };
    },
  );
  const summaryPosted = db.transaction(
    (teamId: string, channelId: string, ts: string, taskIds: string[]) => {
      for (const taskId of taskIds) setTs.run(ts, teamId, channelId, taskId);
    },
  );
  const removePosts = db.prepare('DELETE FROM feed_posts WHERE team_id = ?');
  const removeFeeds = db.prepare('DELETE FROM channel_feeds WHERE team_id = ?');
  const deleteTeam = db.transaction(
    (teamId: string) => removePosts.run(teamId).changes + removeFeeds.run(teamId).changes,
  );

  return {
    get(teamId, channelId) {
      const row = select.get(teamId, channelId);
      return row ? fromRow(row) : undefined;
    },
    enable(teamId, channelId, sync, by, now = Date.now(), choice) {
      const { events, filters } = choiceColumns(choice);
      (choice ? upsertChoice : upsert).run(
        teamId,
        channelId,
        sync ? 1 : 0,
        by,
        now,
        events,
        filters,
      );
    },
    disable: (teamId, channelId) => remove.run(teamId, channelId).changes > 0,
    forProject: (teamId, projectId) => byProject.all(teamId, projectId).map(fromRow),
    claim: (teamId, channelId, taskId, now, rule) => claim(teamId, channelId, taskId, now, rule),
    cardPosted(teamId, channelId, taskId, ts) {
      setTs.run(ts, teamId, channelId, taskId);
    },
    summaryPosted(teamId, channelId, ts, taskIds) {
      summaryPosted(teamId, channelId, ts, taskIds);
    },
    release(teamId, channelId, taskId) {
      removePost.run(teamId, channelId, taskId);
    },
    cardsOf: (teamId, taskId) =>
      cards
        .all(teamId, taskId)
        .map((r) => ({ channelId: r.channel_id, ts: r.ts, sync: r.sync === 1 })),
    taskOfCard(teamId, channelId, ts) {
      const row = ofCard.get(teamId, channelId, ts);
      return row ? { taskId: row.task_id, sync: row.sync === 1 } : undefined;
    },
    deleteTeam: (teamId) => deleteTeam(teamId),
  };
}
