import {
  DEVICE_SELF_HOST,
  defaultPortOf,
  REMOTE_DEFAULT_PORTS,
  type RemoteProtocol,
  STREAM_OPEN_SECONDS,
} from '@fleetgate/shared/devices/tunnel';
import type {
  RemoteEntryBody,
  RemoteEntryListQuery,
  RemoteEntryUpdate,
  RemoteSessionListQuery,
} from '@fleetgate/shared/schemas/remote';
import { badRequest, conflict, notFound } from '#src/http/errors';
import { audited, recordAudit } from '../audit/audit.service';
import { commandsService } from '../devices/commands.service';
import { devicesRepository } from '../devices/devices.repository';
import { scopeOf } from '../policy/scope';
import { spendData } from '../resources/data-usage.service';
import { resourcesRepository } from '../resources/resources.repository';
import { callerAudit, type ServiceContext } from '../service-context';
import { readRecording } from './recording';
import { remoteRepository } from './remote.repository';
import type { StreamTarget, TunnelHub, TunnelStream } from './tunnel-hub';

/** A device a remote session may reach: in the caller's scope. */
export type RemoteDevice = { id: number; serial: string; company_id: number; name: string };

/** What a session reaches and how: recorded in the access history. */
export type SessionTarget = StreamTarget & {
  protocol: RemoteProtocol;
  entryId?: number | null;
  login?: string | null;
  /** The share link it was opened with (share-links.ts). */
  shareLinkId?: string | null;
};

/** How often a live session's bytes are written and spent from the company's data. */
export const METER_INTERVAL_MS = 15_000;

export const NOT_ENOUGH_DATA = 'Not enough data: the company has no data left for remote access';

/**
 * The sessions open on this server, so that they can be ended from outside: an admin, or a
 * change of the opener's access (remote-watch.ts re-checks them against `ctx`).
 */
export type LiveSession = {
  id: string;
  ctx: ServiceContext;
  deviceId: number;
  shareLinkId: string | null;
  end(reason: string): void;
};

/** Anything open on a user's behalf that must close when they lose the right to it. */
export type WatchedAccess = Pick<LiveSession, 'ctx' | 'deviceId' | 'end'>;

/** A request's target: a device's own service (its SSH port unless `port` says) or a remote entry. */
export type TargetRequest = {
  device_id?: number | undefined;
  entry_id?: number | undefined;
  port?: number | undefined;
};
const live = new Map<string, LiveSession>();
/** Sessions being closed in the history: shutdown waits for them before the database closes. */
const closing = new Set<Promise<void>>();

/** Opening a session is an action on the device (docs/decisions.md, Remote access). */
export const REMOTE_SESSION_PERMISSIONS = ['view_device_remote_access', 'manage_devices'] as const;

/** Data left to a company, in bytes. */
async function remainingData(ctx: ServiceContext, companyId: number) {
  const rows = await resourcesRepository.balancesOf(ctx.db, [companyId]);
  return rows.find((r) => r.type === null)?.balance ?? 0;
}

async function entryInScope(ctx: ServiceContext, id: number) {
  const entry = await remoteRepository.findEntry(ctx.db, scopeOf(ctx.caller), id);
  if (!entry) throw notFound('Remote entry');
  return entry;
}

/** A session of the caller's scope by its id (a uuid; anything else is no session). */
const sessionInScope = async (ctx: ServiceContext, id: string) =>
  /^[0-9a-f-]{36}$/i.test(id) ? remoteRepository.findSession(ctx.db, scopeOf(ctx.caller), id) : undefined;

const entryAudit = (ctx: ServiceContext, action: string, companyId: number, id: number, details: object) =>
  callerAudit(ctx, {
    action,
    companyId,
    targetType: 'remote_entry',
    targetId: id,
    details: details as Record<string, unknown>,
  });

/**
 * Remote access (docs/device-protocol.md §7, docs/remote-access.md): the entries users open,
 * the streams devices open for them, and the history of every session with its bytes, which
 * are spent from the company's data. Access first: the device must be in the caller's scope.
 */
