import { createHash } from 'node:crypto';
import { Client as SshClient } from 'ssh2';
import type { ServiceContext } from '../service-context';
import { type RemoteDevice, remoteService } from './remote.service';
import type { StreamTarget, TunnelStream } from './tunnel-hub';

/** How long a device has to answer the SSH handshake and the sign-in. */
export const SSH_READY_MS = 15_000;

/** The SHA-256 fingerprint of a host key, as OpenSSH prints it. */
export const fingerprint = (key: Buffer) =>
  `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/** An SSH failure in the words the user reads. */
export function sshWords(error: Error): string {
  if (/authentication/i.test(error.message)) return 'The device refused the user name or password';
  return error.message.startsWith('The device') ? error.message : `SSH failed: ${error.message}`;
}

/**
 * Signs in to a device's SSH service over a tunnel stream, as `login`. The host key is trusted
 * on first use, as OpenSSH's known_hosts: another key later refuses the connection in words.
 * Resolves with the client once it is ready; the caller listens for its later errors.
 */
export function connectSsh(
  ctx: ServiceContext,
  device: RemoteDevice,
  target: StreamTarget,
  stream: TunnelStream,
  login: { username: string; password: string },
): Promise<{ client: SshClient; hostKey: string }> {
  return new Promise((resolve, reject) => {
    const client = new SshClient();
    let hostKey = '';
    let refused: string | undefined;
    let settled = false;
    // Stays for the client's life: an error with no listener would throw at the process.
    client.on('error', (error) => {
      if (settled) return;
      settled = true;
      client.end();
      reject(new Error(refused ?? sshWords(error)));
    });
    client.once('ready', () => {
      if (settled) return;
      settled = true;
      resolve({ client, hostKey });
    });
    client.connect({
      sock: stream.socket,
      username: login.username,
      password: login.password,
      readyTimeout: SSH_READY_MS,
      hostVerifier: (key: Buffer, verify: (valid: boolean) => void) => {
        hostKey = fingerprint(key);
        remoteService.verifyHostKey(ctx, device, target, hostKey).then(
          (same) => {
            if (!same)
              refused = `The device's host key has changed (now ${hostKey}); the session was stopped`;
            verify(same);
          },
          () => verify(false),
        );
      },
    });
  });
}
