/**
 * notify_user_links: explicit matches of a service user (by e-mail) to a Slack user, made by
 * an admin with `/work link @slack-user <e-mail>`. They win over matching by e-mail, for
 * people whose Slack and service addresses differ. E-mails are kept lower-case.
 */

export interface UserLink {
  teamId: string;
  serviceEmail: string;
  slackUserId: string;
  linkedBy: string;
  linkedAt: string;
}

export interface UserLinksStore {
  /** Links (or re-links) an e-mail to a Slack user; returns the previous Slack user, if any. */
  link(link: Omit<UserLink, 'linkedAt'> & { linkedAt?: string }): Promise<string | undefined>;
  /** Removes every link to this Slack user; returns the e-mails that were linked. */
  unlinkSlackUser(teamId: string, slackUserId: string): Promise<string[]>;
  byEmail(teamId: string, email: string): Promise<UserLink | undefined>;
  bySlackUser(teamId: string, slackUserId: string): Promise<UserLink[]>;
  /** Removes all of a team's links (it uninstalled Worklink); returns how many. */
  deleteTeam(teamId: string): Promise<number>;
}