export const remoteService = {
  async device(ctx: ServiceContext, deviceId: number): Promise<RemoteDevice> {
    const found = Number.isInteger(deviceId)
      ? await devicesRepository.findInScope(ctx.db, scopeOf(ctx.caller), deviceId)
      : undefined;
    if (!found) throw notFound('Device');
    return { id: found.id, serial: found.serial, company_id: found.company_id, name: found.name };
  },

  /** Refuses a new session or forward once the company has no data left. */
  async checkData(ctx: ServiceContext, device: RemoteDevice) {
    if ((await remainingData(ctx, device.company_id)) <= 0) throw badRequest(NOT_ENOUGH_DATA);
  },

  /** Whether the caller reaches the device (scope), without loading it for display. */
  async reaches(ctx: ServiceContext, deviceId: number) {
    return Boolean(await devicesRepository.findInScope(ctx.db, scopeOf(ctx.caller), deviceId));
  },

  /**
   * What a session or forward reaches: a remote entry (which must be enabled), or a device's
   * own service on `port` (SSH by default). A device or entry out of the caller's scope is
   * not found.
   */
  async resolveTarget(ctx: ServiceContext, request: TargetRequest, protocol: RemoteProtocol = 'ssh') {
    if (request.entry_id !== undefined) {
      const entry = await entryInScope(ctx, request.entry_id);
      if (!entry.enabled) throw conflict('The remote entry is disabled');
      const device = await this.device(ctx, entry.device_id);
      return {
        device,
        target: { host: entry.host, port: entry.port, protocol: entry.protocol, entryId: entry.id },
        entryName: entry.name as string | null,
      };
    }
    const device = await this.device(ctx, request.device_id ?? Number.NaN);
    const port = request.port ?? defaultPortOf(protocol) ?? REMOTE_DEFAULT_PORTS.ssh;
    return {
      device,
      target: { host: DEVICE_SELF_HOST, port, protocol, entryId: null as number | null },
      entryName: null as string | null,
    };
  },

  /**
   * Asks the device for a stream to `target` with a durable `open_stream` command (short TTL,
   * audited as the caller's) and answers the stream once the device connects it. Refused when
   * the company has no data left; a device that refuses (no such service) or is away fails
   * the wait with its reason.
   */
  async openStream(
    ctx: ServiceContext,
    hub: TunnelHub,
    device: RemoteDevice,
    target: StreamTarget,
  ): Promise<TunnelStream> {
    await this.checkData(ctx, device);
    // Devices may reach the server at another address than browsers do (a private APN).
    const expected = hub.expect(device, target, ctx.config.tunnelUrl ?? ctx.baseUrl);
    const batch = await commandsService.create(
      ctx,
      [{ id: device.id, companyId: device.company_id }],
      'open_stream',
      expected.params,
      STREAM_OPEN_SECONDS,
    );
    hub.watch(batch.batchId, expected.id);
    return expected.opened;
  },

  /**
   * Records a session over an open stream and meters it: every METER_INTERVAL_MS and at the
   * end its new bytes are added to the row and spent from the company's data. `end` is how
   * the session is closed from outside (an admin, a lost right). Answers the session's id and
   * `finish`, which the bridge calls once when the session ends, with how it ended.
   */
  async recordSession(
    ctx: ServiceContext,
    device: RemoteDevice,
    target: SessionTarget,
    /** What is metered: one stream, or the sum of several (a web page's). */
    stream: Pick<TunnelStream, 'bytes'>,
    end: (reason: string) => void,
  ) {
    const userId = ctx.caller.principal.id;
    const id = await remoteRepository.startSession(ctx.db, {
      companyId: device.company_id,
      deviceId: device.id,
      entryId: target.entryId ?? null,
      userId,
      actorUserId: ctx.caller.actor?.id ?? null,
      protocol: target.protocol,
      host: target.host,
      port: target.port,
      login: target.login ?? null,
      shareLinkId: target.shareLinkId ?? null,
    });
    const counted = { to: 0, from: 0 };
    const meter = async () => {
      const now = stream.bytes();
      const to = now.to_device - counted.to;
      const from = now.from_device - counted.from;
      if (to + from === 0) return;
      counted.to = now.to_device;
      counted.from = now.from_device;
      await remoteRepository.addBytes(ctx.db, id, to, from);
      await spendData(ctx, {
        companyId: device.company_id,
        deviceId: device.id,
        purpose: 'remote_access',
        bytes: to + from,
      });
    };
    const metering = setInterval(() => {
      meter().catch((error: unknown) =>
        ctx.log.warn({ err: error, session: id }, 'remote session metering failed'),
      );
    }, METER_INTERVAL_MS);
    metering.unref();
    live.set(id, { id, ctx, deviceId: device.id, shareLinkId: target.shareLinkId ?? null, end });
    let finished = false;
    return {
      id,
      /** Called once the host key is known (SSH). */
      hostKey: (fingerprint: string) => remoteRepository.setHostKey(ctx.db, id, fingerprint),
      /** Marks the session as recorded (its terminal output is kept for replay). */
      recorded: () => remoteRepository.markRecorded(ctx.db, id),
      finish(reason: string) {
        if (finished) return;
        finished = true;
        clearInterval(metering);
        live.delete(id);
        const done = (async () => {
          try {
            await meter();
            await remoteRepository.endSession(ctx.db, id, reason);
          } catch (error) {
            ctx.log.warn({ err: error, session: id }, 'remote session could not be closed in the history');
          }
        })();
        closing.add(done);
        void done.finally(() => closing.delete(done));
      },
    };
  },

  /** Trust on first use (as OpenSSH's known_hosts): the first key seen is pinned; another is refused. */
  async verifyHostKey(ctx: ServiceContext, device: RemoteDevice, target: StreamTarget, fingerprint: string) {
    const pinned = await remoteRepository.pinKey(ctx.db, device.id, target.host, target.port, fingerprint);
    return pinned === fingerprint;
  },

  async sessions(ctx: ServiceContext, query: RemoteSessionListQuery) {
    return remoteRepository.listSessions(ctx.db, scopeOf(ctx.caller), query, {
      ...(query.device_id ? { deviceId: query.device_id } : {}),
      ...(query.entry_id ? { entryId: query.entry_id } : {}),
      ...(query.active ? { active: query.active === 'true' } : {}),
    });
  },

  /** A session of the caller's scope that was recorded: its recording to replay. */
  async recording(ctx: ServiceContext, id: string) {
    const session = await sessionInScope(ctx, id);
    const file = session?.recorded ? readRecording(ctx.config.dataDir, id) : undefined;
    if (!file) throw notFound('Recording');
    return file;
  },

  /** Ends a live session of the caller's scope (product: an admin ends someone's session). */
  async endSession(ctx: ServiceContext, id: string) {
    const session = await sessionInScope(ctx, id);
    if (!session) throw notFound('Session');
    if (session.ended_at) throw badRequest('The session has already ended');
    await recordAudit(
      ctx.db,
      callerAudit(ctx, {
        action: 'remote.session_end',
        companyId: session.company_id,
        targetType: 'remote_session',
        targetId: id,
      }),
    );
    const running = live.get(id);
    if (running) running.end('Ended by an administrator');
    // A session no server runs any more (a restart) is closed in the history all the same.
    else await remoteRepository.endSession(ctx.db, id, 'Ended by an administrator');
    return { id };
  },

  /** The sessions open on this server (the access watch, shutdown, tests). */
  live: (): LiveSession[] => [...live.values()],

  /**
   * Ends every live session (the server is stopping) and resolves once each is written to
   * the history: a session leaves the live set as its stream closes, a tick or two later.
   */
  async drain(reason: string) {
    for (const session of live.values()) session.end(reason);
    const until = Date.now() + 2000;
    while (live.size > 0 && Date.now() < until) await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([...closing]);
  },

  async entries(ctx: ServiceContext, query: RemoteEntryListQuery) {
    return remoteRepository.listEntries(ctx.db, scopeOf(ctx.caller), query, {
      ...(query.device_id ? { deviceId: query.device_id } : {}),
      ...(query.protocol?.length ? { protocol: query.protocol } : {}),
    });
  },

  entry: (ctx: ServiceContext, id: number) => entryInScope(ctx, id),

  async createEntry(ctx: ServiceContext, input: RemoteEntryBody) {
    const device = await this.device(ctx, input.device_id);
    const values = {
      deviceId: device.id,
      name: input.name,
      protocol: input.protocol,
      host: input.host,
      port: input.port ?? defaultPortOf(input.protocol)!,
      enabled: input.enabled,
    };
    const id = await audited(
      ctx.db,
      (tx) => remoteRepository.insertEntry(tx, values),
      (created) => entryAudit(ctx, 'remote.entry_create', device.company_id, created, { ...values }),
    );
    return entryInScope(ctx, id);
  },

  async updateEntry(ctx: ServiceContext, id: number, input: RemoteEntryUpdate) {
    const entry = await entryInScope(ctx, id);
    const protocol = input.protocol ?? entry.protocol;
    const changes = {
      ...input,
      // A new protocol brings its own port unless one is given.
      ...(input.protocol && input.port === undefined && input.protocol !== entry.protocol
        ? { port: defaultPortOf(input.protocol) ?? entry.port }
        : {}),
    };
    if (protocol === 'tcp' && changes.port === undefined && entry.protocol !== 'tcp')
      throw badRequest('Port is required for plain TCP', 'port');
    if (!Object.keys(changes).length) throw badRequest('Change at least one field');
    await audited(
      ctx.db,
      (tx) => remoteRepository.updateEntry(tx, id, changes),
      () => entryAudit(ctx, 'remote.entry_update', entry.company_id, id, { changes }),
    );
    return entryInScope(ctx, id);
  },

  async removeEntry(ctx: ServiceContext, id: number) {
    const entry = await entryInScope(ctx, id);
    await audited(
      ctx.db,
      (tx) => remoteRepository.deleteEntry(tx, id),
      () => entryAudit(ctx, 'remote.entry_delete', entry.company_id, id, { name: entry.name }),
    );
    return { id };
  },
};
