/** channel_projects: a Slack channel's default project (`/work project link`). */

export interface ChannelProject {
  teamId: string;
  channelId: string;
  projectId: string;
  linkedBy: string;
  linkedAt: string;
}

export interface ChannelProjectsStore {
  get(teamId: string, channelId: string): Promise<ChannelProject | undefined>;
  /** Links (or re-links) the channel; returns the link. */
  link(
    teamId: string,
    channelId: string,
    projectId: string,
    linkedBy: string,
  ): Promise<ChannelProject>;
  /** True when the channel had a link. */
  unlink(teamId: string, channelId: string): Promise<boolean>;
  listForTeam(teamId: string): Promise<ChannelProject[]>;
  /** Removes every link of the team; returns how many. */
  deleteTeam(teamId: string): Promise<number>;
}
