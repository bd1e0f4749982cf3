import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { Config } from '../config';

export type LogFormat = Config['logFormat'];

/** A request slower than this is worth a line on a terminal even when it succeeded. */
const SLOW_REQUEST_MS = 1000;

/**
 * Where the logger writes: stdout, or `destination` (tests). `json` (a log collector):
 * pino's JSON lines. `pretty` (a terminal): one short line per entry with the local time,
 * formatted by pino-pretty. Both write synchronously, as console.log does, so that the
 * lines logged during the start come before the start banner, never after it.
 */
export function logStream(format: LogFormat, destination: number | DestinationStream = 1): DestinationStream {
  const out =
    typeof destination === 'number' ? pino.destination({ dest: destination, sync: true }) : destination;
  if (format === 'json') return out;
  const prettify = prettyFactory({
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,res,responseTime',
  });
  // pino-pretty's own stream formats a tick later; formatting here keeps lines in order.
  return { write: (line: string) => void out.write(prettify(line)) };
}

/**
 * Fastify's request lines for a terminal: a successful request is routine (debug), while
 * a server error or a slow answer is worth a warning. Failed requests stay errors.
 */
export class TerminalRequestLogs extends LogController {
  constructor(private readonly slowMs = SLOW_REQUEST_MS) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error || this.isLogDisabled(request)) {
      super.requestCompleted(error, request, reply);
      return;
    }
    const ms = Math.round(reply.elapsedTime);
    const notable = reply.statusCode >= 500 || ms >= this.slowMs;
    reply.log[notable ? 'warn' : 'debug'](
      { res: reply, responseTime: reply.elapsedTime },
      `${request.method} ${request.url} answered ${reply.statusCode} in ${ms} ms`,
    );
  }

  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug(`Route ${request.method}:${request.url} not found`);
  }
}

/** The request logging of a format: Fastify's own (every request at info) for JSON. */
export function requestLogController(format: LogFormat): LogController | undefined {
  return format === 'pretty' ? new TerminalRequestLogs() : undefined;
}
