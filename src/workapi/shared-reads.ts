/**
 * Reads under way are shared: a GET that asks exactly what one already on its way asks (same
 * client, so the same key; same operation, address and input) waits for that one's answer
 * instead of sending its own. Under a burst — many people's `/work list` of one project, each
 * reading the same page of tasks — this is most of the service's calls. Nothing is kept once
 * an answer arrives, so no answer is older than a read sent at that moment would be.
 *
 * A write closes the reads under way that it may change (any client's in this process) when
 * it ends: a read asked for after a write ended never gets an answer read before it. What a
 * write may change: a task's own reads and every list for a write on that task, every list
 * for a new task, everything for any other write. (Closing on every write made sharing
 * rare in a burst that mixes `/work add` with lists.)
 *
 * An answer shared by several callers is parsed once (`OnceRead`): the last caller to read
 * it gets the parsed object, the others a deep copy of it (a copy costs about half a zod
 * parse); a caller alone parses as before. Each caller still has its own object.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** What a shared read answers: the 2xx body and its headers. */
export interface ReadAnswer {
  text: string;
  headers: IncomingHttpHeaders;
}

/** What a read is about: one task's reads, task lists, or anything else. */
export type ReadScope = `task:${string}` | 'lists' | 'other';

/** One answer as its callers take it: how many asked for it, how many have read it. */
export interface SharedAnswer extends ReadAnswer {
  callers: number;
  taken: number;
}

interface UnderWay {
  answer: Promise<SharedAnswer>;
  shared: SharedAnswer;
  scope: ReadScope;
}

/** Every client's reads under way, so a write by one closes another's. */
const underWay = new Map<string, UnderWay>();

/** Call when a write ends: the reads under way it may have changed take no newcomers. */
export function writeEnded(changed: readonly ReadScope[] | 'everything'): void {
  for (const [key, read] of underWay) {
    if (changed === 'everything' || changed.includes(read.scope)) {
      underWay.delete(key);
    }
  }
}

/** What a read of operation `name` is about. */
export function readScope(name: string, params?: Record<string, string>): ReadScope {
  if (name === 'getTask' && params?.taskId) return `task:${params.taskId}`;
  return name === 'listTasks' ? 'lists' : 'other';
}

/** What a write of operation `name` may change. */
export function changedBy(
  name: string,
  params?: Record<string, string>,
): readonly ReadScope[] | 'everything' {
  if (params?.taskId) return [`task:${params.taskId}`, 'lists'];
  return name === 'createTask' ? ['lists'] : 'everything';
}

let clients = 0;

export class SharedReads {
  /** Keeps this client's keys apart from other clients' (other keys, other answers). */
  private readonly id = `${++clients}|`;
  /** Reads answered by another's call (benchmarks, tests). */
  joined = 0;

  /**
   * `send()`'s answer, or the answer of the same read already under way. Its `callers` is
   * final once it is answered: no one joins an answered read.
   */
  read(key: string, scope: ReadScope, send: () => Promise<ReadAnswer>): Promise<SharedAnswer> {
    const mine = this.id + key;
    const now = underWay.get(mine);
    if (now) {
      this.joined++;
      now.shared.callers++;
      return now.answer;
    }
    const shared: SharedAnswer = { text: '', headers: {}, callers: 1, taken: 0 };
    const answer = send().then((a) => Object.assign(shared, a));
    const entry = { answer, shared, scope };
    underWay.set(mine, entry);
    const forget = () => {
      if (underWay.get(mine) === entry) underWay.delete(mine);
    };
    answer.then(forget, forget);
    return answer;
  }
}

/** Reads shared answers with one parse per answer (see the top of this file). */
export class OnceRead<T> {
  private readonly parsed = new WeakMap<SharedAnswer, T>();

  take(answer: SharedAnswer, parse: (text: string) => T): T {
    if (answer.callers <= 1) return parse(answer.text);
    answer.taken++;
    let value = this.parsed.get(answer);
    if (value === undefined) {
      value = parse(answer.text);
      this.parsed.set(answer, value);
    }
    return answer.taken >= answer.callers ? value : structuredClone(value);
  }
}

/** Reads under way in this process (bounded by the calls in flight: each leaves when answered). */
export const readsUnderWay = (): number => underWay.size;
