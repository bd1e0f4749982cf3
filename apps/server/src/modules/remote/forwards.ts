import { randomUUID } from 'node:crypto';
import { type AddressInfo, BlockList, createServer, isIPv4, type Server, type Socket } from 'node:net';
import type { RemoteProtocol } from '@fleetgate/shared/devices/tunnel';
import type { PortForward, PortForwardBody } from '@fleetgate/shared/schemas/remote';
import { notFound } from '#src/http/errors';
import { recordAudit } from '../audit/audit.service';
import { callerAudit, type ServiceContext } from '../service-context';
import { type RemoteDevice, remoteService, type WatchedAccess } from './remote.service';
import type { TunnelHub } from './tunnel-hub';

type Forward = {
  id: string;
  ctx: ServiceContext;
  device: RemoteDevice;
  target: { host: string; port: number; protocol: RemoteProtocol; entryId: number | null };
  entryName: string | null;
  server: Server;
  port: number;
  allow: BlockList | null;
  allowText: string[];
  createdAt: Date;
  expiresAt: Date;
  timer: NodeJS.Timeout;
  connections: Set<Socket>;
};

/** Forwards open on this server: a listener lives in the process that opened it. */
const forwards = new Map<string, Forward>();

function blockListOf(cidrs: readonly string[]): BlockList | null {
  if (!cidrs.length) return null;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, bits] = cidr.split('/');
    if (bits === undefined) list.addAddress(address!, isIPv4(address!) ? 'ipv4' : 'ipv6');
    else list.addSubnet(address!, Number(bits), isIPv4(address!) ? 'ipv4' : 'ipv6');
  }
  return list;
}

/** An address as the allowlist compares it: IPv4 mapped into IPv6 (`::ffff:10.0.0.1`) as IPv4. */
function plainAddress(address: string | undefined) {
  if (!address) return undefined;
  return address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

function present(forward: Forward, host: string): PortForward {
  return {
    id: forward.id,
    device_id: forward.device.id,
    device_name: forward.device.name,
    entry_id: forward.target.entryId,
    entry_name: forward.entryName,
    protocol: forward.target.protocol,
    target_host: forward.target.host,
    target_port: forward.target.port,
    host,
    port: forward.port,
    allow_from: forward.allowText,
    connections: forward.connections.size,
    user_email: forward.ctx.caller.principal.email,
    created_at: forward.createdAt,
    expires_at: forward.expiresAt,
  };
}

/**
 * Port forwards (docs/decisions.md, Remote access): a TCP listener on the server, on a port
 * the system picks, that carries each connection through a new tunnel stream to a device's
 * service, so unmodified clients (OpenSSH's `ssh` and `sftp`, a VNC viewer) reach it. Each
 * connection is a session of the access history, metered like any. A forward closes at its
 * expiry, when revoked, and when its opener loses the right to it (remote-watch.ts).
 */
export function createForwards(deps: { hub: TunnelHub; bindHost: string }) {
  /** Where a client connects: the bind address, or the console's own host name when bound to every interface. */
  const hostFor = (ctx: ServiceContext) =>
    deps.bindHost === '0.0.0.0' || deps.bindHost === '::' ? new URL(ctx.baseUrl).hostname : deps.bindHost;

  function close(forward: Forward, reason: string) {
    if (!forwards.delete(forward.id)) return;
    clearTimeout(forward.timer);
    forward.server.close();
    for (const socket of forward.connections) socket.destroy();
    forward.ctx.log.info({ forward: forward.id, reason }, 'port forward closed');
  }

  async function carry(forward: Forward, socket: Socket) {
    const address = plainAddress(socket.remoteAddress);
    if (forward.allow && !(address && forward.allow.check(address, isIPv4(address) ? 'ipv4' : 'ipv6'))) {
      socket.destroy();
      return;
    }
    forward.connections.add(socket);
    socket.once('close', () => forward.connections.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.pause();
    try {
      const stream = await remoteService.openStream(forward.ctx, deps.hub, forward.device, forward.target);
      if (socket.destroyed) return stream.socket.destroy();
      let reason = '';
      const session = await remoteService.recordSession(
        forward.ctx,
        forward.device,
        forward.target,
        stream,
        (why) => {
          reason = why;
          socket.destroy();
          stream.socket.destroy();
        },
      );
      stream.socket.once('close', () => {
        socket.destroy();
        session.finish(reason || 'The connection closed');
      });
      // The client gone, nothing more can reach it: the stream ends with it.
      socket.once('close', () => {
        reason ||= 'The client closed the connection';
        stream.socket.destroy();
      });
      stream.socket.on('error', () => socket.destroy());
      socket.pipe(stream.socket).pipe(socket);
      socket.resume();
    } catch (error) {
      forward.ctx.log.info({ err: error, forward: forward.id }, 'port forward connection refused');
      socket.destroy();
    }
  }

  return {
    async open(ctx: ServiceContext, input: PortForwardBody) {
      const { device, target, entryName } = await remoteService.resolveTarget(ctx, input);
      await remoteService.checkData(ctx, device);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, deps.bindHost, () => resolve());
      });
      const createdAt = new Date();
      const forward: Forward = {
        id: randomUUID(),
        ctx,
        device,
        target,
        entryName,
        server,
        port: (server.address() as AddressInfo).port,
        allow: blockListOf(input.allow_from),
        allowText: [...input.allow_from],
        createdAt,
        expiresAt: new Date(createdAt.getTime() + input.minutes * 60_000),
        timer: setTimeout(() => close(forward, 'expired'), input.minutes * 60_000),
        connections: new Set(),
      };
      forward.timer.unref();
      server.on('connection', (socket) => void carry(forward, socket));
      forwards.set(forward.id, forward);
      try {
        await recordAudit(
          ctx.db,
          callerAudit(ctx, {
            action: 'remote.forward_open',
            companyId: device.company_id,
            targetType: 'device',
            targetId: device.id,
            details: { port: forward.port, target, minutes: input.minutes, allow_from: input.allow_from },
          }),
        );
      } catch (error) {
        close(forward, 'audit failed');
        throw error;
      }
      return present(forward, hostFor(ctx));
    },

    /** The forwards of devices the caller reaches (this server's). */
    async list(ctx: ServiceContext, deviceId?: number) {
      const shown: PortForward[] = [];
      for (const forward of forwards.values()) {
        if (deviceId !== undefined && forward.device.id !== deviceId) continue;
        if (!(await remoteService.reaches(ctx, forward.device.id))) continue;
        shown.push(present(forward, hostFor(ctx)));
      }
      return shown;
    },

    async revoke(ctx: ServiceContext, id: string) {
      const forward = forwards.get(id);
      if (!forward || !(await remoteService.reaches(ctx, forward.device.id))) throw notFound('Port forward');
      await recordAudit(
        ctx.db,
        callerAudit(ctx, {
          action: 'remote.forward_close',
          companyId: forward.device.company_id,
          targetType: 'device',
          targetId: forward.device.id,
          details: { port: forward.port },
        }),
      );
      close(forward, 'revoked');
      return { id };
    },

    /** What the access watch re-checks: each forward with its opener. */
    watched(): WatchedAccess[] {
      return [...forwards.values()].map((f) => ({
        ctx: f.ctx,
        deviceId: f.device.id,
        end: () => close(f, 'access revoked'),
      }));
    },

    closeAll() {
      for (const forward of [...forwards.values()]) close(forward, 'server stopping');
    },
  };
}

export type Forwards = ReturnType<typeof createForwards>;
