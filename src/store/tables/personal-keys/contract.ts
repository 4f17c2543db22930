/**
 * personal_keys: a Slack person's own service API key (`/work connect me`), so that what they
 * change in the service is made as them. Sealed like the workspace key (crypto.ts), bound to
 * (team, person) as associated data, decrypted only when read. A key the service starts
 * refusing (401/403) is marked failing: its owner is told once and acts as if they had none
 * until they connect again.
 */

export interface PersonalKey {
  teamId: string;
  slackUserId: string;
  /** The service user the key acts as (verify's `createdBy`). */
  serviceUserId: string;
  /** The plain key. Never log it, never show it back. */
  apiKey: string;
  /** Epoch ms. */
  connectedAt: number;
  /** Epoch ms since the service refused the key; then it is not used. */
  failingSince?: number;
  /** The service's reason, in words (no key in it). */
  failure?: string;
}

/** A personal key without the key. */
export type PersonalKeyInfo = Omit<PersonalKey, 'apiKey'>;

export interface PersonalKeysStore {
  /** Throws DecryptError when the key cannot be opened with the current secrets key. */
  get(teamId: string, slackUserId: string): Promise<PersonalKey | undefined>;
  info(teamId: string, slackUserId: string): Promise<PersonalKeyInfo | undefined>;
  /** Creates or replaces the person's key (clearing a failure); true when one was replaced. */
  save(key: Omit<PersonalKey, 'failingSince' | 'failure'>): Promise<boolean>;
  /** True when there was one. */
  delete(teamId: string, slackUserId: string): Promise<boolean>;
  /**
   * Marks the key failing. True only for the call that changed it from working to failing
   * (exactly one caller tells its owner, however many requests saw the refusal).
   */
  markFailing(teamId: string, slackUserId: string, failure: string, now?: number): Promise<boolean>;
  /** The Slack people holding a working key of this service user. */
  byServiceUser(teamId: string, serviceUserId: string): Promise<PersonalKeyInfo[]>;
  list(teamId: string): Promise<PersonalKeyInfo[]>;
  deleteTeam(teamId: string): Promise<number>;
}
