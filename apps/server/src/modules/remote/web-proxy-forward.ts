import type { Agent } from 'node:http';
import {
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { AppError } from '#src/http/errors';
import { type DeviceSide, requestHeaders, responseHeaders, rewriteHtml } from './web-proxy-rewrite';

/** How long the device has to start answering a request once its stream is open. */
const ANSWER_MS = 60_000;
/** An HTML page is read whole to be rewritten: a device's pages are far smaller than this. */
const MAX_HTML_BYTES = 8 * 1024 * 1024;

export const unreachable = (reason: string) => `The device could not be reached: ${reason}`;

/** Where a proxied request goes and how its answer is shown: one proxy session's view. */
export type ProxiedPage = {
  /** Opens tunnel streams to the session's target (tunnel-agent.ts). */
  agent: Agent;
  side: DeviceSide;
  /** The proxy's origin, as the browser sees it. */
  origin: string;
  /** The prefix of the device's cookies in the browser (web-proxy-rewrite.ts, cookiePrefix). */
  prefix: string;
};

/** The request's path and query: an absolute-form target (`GET http://host/...`) names no host here. */
export function pathOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (url.startsWith('/')) return url;
  try {
    const absolute = new URL(url);
    return absolute.protocol === 'http:' || absolute.protocol === 'https:'
      ? `${absolute.pathname}${absolute.search}`
      : undefined;
  } catch {
    return undefined;
  }
}

/** A page of the proxy's own: plain text, so nothing in it (a device's reason) can run as script. */
export function say(
  response: ServerResponse,
  status: number,
  words: string,
  headers: Record<string, string> = {},
) {
  if (response.headersSent) return void response.destroy();
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...headers,
  });
  response.end(`${words}\n`);
}

/** How to undo the device's compression to rewrite a page: null for none, undefined for one we leave alone. */
function decoderOf(encoding: string | undefined): Transform | null | undefined {
  switch ((encoding ?? 'identity').trim().toLowerCase()) {
    case 'identity':
    case '':
      return null;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

const viewOf = (page: ProxiedPage) => ({ side: page.side, proxyOrigin: page.origin, prefix: page.prefix });

/**
 * Writes the device's status and headers; false when Node refuses them (a header it will not
 * write), answered as the device's fault rather than thrown into the server.
 */
function send(response: ServerResponse, status: number, headers: OutgoingHttpHeaders): boolean {
  try {
    response.writeHead(status, headers);
    return true;
  } catch (error) {
    say(response, 502, unreachable(`its answer was not valid HTTP (${(error as Error).message})`));
    return false;
  }
}

/**
 * Carries one browser request to the device through the page's tunnel streams, and its answer
 * back. The target is always the page's own host and port: the browser's Host and an
 * absolute-form target name nothing here, and a redirect is the browser's to follow, never ours.
 */
export function forward(
  page: ProxiedPage,
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  retried = false,
) {
  // Without a body (browsers send none with these) a request may be sent again.
  const idempotent =
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.headers['content-length'] &&
    !request.headers['transfer-encoding'];
  const upstream = httpRequest({
    agent: page.agent,
    host: page.side.host,
    port: page.side.port,
    method: request.method ?? 'GET',
    path,
    headers: requestHeaders(request.headers, viewOf(page)),
    setHost: false,
  });
  const late = setTimeout(() => upstream.destroy(new Error('The device did not answer in time')), ANSWER_MS);
  late.unref();
  response.once('close', () => {
    clearTimeout(late);
    if (!response.writableFinished) upstream.destroy();
  });
  upstream.on('error', (error: Error) => {
    clearTimeout(late);
    // A kept stream the device closed just as it was reused (its keep-alive ran out): once more on a new one.
    if (upstream.reusedSocket && idempotent && !retried && !response.headersSent)
      return forward(page, request, response, path, true);
    // A company out of data: the service's own words.
    if (error instanceof AppError) return say(response, error.status, error.message);
    say(response, 502, unreachable(error.message));
  });
  upstream.on('response', (answer) => {
    clearTimeout(late);
    answer.on('error', () => response.destroy());
    relay(page, request.method === 'HEAD', answer, response);
  });
  if (idempotent) upstream.end();
  else request.pipe(upstream);
}

/** The device's answer to the browser: its headers rewritten, and an HTML page's absolute URLs. */
function relay(page: ProxiedPage, head: boolean, answer: IncomingMessage, response: ServerResponse) {
  const status = answer.statusCode ?? 502;
  const headers = responseHeaders(answer.headers, viewOf(page));
  const decoder = decoderOf(answer.headers['content-encoding']);
  const html =
    /^\s*text\/html/i.test(answer.headers['content-type'] ?? '') &&
    !head &&
    status !== 204 &&
    status !== 304 &&
    decoder !== undefined;
  if (!html) {
    if (send(response, status, headers)) answer.pipe(response);
    else answer.destroy();
    return;
  }
  const source = decoder ? answer.pipe(decoder) : answer;
  const chunks: Buffer[] = [];
  let size = 0;
  source.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_HTML_BYTES) {
      answer.destroy();
      source.destroy();
      return say(response, 502, 'The device page is too large to show through the proxy');
    }
    chunks.push(chunk);
  });
  source.on('error', () => say(response, 502, unreachable('its page could not be read')));
  source.on('end', () => {
    if (response.headersSent) return;
    // latin1 keeps every byte as it was: the rewrite touches ASCII alone, whatever the charset.
    const body = Buffer.from(
      rewriteHtml(Buffer.concat(chunks).toString('latin1'), page.side, page.origin),
      'latin1',
    );
    delete headers['content-encoding'];
    headers['content-length'] = String(body.length);
    if (send(response, status, headers)) response.end(body);
  });
}
