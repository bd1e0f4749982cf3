import { deviceChannels } from '@fleetgate/shared/devices/events';
import type { SocketIdentity } from './channels';

/** The database channel the access triggers notify (migration 0014_access_changes). */
export const ACCESS_CHANNEL = 'fg_access';

/** One change of who may reach what, as the database announces it. */
export type AccessChange =
  | { kind: 'session'; id: string }
  | { kind: 'user' | 'role' | 'company' | 'device'; id: number };

const KINDS = { s: 'session', u: 'user', r: 'role', c: 'company', d: 'device' } as const;

/** Reads a trigger's payload ('u:12', 's:{uuid}', ...); undefined for anything else. */
export function parseAccessChange(payload: string): AccessChange | undefined {
  const match = /^([surcd]):(.{1,100})$/.exec(payload);
  if (!match) return undefined;
  const kind = KINDS[match[1] as keyof typeof KINDS];
  if (kind === 'session') return { kind, id: match[2]! };
  const id = Number(match[2]);
  return Number.isSafeInteger(id) ? { kind, id } : undefined;
}

/** What the server keeps per socket beyond its identity, to match changes against. */
export type WatchedSocket = SocketIdentity & {
  /** The impersonator's role, whose permissions the impersonation rule reads. */
  actorRoleId: number | null;
};

/**
 * Whether a change may alter what this socket's holder reaches. A company change (moved
 * subtree, MFA duty, deletion) can narrow any company channel anywhere in the tree, so it
 * concerns every socket; the rest concern the sockets of that session, user, role holder,
 * or listeners of that device.
 */
export function concerns(change: AccessChange, socket: WatchedSocket, rooms: ReadonlySet<string>): boolean {
  switch (change.kind) {
    case 'session':
      return socket.sessionId === change.id;
    case 'user':
      return socket.principal.id === change.id || socket.actorUserId === change.id;
    case 'role':
      return socket.principal.role.id === change.id || socket.actorRoleId === change.id;
    case 'company':
      return true;
    case 'device':
      return rooms.has(deviceChannels.device(change.id));
  }
}
