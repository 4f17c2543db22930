/**
 * Fair shares of the HTTP server's connections (issue 24, finding 4: one client holding 256
 * slow-header sockets made 34 of 50 signed Slack requests fail, the cap being everyone's).
 *
 * - A connection is unproven until a request on it passes the Slack signature check (the
 *   guard calls `proven`); Slack's own keep-alive connections are then proven for good.
 * - It is stale when, unproven, it has sent no request head for `staleMs` (a slow-header
 *   client's, or an idle one): a burst of real requests, whose heads come at once, is never
 *   stale, however many connections it opens from one address.
 * - One client address may hold at most `perAddressConnections` stale connections; then its
 *   newcomers are closed as they arrive.
 * - Stale connections together may hold at most `maxConnections - reservedConnections` (the
 *   rest is kept for requests that prove themselves): past that share a newcomer takes the
 *   place of the connection stale longest. At the total it takes the place of the unproven
 *   connection idle longest (stale or not), so a slow-header flood cannot lock Slack out;
 *   with none idle, the newcomer is closed.
 * - A newcomer is judged after the reads of the event-loop turn it arrived in, and one whose
 *   head came with it is kept: after a stall, heads already waiting are read first.
 * - A request head must arrive within the server's headers timeout (Node answers 408).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  maxConnections: number;
  /** Unproven connections one client address may hold. */
  perAddressConnections: number;
  /** Connections kept for signed (Slack's) requests: unsigned ones never take them. */
  reservedConnections: number;
  /** An unproven connection without a request head this long is stale (default 1 s). */
  staleMs?: number;
}

interface Tracked {
  address: string;
  /** Epoch ms it went idle (connected, or its last response ended). */
  idleSince: number;
  /** A request is under way (its head arrived). */
  busy: boolean;
  proven: boolean;
}

export class ConnectionShares {
  private readonly sockets = new Map<Socket, Tracked>();
  private readonly byAddress = new Map<string, Set<Socket>>();
  /** Connections closed at arrival, and unproven ones closed to make room (benchmarks). */
  readonly refused = { perAddress: 0, full: 0, evicted: 0 };

  constructor(private readonly limits: ConnectionLimits) {}

  /** Applies the shares to `server` (replaces its own maxConnections). */
  attach(server: Server): void {
    server.maxConnections = Number.POSITIVE_INFINITY;
    server.on('connection', (socket: Socket) => {
      this.track(socket);
      // Judged once this turn's reads are done: when the event loop stalled, the request
      // heads of connections already open wait in the same batch as the newcomer, and read
      // after it they would look stale (a burst taken for a slow-header flood).
      setImmediate(() => this.admit(socket));
    });
    server.on('request', (req, res) => {
      const t = this.sockets.get(req.socket);
      if (!t) return;
      t.busy = true;
      res.once('close', () => {
        t.busy = false;
        t.idleSince = Date.now();
      });
    });
  }

  /** A request on `socket` passed the signature check: the connection is Slack's. */
  proven(socket: Socket): void {
    const t = this.sockets.get(socket);
    if (t) t.proven = true;
  }

  get open(): number {
    return this.sockets.size;
  }

  private stale(t: Tracked, now: number): boolean {
    return !t.proven && !t.busy && now - t.idleSince >= (this.limits.staleMs ?? 1_000);
  }

  private track(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    this.sockets.set(socket, { address, idleSince: Date.now(), busy: false, proven: false });
    const set = this.byAddress.get(address) ?? new Set<Socket>();
    set.add(socket);
    this.byAddress.set(address, set);
    socket.once('close', () => this.forget(socket, address));
  }

  /** Keeps `socket` or closes it, by the shares of the connections open besides it. */
  private admit(socket: Socket): void {
    const self = this.sockets.get(socket);
    // Gone already, or its request head came with it: not a slow-header connection.
    if (!self || self.busy || self.proven) return;
    const { maxConnections, perAddressConnections, reservedConnections } = this.limits;
    const now = Date.now();
    let staleHere = 0;
    for (const s of this.byAddress.get(self.address) ?? []) {
      if (s !== socket && this.stale(this.sockets.get(s)!, now)) staleHere++;
    }
    if (staleHere >= perAddressConnections) {
      this.refused.perAddress++;
      this.close(socket, self);
      return;
    }
    let stale = 0;
    for (const [s, t] of this.sockets) if (s !== socket && this.stale(t, now)) stale++;
    const atTotal = this.sockets.size - 1 >= maxConnections;
    if (atTotal || stale >= maxConnections - reservedConnections) {
      if (!this.evictIdle(now, atTotal, socket) && atTotal) {
        this.refused.full++;
        this.close(socket, self);
      }
    }
  }

  /** Forgotten now (its 'close' comes later), so it no longer counts against the shares. */
  private close(socket: Socket, t: Tracked): void {
    this.forget(socket, t.address);
    socket.destroy();
  }

  private forget(socket: Socket, address: string): void {
    this.sockets.delete(socket);
    const set = this.byAddress.get(address);
    set?.delete(socket);
    if (set && set.size === 0) this.byAddress.delete(address);
  }

  /**
   * Closes the unproven connection idle longest (without a request head); past the stale
   * share only a stale one, at the total any. False when there is none to close.
   */
  private evictIdle(now: number, anyIdle: boolean, newcomer: Socket): boolean {
    let oldest: [Socket, Tracked] | undefined;
    for (const entry of this.sockets) {
      const t = entry[1];
      if (entry[0] === newcomer || t.proven || t.busy || (!anyIdle && !this.stale(t, now))) {
        continue;
      }
      if (!oldest || t.idleSince < oldest[1].idleSince) oldest = entry;
    }
    if (!oldest) return false;
    this.refused.evicted++;
    this.close(oldest[0], oldest[1]); // the newcomer takes its place at once
    return true;
  }
}
