/** users.info, cached: time zones, admin flags and e-mails of the people who act. */
import type { WebClient } from '@slack/web-api';

export interface SlackUser {
  id: string;
  tz?: string;
  isAdmin: boolean;
  isOwner: boolean;
  email?: string;
  name?: string;
}

/** users.info with a short cache; concurrent asks for one user share one call. */
export class SlackUserDirectory {
  private readonly cache = new Map<string, { at: number; user: Promise<SlackUser> }>();
  constructor(private readonly ttlMs = 5 * 60_000) {}

  get(client: WebClient, teamId: string, userId: string): Promise<SlackUser> {
    const key = `${teamId}:${userId}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.user;
    const user = client.users.info({ user: userId }).then((r) => ({
      id: userId,
      tz: r.user?.tz,
      isAdmin: Boolean(r.user?.is_admin),
      isOwner: Boolean(r.user?.is_owner || r.user?.is_primary_owner),
      email: r.user?.profile?.email,
      name: r.user?.real_name || r.user?.name,
    }));
    this.cache.set(key, { at: Date.now(), user });
    // A failed lookup is not remembered: the next ask tries again.
    user.catch(() => this.cache.delete(key));
    return user;
  }

  forget(teamId: string, userId: string): void {
    this.cache.delete(`${teamId}:${userId}`);
  }
}
