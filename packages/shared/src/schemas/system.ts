import { fields, oneOf, text } from './messages';

/** What the probes outside /api answer (load balancers read the status code; people read these). */

/** GET /healthz: the process answers. */
export const livenessSchema = fields('Health', { status: oneOf(['ok'], 'Status') });

/** GET /readyz when the database answers, and which kind it is. */
export const readinessSchema = fields('Readiness', {
  status: oneOf(['ready'], 'Status'),
  database: text('Database'),
});

/** GET /readyz with a 503 while the database does not answer. */
export const notReadySchema = fields('Readiness', { status: oneOf(['unavailable'], 'Status') });
