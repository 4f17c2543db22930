/**
 * Reads under way are shared: a GET that asks exactly what one already on its way asks (same
 * client, so the same key; same operation, address and input) waits for that one's answer
 * instead of sending its own. Under a burst — many people's `/work list` of one project, each
 * reading the same page of tasks — this is most of the service's calls. Nothing is kept once
 * an answer arrives, so no answer is older than a read sent at that moment would be.
 *
 * A write anywhere in this process (any client) closes every read under way to newcomers: a
 * read asked for after a write began never gets an answer that may have been read before it.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** What a shared read answers: the 2xx body and its headers. */
export interface ReadAnswer {
  text: string;
  headers: IncomingHttpHeaders;
}

/** Bumped when any write begins and when it ends. */
let writes = 0;

/** Call around every write (start and end): reads under way are no longer joined. */
export function writeMoment(): void {
  writes++;
}

export class SharedReads {
  private readonly underWay = new Map<string, { epoch: number; answer: Promise<ReadAnswer> }>();
  /** Reads answered by another's call (benchmarks, tests). */
  joined = 0;

  /** `send()`'s answer, or the answer of the same read already under way. */
  read(key: string, send: () => Promise<ReadAnswer>): Promise<ReadAnswer> {
    const now = this.underWay.get(key);
    if (now && now.epoch === writes) {
      this.joined++;
      return now.answer;
    }
    const answer = send();
    const entry = { epoch: writes, answer };
    this.underWay.set(key, entry);
    const forget = () => {
      if (this.underWay.get(key) === entry) this.underWay.delete(key);
    };
    answer.then(forget, forget);
    return answer;
  }

  /** Reads under way (bounded by the calls in flight: each leaves when answered). */
  get size(): number {
    return this.underWay.size;
  }
}
