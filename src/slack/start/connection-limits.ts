/**
 * Fair shares of the HTTP server's connections (issue 24, finding 4: one client holding 256
 * slow-header sockets made 34 of 50 signed Slack requests fail, the cap being everyone's).
 *
 * - A connection is unproven until a request on it passes the Slack signature check (the
 *   guard calls `proven`); Slack's own keep-alive connections are then proven for good.
 * - One client address may hold at most `perAddress` unproven connections; more are closed
 *   as they arrive.
 * - Unproven connections together may hold at most `maxConnections - reservedConnections`:
 *   the rest is kept for proven ones. Past that share (or the total), a new connection takes
 *   the place of the unproven one idle longest — one that has not even sent a request head
 *   (a slow-header client) — so a newcomer, which may be Slack, is not locked out; when no
 *   such connection exists the newcomer is closed.
 * - A request head must arrive within the server's headers timeout (Node answers 408).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  maxConnections: number;
  /** Unproven connections one client address may hold. */
  perAddressConnections: number;
  /** Connections unproven ones may never take (kept for signed requests). */
  reservedConnections: number;
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
  private readonly unprovenBy = new Map<string, number>();
  private unproven = 0;
  /** Connections closed at arrival, and unproven ones closed to make room (benchmarks). */
  readonly refused = { perAddress: 0, full: 0, evicted: 0 };

  constructor(private readonly limits: ConnectionLimits) {}

  /** Applies the shares to `server` (replaces its own maxConnections). */
  attach(server: Server): void {
    server.maxConnections = Number.POSITIVE_INFINITY;
    server.on('connection', (socket: Socket) => this.arrived(socket));
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
    if (!t || t.proven) return;
    t.proven = true;
    this.countUnproven(t.address, -1);
  }

  get open(): number {
    return this.sockets.size;
  }

  private arrived(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const { maxConnections, perAddressConnections, reservedConnections } = this.limits;
    if ((this.unprovenBy.get(address) ?? 0) >= perAddressConnections) {
      this.refused.perAddress++;
      return void socket.destroy();
    }
    const full =
      this.sockets.size >= maxConnections || this.unproven >= maxConnections - reservedConnections;
    if (full && !this.evictIdle()) {
      this.refused.full++;
      return void socket.destroy();
    }
    const t: Tracked = { address, idleSince: Date.now(), busy: false, proven: false };
    this.sockets.set(socket, t);
    this.countUnproven(address, 1);
    socket.once('close', () => {
      this.sockets.delete(socket);
      if (!t.proven) this.countUnproven(address, -1);
    });
  }

  /** Closes the unproven connection idle longest; false when there is none. */
  private evictIdle(): boolean {
    let oldest: [Socket, Tracked] | undefined;
    for (const entry of this.sockets) {
      const t = entry[1];
      if (t.proven || t.busy) continue;
      if (!oldest || t.idleSince < oldest[1].idleSince) oldest = entry;
    }
    if (!oldest) return false;
    this.refused.evicted++;
    // Counted out now: its 'close' comes later, and the newcomer takes its place at once.
    this.sockets.delete(oldest[0]);
    this.countUnproven(oldest[1].address, -1);
    oldest[1].proven = true; // so its 'close' does not count it out again
    oldest[0].destroy();
    return true;
  }

  private countUnproven(address: string, delta: number): void {
    this.unproven += delta;
    const n = (this.unprovenBy.get(address) ?? 0) + delta;
    if (n > 0) this.unprovenBy.set(address, n);
    else this.unprovenBy.delete(address);
  }
}
