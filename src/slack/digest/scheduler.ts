/**
 * The daily digest's scheduler, a long-lived part (start/lifecycle.ts). Every minute it
 * looks, per connected workspace, at each person with open tasks in the task index: on a
 * weekday from 09:00 (until noon, so a restart at 09:30 still sends it) in their Slack time
 * zone, their digest is queued in the outbox. The outbox row (team, `digest:<their date>`,
 * person) is unique, so each person gets at most one a day, across restarts and however many
 * instances look; a day with nothing to say stores a 'skipped' row, so nothing is sent later
 * that day either. With several instances on one database, each team's look is claimed
 * first (src/store/tables/leases/, key `digest:<team>`, due again a minute later): one instance
 * makes it per minute. The clock is injectable (tests).
 */
import { TZDate } from '@date-fns/tz';
import type { Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { errMessage } from '../../error-message.js';
import { newInstanceId } from '../../instance-id.js';
import type { LongLivedPart } from '../../long-lived-part.js';
import { Periodic } from '../../periodic.js';
import { DecryptError, runLeased, type Store } from '../../store/index.js';
import type { ServiceDirectory } from '../context/service-directory.js';
import type { SlackMatcher } from '../context/slack-matcher.js';
import type { SlackUserDirectory } from '../context/slack-users.js';
import type { WorkClientCache } from '../context/work-clients.js';
import type { WorkLinks } from '../context/work-links.js';
import { dateIn } from '../tasks/mine/due-groups.js';
import { mineRows } from '../tasks/mine/load.js';
import { digestMessage, digestRows, hasNews } from './message.js';

export const DIGEST_HOUR = 9;
/** Until when a missed 09:00 is still sent (a restart, a late look). */
export const DIGEST_LAST_HOUR = 12;

export interface DigestDeps {
  store: Store;
  logger: Pick<Logger, 'debug' | 'warn'>;
  workClients: WorkClientCache;
  directory: ServiceDirectory;
  matcher: SlackMatcher;
  users: SlackUserDirectory;
  slackFor(teamId: string): Promise<WebClient | undefined>;
  now?: () => number;
  intervalMs?: number;
  /** Who this process is in the looks' leases (default: made up). */
  instanceId?: string;
  /** "Open in …" addresses for the digest's rows. */
  links?: WorkLinks;
}

/** How long a team's look may take before another instance may make it instead. */
const LOOK_LEASE_MS = 5 * 60_000;

/** The outbox key of a person's digest on their date. */
export const digestKey = (day: string) => `digest:${day}`;
export const digestRecipient = (slackUserId: string) => `slack:${slackUserId}`;

export class DigestScheduler implements LongLivedPart {
  readonly name = 'daily digest';
  private readonly rounds: Periodic;
  private readonly instanceId: string;
  private readonly intervalMs: number;

  constructor(private readonly deps: DigestDeps) {
    this.instanceId = deps.instanceId ?? newInstanceId();
    this.intervalMs = deps.intervalMs ?? 60_000;
    this.rounds = new Periodic({
      name: 'Daily digest',
      intervalMs: this.intervalMs,
      round: () => this.runOnce(),
      logger: deps.logger,
    });
  }

  start(): void {
    this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /**
   * One look at every workspace whose look is due (no other instance made it this minute);
   * returns how many digests were queued.
   */
  async runOnce(): Promise<number> {
    const { store } = this.deps;
    const now = this.deps.now?.() ?? Date.now();
    const teams = (await store.connections.list()).map((c) => c.teamId);
    let queued = 0;
    await runLeased(
      store.leases,
      teams.map((t) => `digest:${t}`),
      // Due again a little before the next tick: timers drift, and a look must not be missed.
      { holder: this.instanceId, now, leaseMs: LOOK_LEASE_MS, nextAt: now + 0.9 * this.intervalMs },
      async (key) => {
        queued += await this.runTeam(key.slice('digest:'.length));
      },
      (key, e) =>
        this.deps.logger.warn(`Daily digest for ${key.slice(7)} failed: ${errMessage(e)}`),
    );
    return queued;
  }

  async runTeam(teamId: string): Promise<number> {
    const { store } = this.deps;
    const now = this.deps.now?.() ?? Date.now();
    const slack = await this.deps.slackFor(teamId);
    let connection: Awaited<ReturnType<Store['connections']['get']>>;
    try {
      connection = await store.connections.get(teamId);
    } catch (e) {
      if (e instanceof DecryptError) {
        this.deps.logger.warn(
          `Daily digest: the connection of ${teamId} cannot be decrypted; none sent.`,
        );
        return 0;
      }
      throw e;
    }
    if (!slack || !connection) return 0;
    const work = this.deps.workClients.for(connection);
    const serviceUsers = await this.deps.directory.usersOf(teamId, work);

    // Service users with open tasks → Slack people (one may be several service users).
    const people = new Map<string, string[]>();
    for (const id of await store.taskIndex.assigneesWithOpenTasks(teamId)) {
      const email = serviceUsers.get(id)?.email;
      if (!email) continue;
      const match = await this.deps.matcher
        .match(slack, teamId, email, id, 'bulk')
        .catch((e: unknown) => {
          // Said, not silent: this person's digest waits for a round that can match them.
          this.deps.logger.debug(`Daily digest: matching ${id} to Slack failed: ${errMessage(e)}`);
          return undefined;
        });
      if (match?.kind !== 'matched') continue;
      people.set(match.slackUserId, [...(people.get(match.slackUserId) ?? []), id]);
    }

    let queued = 0;
    for (const [slackUserId, ids] of people) {
      if (!(await store.notifySettings.enabled(teamId, slackUserId, 'digest'))) continue;
      const tz = await this.deps.users
        .get(slack, teamId, slackUserId)
        .then((u) => u.tz || 'UTC')
        .catch((e: unknown) => {
          // Said, not silent: without their time zone 09:00 is unknown; the next round retries.
          this.deps.logger.debug(
            `Daily digest: users.info for ${slackUserId} failed: ${errMessage(e)}`,
          );
          return undefined;
        });
      if (!tz || !digestTime(tz, now)) continue;
      const today = dateIn(tz, now);
      const key = digestKey(today);
      const recipient = digestRecipient(slackUserId);
      if ((await store.outbox.forTask(teamId, key)).some((r) => r.serviceUserId === recipient))
        continue;
      const rows = digestRows(
        await mineRows({ store, teamId }, ids, today, this.deps.links),
        today,
      );
      const [row] = await store.outbox.enqueue(
        [
          {
            teamId,
            taskId: key,
            serviceUserId: recipient,
            source: 'slack',
            taskName: `Daily digest ${today}`,
            slackUserId,
            message: JSON.stringify(digestMessage(rows, today)),
            ...(hasNews(rows) ? {} : { status: 'skipped' as const, lastError: 'nothing due' }),
          },
        ],
        'ignore',
      );
      if (hasNews(rows) && row?.status === 'pending') queued++;
    }
    if (queued) store.outbox.changed();
    return queued;
  }
}

/** A weekday between 09:00 and noon in `timeZone`. */
export function digestTime(timeZone: string, now: number): boolean {
  let local: TZDate;
  try {
    local = new TZDate(now, timeZone);
  } catch {
    local = new TZDate(now, 'UTC');
  }
  const day = local.getDay();
  const hour = local.getHours();
  return day >= 1 && day <= 5 && hour >= DIGEST_HOUR && hour < DIGEST_LAST_HOUR;
}
