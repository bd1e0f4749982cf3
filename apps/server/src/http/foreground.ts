import type { FastifyInstance } from 'fastify';

/** The longest background work steps aside for one wait, so it is never starved. */
export const FOREGROUND_WAIT_MS = 100;
/**
 * A request counts as someone waiting for this long at most: a download or an upload that
 * runs for minutes must not hold the devices' traffic for minutes.
 */
const WAITING_MS = 1_000;

/**
 * The console's API requests in flight, so that background work (the telemetry writes,
 * which with PGlite hold the thread) steps aside while a person waits for an answer, and
 * the console's statements do not queue behind a write started after them
 * (docs/performance.md, the console during a load). Background work waits at most
 * `FOREGROUND_WAIT_MS` at a time.
 */
export class Foreground {
  /** Requests in flight, by when they started. */
  private readonly started = new Map<object, number>();
  /** The one wait under way: everyone who asks meanwhile shares it. */
  private waiting: { promise: Promise<void>; end(): void } | undefined;

  enter(request: object, now = performance.now()): void {
    this.started.set(request, now);
  }

  leave(request: object): void {
    if (!this.started.delete(request)) return;
    if (!this.busy) this.waiting?.end();
  }

  /** Whether a request started less than a second ago is still waiting for its answer. */
  get busy(): boolean {
    if (this.started.size === 0) return false;
    const since = performance.now() - WAITING_MS;
    let someone = false;
    for (const [request, at] of this.started) {
      if (at > since) someone = true;
      // Past the second it no longer counts, and a reply taken over by a stream may never
      // say it ended: forgotten here rather than kept for good.
      else this.started.delete(request);
    }
    return someone;
  }

  /**
   * Undefined when no request is in flight; else a promise that resolves once none is, or
   * after `maxMs` at the latest. Callers that wait at once share one promise.
   */
  quiet(maxMs = FOREGROUND_WAIT_MS): Promise<void> | undefined {
    if (!this.busy) return undefined;
    if (this.waiting) return this.waiting.promise;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    const timer = setTimeout(() => this.waiting?.end(), maxMs);
    timer.unref();
    this.waiting = {
      promise,
      end: () => {
        clearTimeout(timer);
        this.waiting = undefined;
        resolve();
      },
    };
    return promise;
  }
}

/** Counts every /api request from its start to its answer (or the client going away). */
export function registerForeground(app: FastifyInstance, foreground: Foreground): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.startsWith('/api/')) foreground.enter(request);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    foreground.leave(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    foreground.leave(request);
    done();
  });
}
