/**
 * Readable names for what the service identifies by id (customers, users, priorities,
 * status types), and mrkdwn escaping for text that comes from the service: a project named
 * "R&D <beta>" must show as written, not break the message.
 */
import {
  type Customer,
  PRIORITY_NAMES,
  type PriorityName,
  STATUS_TYPE,
  type WorkspaceUser,
} from '../../workapi/contract.js';

/** A customer's company, else its contact person, else its id. */
export function customerName(c: Customer): string {
  const person = [c.firstName, c.lastName].filter(Boolean).join(' ').trim();
  return c.companyName?.trim() || person || c.customerId;
}

/** A workspace user's name, else e-mail, else id. */
export function userName(u: WorkspaceUser): string {
  return u.name?.trim() || u.email?.trim() || u.id;
}

/** The name of priority `n` (0–4), or undefined. */
export function priorityName(n: number | undefined | null): PriorityName | undefined {
  return typeof n === 'number' ? PRIORITY_NAMES[n] : undefined;
}

/** "to do" / "in progress" / "done" for a status entry's Type. */
export function statusTypeName(type: number | undefined): string {
  switch (type) {
    case STATUS_TYPE.todo:
      return 'to do';
    case STATUS_TYPE.inProgress:
      return 'in progress';
    case STATUS_TYPE.done:
      return 'done';
    default:
      return type === undefined ? 'no type' : `type ${type}`;
  }
}

/** Looks names up by id; unknown ids show as themselves. */
export function nameLookup<T>(
  items: readonly T[] | undefined,
  idOf: (item: T) => string,
  nameOf: (item: T) => string,
): (id: string) => string {
  const names = new Map((items ?? []).map((item) => [idOf(item), nameOf(item)]));
  return (id) => names.get(id) ?? id;
}
