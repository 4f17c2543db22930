/**
 * Service-side names for DMs and matching: the workspace's users (id → name, e-mail) and
 * project names, cached briefly per team so a burst of new tasks costs one listUsers call.
 * Failures are not cached.
 */
import type { WorkClient } from '../../workapi/client.js';

export interface ServiceUser {
  id: string;
  name?: string;
  email?: string;
}

interface Cached<T> {
  at: number;
  value: Promise<T>;
}

export class ServiceDirectory {
  private readonly users = new Map<string, Cached<Map<string, ServiceUser>>>();
  private readonly projects = new Map<string, Cached<string | undefined>>();

  constructor(
    private readonly usersTtlMs = 60_000,
    private readonly projectsTtlMs = 5 * 60_000,
  ) {}

  /** The team's service users by id. Throws (uncached) when the service cannot answer. */
  usersOf(teamId: string, work: WorkClient): Promise<Map<string, ServiceUser>> {
    return this.cached(this.users, teamId, this.usersTtlMs, async () => {
      const list = await work.listUsers();
      return new Map(list.map((u) => [u.id, { id: u.id, name: u.name, email: u.email }]));
    });
  }

  projectName(teamId: string, projectId: string, work: WorkClient): Promise<string | undefined> {
    return this.cached(this.projects, `${teamId}:${projectId}`, this.projectsTtlMs, async () => {
      const project = await work.getProject(projectId);
      return project.projectName || undefined;
    });
  }

  /** Forget a team's users (e.g. after `/work link`, so a new e-mail is seen). */
  forgetUsers(teamId: string): void {
    this.users.delete(teamId);
  }

  private cached<T>(
    map: Map<string, Cached<T>>,
    key: string,
    ttlMs: number,
    load: () => Promise<T>,
  ): Promise<T> {
    const hit = map.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value;
    const value = load();
    map.set(key, { at: Date.now(), value });
    value.catch(() => map.delete(key));
    return value;
  }
}
