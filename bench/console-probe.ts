/**
 * The console's view during a load, in its own process (its own event loop, so a stall of
 * the server delays the answers, not the asking): signed in as an operator, it asks for the
 * first page of the devices table (`GET /api/devices?limit=50`) every 100 ms, each request
 * on its own schedule whatever the previous one is doing, and times every answer.
 */
import { serveParent } from './support/child';

export type ProbeIn = { type: 'start'; url: string; email: string; password: string } | { type: 'stop' };
export type ProbeOut =
  | { type: 'started' }
  | { type: 'stopped'; latenciesMs: number[]; failures: number; unanswered: number };

const EVERY_MS = 100;
const PATH = '/api/devices?limit=50';

let timer: NodeJS.Timeout | undefined;
const latencies: number[] = [];
const pending = new Set<Promise<void>>();
let failures = 0;

/** The session cookies of a sign-in, as the browser would send them back. */
async function signIn(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

function ask(url: string, cookie: string): void {
  const started = performance.now();
  const request = fetch(`${url}${PATH}`, { headers: { cookie, 'x-requested-with': 'XMLHttpRequest' } })
    .then(async (response) => {
      await response.arrayBuffer();
      if (!response.ok) failures++;
      latencies.push(performance.now() - started);
    })
    .catch(() => {
      failures++;
    })
    .finally(() => pending.delete(request));
  pending.add(request);
}

serveParent<ProbeIn, ProbeOut>(async (message, reply) => {
  if (message.type === 'start') {
    const cookie = await signIn(message.url, message.email, message.password);
    latencies.length = 0;
    failures = 0;
    timer = setInterval(() => ask(message.url, cookie), EVERY_MS);
    reply({ type: 'started' });
    return;
  }
  clearInterval(timer);
  // What is still unanswered a second after the load ended counts as over a second.
  const unanswered = pending.size;
  await Promise.race([Promise.all(pending), new Promise((resolve) => setTimeout(resolve, 1000))]);
  reply({
    type: 'stopped',
    latenciesMs: [...latencies],
    failures,
    unanswered: pending.size > 0 ? unanswered : 0,
  });
});
