/**
 * known_projects: the projects this Slack team has linked, created or looked up. The service
 * has no "list projects" operation, so this is how pickers (the create-task modal's project
 * menu) offer projects. Each sighting refreshes the name and `last_seen_at`.
 */

export interface KnownProject {
  teamId: string;
  projectId: string;
  projectName: string;
  lastSeenAt: string;
}

export interface KnownProjectsStore {
  /** Records a sighting (insert or refresh name + time). */
  remember(teamId: string, projectId: string, projectName: string): Promise<void>;
  /** Most recently seen first. */
  list(teamId: string, limit?: number): Promise<KnownProject[]>;
  get(teamId: string, projectId: string): Promise<KnownProject | undefined>;
  /** A project that turned out not to exist any more. */
  forget(teamId: string, projectId: string): Promise<boolean>;
  deleteTeam(teamId: string): Promise<number>;
}
