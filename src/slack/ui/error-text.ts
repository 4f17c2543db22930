/**
 * Failures in plain sentences. Each says what did not happen and what to do next; none shows
 * a stack trace, an API key or raw JSON. The service's own 400 message is quoted (escaped),
 * because it names the field and the problem ("dueDate: is not a date on the calendar").
 */
import { errMessage } from '../../error-message.js';
import { scrub } from '../../secrets.js';
import { isWorkApiError, type WorkApiError } from '../../workapi/client.js';
import type { ClientOperationName } from '../../workapi/contract.js';
import { esc } from '../format/text.js';

export const NOT_CONNECTED =
  'Worklink is not connected to a work-management workspace yet. An admin can run `/work connect`.';

export const KEY_UNREADABLE =
  'Worklink cannot read its stored API key (the server’s SECRETS_KEY changed). An admin can run `/work connect` again.';

export const APOLOGY =
  'Sorry, something went wrong on Worklink’s side and your request was not completed. The error has been logged; please try again.';

/** Operations that change something on the service. */
const WRITES = new Set<ClientOperationName>([
  'createTask',
  'updateTask',
  'postComment',
  'createProject',
  'updateProject',
]);

const CREATES = new Set<ClientOperationName>(['createTask', 'createProject', 'postComment']);

export interface ErrorWording {
  /** What was attempted, as a verb phrase: "create the task", "load project 65a…". */
  action: string;
  /** The id the user gave, named in not-found answers. */
  id?: string;
  /** Where to look when the result of a write is unknown; default `/work list`. */
  checkWith?: string;
}

/** One or two sentences for a WorkClient failure (or anything else thrown). */
export function describeWorkError(err: unknown, wording: ErrorWording): string {
  if (!isWorkApiError(err)) return APOLOGY;
  const failed = `Could not ${wording.action}`;
  const write = WRITES.has(err.operation);
  const nothingChanged = write ? ' Nothing was changed.' : '';
  switch (err.kind) {
    case 'invalid':
      return `${failed}: ${sentence(err.message)}${nothingChanged}`;
    case 'auth':
      if (err.personalKey) {
        return `${failed}: the work-management service no longer accepts your own API key.${nothingChanged} Worklink stopped using it: try again to act as this workspace allows, or connect a new key with \`/work connect me\`.`;
      }
      return `${failed}: the work-management service no longer accepts Worklink’s API key. An admin can run \`/work connect\` with a new key.`;
    case 'not_found':
      return `${failed}: ${notFound(err, wording.id)}`;
    case 'rate_limited':
      return `${failed}: the service is busy right now.${nothingChanged} Please try again in a minute.`;
    case 'too_large':
      return `${failed}: ${err.message.charAt(0).toLowerCase()}${err.message.slice(1)} An admin can raise WORK_MAX_RESPONSE_BYTES.${write ? ` The result is unknown. Check with ${wording.checkWith ?? '`/work list`'} before trying again.` : ''}`;
    case 'timeout':
    case 'network':
      return `${failed}: ${unreachable(err)}${unknownOrUnchanged(err, write, wording)}`;
    default: {
      const problem = `${failed}: the service reported a problem (${clip(err.message).replace(/[.!?]$/, '')}).`;
      return write
        ? `${problem} The result is unknown. Check with ${wording.checkWith ?? '`/work list`'} before trying again.`
        : `${problem} Please try again in a moment.`;
    }
  }
}

function unreachable(err: WorkApiError): string {
  return err.kind === 'timeout'
    ? 'the work-management service did not answer in time.'
    : 'the work-management service could not be reached.';
}

function unknownOrUnchanged(err: WorkApiError, write: boolean, wording: ErrorWording): string {
  // A request that never left, or a read, changed nothing; a write in flight may have landed.
  if (!write || err.notSent) return ' Nothing was changed.';
  const check = wording.checkWith ?? '`/work list`';
  return CREATES.has(err.operation)
    ? ` The result is unknown: it may have been created. Check with ${check} before trying again.`
    : ` The result is unknown. Check with ${check} before trying again.`;
}

function notFound(err: WorkApiError, id?: string): string {
  const op = err.operation;
  // Create and list name no missing task: a 404 there means the project or the address.
  if (op === 'createTask' || op === 'listTasks') {
    return `the service does not know this project, or Worklink’s address for the service is wrong (an admin can check WORK_API_URL).${WRITES.has(op) ? ' Nothing was changed.' : ''}`;
  }
  if (op === 'createProject') {
    return 'Worklink’s address for the service is wrong (an admin can check WORK_API_URL). Nothing was changed.';
  }
  const thing = /task|comment/i.test(op) ? 'task' : /project|group/i.test(op) ? 'project' : '';
  const named = id ? ` \`${id}\`` : '';
  return thing
    ? `there is no ${thing}${named} in the connected workspace. Check the id (it is shown on ${thing} cards).`
    : `${id ? `\`${id}\`` : 'it'} was not found in the connected workspace.`;
}

/** The service's message, trimmed, capped and escaped: its words are shown, never its markup. */
function clip(message: string): string {
  return esc(scrub(message).trim().slice(0, 300)) || 'the request was refused';
}

/** The message as a sentence, ending in a full stop. */
function sentence(message: string): string {
  const text = clip(message);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The Web API's error code of a failed Slack call (`users_not_found`), if it has one. */
export function slackCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null || !('data' in e)) return undefined;
  const { data } = e;
  if (typeof data !== 'object' || data === null || !('error' in data)) return undefined;
  return typeof data.error === 'string' ? data.error : undefined;
}

/** A failed Slack Web API call as its error code (`expired_trigger_id`), else its message. */
export function slackErrorCode(e: unknown): string {
  return slackCode(e) ?? errMessage(e);
}
