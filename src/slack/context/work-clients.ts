/** The work-management service's clients: one per team and key. */
import { createHash } from 'node:crypto';
import { BoundedCache } from '../../bounded-cache.js';
import type { Connection } from '../../store/index.js';
import { WorkClient, type WorkClientOptions } from '../../workapi/client.js';

export interface WorkUrls {
  baseUrl: string;
  altUrl: string;
}

/** One WorkClient per (team, key): a new key after `/work connect` gets a new client. */
export class WorkClientCache {
  /** A client per team and per person's key: bounded, so people who left do not pile up. */
  private readonly clients = new BoundedCache<string, WorkClient>('work_clients', 20_000);
  /** `observe` sees each team's new client first (the task index wraps its answers). */
  constructor(
    private readonly urls: WorkUrls,
    /** Options every client gets (e.g. maxResponseBytes, where dropped list items are noted). */
    private readonly shared: Pick<
      WorkClientOptions,
      'maxResponseBytes' | 'timeoutMs' | 'log' | 'timeCall'
    > = {},
    private readonly observe?: (client: WorkClient, teamId: string) => WorkClient,
    /** Told each team's connection key (the "Open in …" links of the embedded pages). */
    private readonly onTeamKey?: (teamId: string, apiKey: string) => void,
  ) {}

  for(connection: Pick<Connection, 'teamId' | 'apiKey'>): WorkClient {
    const keyHash = createHash('sha256').update(connection.apiKey).digest('hex').slice(0, 16);
    const id = `${connection.teamId}:${keyHash}`;
    this.onTeamKey?.(connection.teamId, connection.apiKey);
    let client = this.clients.get(id);
    if (!client) {
      // Drop the team's client for an older key.
      for (const k of this.clients.keys()) {
        if (k.startsWith(`${connection.teamId}:`)) this.clients.delete(k);
      }
      client = new WorkClient({ ...this.shared, ...this.urls, apiKey: connection.apiKey });
      if (this.observe) client = this.observe(client, connection.teamId);
      this.clients.set(id, client);
    }
    return client;
  }

  /**
   * One WorkClient per person's own key (`/work connect me`); a new key replaces the
   * person's older client. Their answers feed the task index like the team's.
   */
  forPerson(teamId: string, slackUserId: string, apiKey: string): WorkClient {
    const keyHash = createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
    const owner = `${teamId}/${slackUserId}:`;
    const id = `${owner}${keyHash}`;
    let client = this.clients.get(id);
    if (!client) {
      for (const k of this.clients.keys()) if (k.startsWith(owner)) this.clients.delete(k);
      client = new WorkClient({ ...this.shared, ...this.urls, apiKey });
      if (this.observe) client = this.observe(client, teamId);
      this.clients.set(id, client);
    }
    return client;
  }

  /** A client for a key that is not stored yet (connect), with its own time limit. */
  adHoc(apiKey: string, timeoutMs?: number): WorkClient {
    return new WorkClient({ ...this.shared, ...this.urls, apiKey, timeoutMs });
  }
}
