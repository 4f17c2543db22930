/**
 * Service-side names for DMs and matching: the workspace's users (id → name, e-mail) and
 * project names, cached briefly per team so a burst of new tasks costs one listUsers call.
 * Failures are not cached.
 */
import { BoundedCache } from '../../bounded-cache.js';
import type { WorkClient } from '../../workapi/client.js';

export interface ServiceUser {
  id: string;
  name?: string;
  email?: string;
}

export class ServiceDirectory {
  private readonly users: BoundedCache<string, Promise<Map<string, ServiceUser>>>;
  private readonly projects: BoundedCache<string, Promise<string | undefined>>;

  constructor(
    usersTtlMs = 60_000,
    projectsTtlMs = 5 * 60_000,
    maxTeams = 1_000,
    /** The user lists held, all teams together: a workspace may have ten people or 50,000. */
    maxUserBytes = 32 * 1024 * 1024,
  ) {
    this.users = new BoundedCache('service_users', maxTeams, usersTtlMs, Date.now, maxUserBytes);
    this.projects = new BoundedCache('project_names', maxTeams * 20, projectsTtlMs);
  }

  /** The team's service users by id. Throws (uncached) when the service cannot answer. */
  usersOf(teamId: string, work: WorkClient): Promise<Map<string, ServiceUser>> {
    return cached(
      this.users,
      teamId,
      async () => {
        const list = await work.listUsers();
        return new Map(list.map((u) => [u.id, { id: u.id, name: u.name, email: u.email }]));
      },
      (users) => {
        let bytes = 0;
        for (const u of users.values()) bytes += userBytes(u);
        return bytes;
      },
    );
  }

  projectName(teamId: string, projectId: string, work: WorkClient): Promise<string | undefined> {
    return cached(this.projects, `${teamId}:${projectId}`, async () => {
      const project = await work.getProject(projectId);
      return project.projectName || undefined;
    });
  }

  /** Forget a team's users (e.g. after `/work link`, so a new e-mail is seen). */
  forgetUsers(teamId: string): void {
    this.users.delete(teamId);
  }
}

/**
 * A user's weight in the cache (an estimate): its strings at two bytes a character (the most
 * V8 uses) and ~120 bytes for the object and its Map entry.
 */
export const userBytes = (u: ServiceUser) =>
  120 + 2 * (u.id.length + (u.name?.length ?? 0) + (u.email?.length ?? 0));

/** The cached promise, else `load()`'s, kept unless it fails; weighed when it comes. */
function cached<T>(
  cache: BoundedCache<string, Promise<T>>,
  key: string,
  load: () => Promise<T>,
  bytesOf?: (value: T) => number,
): Promise<T> {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = load();
  cache.set(key, value);
  value.then(
    (answer) => {
      if (bytesOf) cache.weigh(key, value, bytesOf(answer));
    },
    () => cache.delete(key),
  );
  return value;
}
