import { createReadStream, createWriteStream, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** Where a session's recording is kept: one asciicast v2 file per session id. */
export function recordingPath(dataDir: string, sessionId: string): string {
  // Session ids are uuids the server made; nothing else ever names a file here.
  if (!/^[0-9a-f-]{36}$/i.test(sessionId)) throw new Error('not a session id');
  return path.join(dataDir, 'recordings', `${sessionId}.cast`);
}

/**
 * Records a terminal session as asciicast v2 (a header line, then one `[seconds, "o", text]`
 * line per output and `[seconds, "r", "COLSxROWS"]` per resize): what the user saw, never
 * what they typed, so a password typed at a prompt the device does not echo is not kept.
 */
export function recordTerminal(
  dataDir: string,
  sessionId: string,
  header: { cols: number; rows: number; title: string },
) {
  const file = recordingPath(dataDir, sessionId);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const out = createWriteStream(file, { mode: 0o600 });
  const started = performance.now();
  const decoder = new TextDecoder('utf-8');
  const at = () => Number(((performance.now() - started) / 1000).toFixed(6));
  out.write(
    `${JSON.stringify({
      version: 2,
      width: header.cols,
      height: header.rows,
      timestamp: Math.floor(Date.now() / 1000),
      title: header.title,
    })}\n`,
  );
  let closed = false;
  return {
    output(bytes: Buffer) {
      // A character split across two reads is joined, not written as two broken halves.
      const text = decoder.decode(bytes, { stream: true });
      if (!closed && text) out.write(`${JSON.stringify([at(), 'o', text])}\n`);
    },
    resize(cols: number, rows: number) {
      if (!closed) out.write(`${JSON.stringify([at(), 'r', `${cols}x${rows}`])}\n`);
    },
    close() {
      if (closed) return;
      closed = true;
      out.end();
    },
  };
}

/** A recording to send, or undefined when the session has none on this server. */
export function readRecording(dataDir: string, sessionId: string) {
  const file = recordingPath(dataDir, sessionId);
  return existsSync(file) ? createReadStream(file) : undefined;
}
