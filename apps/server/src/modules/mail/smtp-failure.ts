/**
 * A failed delivery in our own words, for the test button, the mail log and the
 * suppression list. A remote server's reply text never gets through: an internal service
 * reached through the SMTP settings would otherwise read out through it (a banner, an
 * error page). Only the SMTP status code or the local error code is added.
 */

/** What nodemailer puts on its errors (smtp-connection `_formatError`). */
type SmtpError = { code?: unknown; originalCode?: unknown; responseCode?: unknown; command?: unknown };

/** A code fit to show: a node or nodemailer error code, never free text. */
function safeCode(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(value) ? value : null;
}

/** An SMTP status code: three digits, nothing the server could use to spell out more. */
function statusCode(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 200 && value <= 599 ? value : null;
}

const TLS_CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME/;
const NETWORK_CODES = new Set(['ESOCKET', 'EDNS', 'ECONNECTION', 'ETIMEDOUT']);

/** The reply code of an SMTP refusal (550 on RCPT TO …), if the error carries one. */
export function smtpStatusOf(error: unknown): number | null {
  return statusCode((error as SmtpError | null)?.responseCode);
}

/** E.g. 'The SMTP server refused the sign-in (535)', 'Could not connect to the SMTP server (ECONNREFUSED)'. */
export function deliveryFailure(error: unknown): string {
  const e = (error ?? {}) as SmtpError;
  const code = safeCode(e.code);
  const original = safeCode(e.originalCode);
  const status = statusCode(e.responseCode);
  if (code === 'EAUTH') return `The SMTP server refused the sign-in (${status ?? code})`;
  if (status !== null) return `The SMTP server answered ${status}`;
  if (original && TLS_CERTIFICATE.test(original))
    return `The SMTP server's certificate could not be verified (${original})`;
  if (code === 'ETLS' || original?.startsWith('ERR_SSL_'))
    return `Could not start TLS with the SMTP server (${original ?? code})`;
  if (code === 'EPROTOCOL') return 'The server did not answer as an SMTP server (EPROTOCOL)';
  if (code && NETWORK_CODES.has(code)) return `Could not connect to the SMTP server (${original ?? code})`;
  if (code === 'EENVELOPE' || code === 'EMESSAGE') return `The message could not be sent (${code})`;
  return code ? `Sending failed (${code})` : 'Sending failed';
}
