/**
 * Extra HTTP routes served beside Slack's /slack/events (HTTP and OAuth modes; in Socket Mode
 * on PORT): GET /healthz, POST /work/events. src/slack/app.ts serves them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A plain node:http handler for an extra route (e.g. POST /work/events). */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export class RouteRegistry {
  private readonly routes: { method: string; path: string; handler: RouteHandler }[] = [];

  /** Adds a route; `path` is exact (no patterns), `method` upper-case (GET, POST, …). */
  add(route: { method: string; path: string; handler: RouteHandler }): void {
    const method = route.method.toUpperCase();
    if (this.routes.some((r) => r.method === method && r.path === route.path)) {
      throw new Error(`Route ${method} ${route.path} is registered twice.`);
    }
    this.routes.push({ ...route, method });
  }

  find(method: string, path: string): RouteHandler | undefined {
    return this.routes.find((r) => r.method === method.toUpperCase() && r.path === path)?.handler;
  }

  get size(): number {
    return this.routes.length;
  }
}
