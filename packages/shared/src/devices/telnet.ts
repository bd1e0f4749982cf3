/** Telnet's bytes (RFC 854 commands; options of RFC 857, 858, 1073 and 1091), for both ends of a session. */
export const IAC = 255;
export const DONT = 254;
export const DO = 253;
export const WONT = 252;
export const WILL = 251;
export const SB = 250;
export const SE = 240;

export const ECHO = 1;
export const SGA = 3;
export const TTYPE = 24;
export const NAWS = 31;
export const TTYPE_IS = 0;
export const TTYPE_SEND = 1;

export const CR = 13;
export const LF = 10;
export const NUL = 0;

/** Doubles every 0xFF so that data is never read as a command (RFC 854). */
export function escapeIac(bytes: Uint8Array): Uint8Array {
  if (!bytes.includes(IAC)) return bytes;
  const out: number[] = [];
  for (const byte of bytes) {
    out.push(byte);
    if (byte === IAC) out.push(IAC);
  }
  return Uint8Array.from(out);
}
