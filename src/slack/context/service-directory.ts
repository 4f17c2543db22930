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

  constructor(usersTtlMs = 60_000, projectsTtlMs = 5 * 60_000, maxTeams = 1_000) {
    this.users = new BoundedCache('service_users', maxTeams, usersTtlMs);
    this.projects = new BoundedCache('project_names', maxTeams * 20, projectsTtlMs);
  }

  /** The team's service users by id. Throws (uncached) when the service cannot answer. */
  usersOf(teamId: string, work: WorkClient): Promise<Map<string, ServiceUser>> {
    return cached(this.users, teamId, async () => {
      const list = await work.listUsers();
      return new Map(list.map((u) => [u.id, { id: u.id, name: u.name, email: u.email }]));
    });
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

/** The cached promise, else `load()`'s, kept unless it fails. */
function cached<T>(
  cache: BoundedCache<string, Promise<T>>,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = load();
  cache.set(key, value);
  value.catch(() => cache.delete(key));
  return value;
}
