import type { Duplex } from 'node:stream';

/**
 * Answers a WebSocket upgrade the server will not take with a bare HTTP status, before any
 * WebSocket exists: the tunnel and the terminal bridge refuse this way (401, 403, 404, ...).
 */
export function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
