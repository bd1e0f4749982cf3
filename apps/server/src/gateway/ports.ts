import type { CommandState } from '@fleetgate/shared/devices/actions';
import type { EncodedBatch } from '../db/telemetry-copy';

/** What the gateway knows of a device on every message. */
export type DeviceIdentity = {
  id: number;
  companyId: number;
  serial: string;
  status: number;
  secretHash: string | null;
  sessionId: string | null;
};

/** A device as its authentication sees it (product §8: identity first, then monitoring and credit). */
export type DeviceCredentials = {
  id: number;
  companyId: number;
  mac: string;
  status: number;
  secretHash: string | null;
  /** Issued on first contact; it becomes `secretHash` when the device first uses it. */
  pendingSecretHash: string | null;
  monitoringEnabled: boolean;
  creditActive: boolean;
};

/** An approval not yet used (product §2 auth.devices): the serial registers itself with this MAC. */
export type OpenApproval = { id: number; mac: string; companyId: number | null };

/** One connection attempt with its product §8 code. */
export type ConnectionAttempt = {
  serial: string;
  mac?: string | null;
  deviceId?: number | null;
  companyId?: number | null;
  success: number;
  accepted: boolean;
  reason?: string | null;
  sourceAlias: string;
  sourceName?: string | null;
};

/** A device whose status or identity changed, as its channels hear of it (notify.ts). */
export type DeviceStatusRow = {
  id: number;
  companyId: number;
  status: number;
  lastSeenAt: Date | null;
  model: string | null;
  firmware: string | null;
};

/** What a hello is compared with (handlers/hello.ts). */
export type DeviceProfile = {
  serial: string;
  model: string | null;
  originalModel: string | null;
  firmware: string | null;
  imei: string | null;
  hostname: string | null;
  sims: Record<string, unknown>[];
  agent: string | null;
  esim: boolean;
  bootId: string | null;
  secretHash: string | null;
};

/** What a hello stores. */
export type HelloValues = Omit<DeviceProfile, 'serial' | 'secretHash'> & { lastSeenAt: Date };

/** A durable command as its delivery and its channels see it. */
export type DeviceCommand = {
  id: string;
  seq: number;
  deviceId: number;
  batchId: string;
  action: string;
  params: Record<string, unknown>;
  status: string;
  output: string | null;
  error: string | null;
  createdAt: Date;
  expiresAt: Date;
};

/** A device's reply to a command (handlers/reply.ts). */
export type CommandReply = {
  status: CommandState;
  output?: string | null;
  error?: string | null;
  result?: Record<string, unknown> | null;
  file?: { name: string; type: string; data: string } | null;
};

/** A device event to store (activity tab). */
export type NewDeviceEvent = {
  deviceId: number;
  companyId: number;
  type: string;
  severity: string;
  message: string;
  data: Record<string, unknown> | null;
  at?: Date;
};

/** A stored device event, as its channel hears of it. */
export type StoredDeviceEvent = { id: number; at: Date; type: string; severity: string; message: string };

/** Device authentication (device-auth.ts). */
export type AuthStore = {
  credentials(serial: string): Promise<DeviceCredentials | undefined>;
  openApproval(serial: string): Promise<OpenApproval | undefined>;
  /** Registers an approved serial into its company and uses the approval up; undefined when taken. */
  registerApproved(
    serial: string,
    approval: OpenApproval & { companyId: number },
  ): Promise<DeviceCredentials | undefined>;
  /** product §8 code 15: a device without credit shows as Not Activated. */
  markNotActivated(deviceId: number): Promise<void>;
  /** The issued secret becomes the only credential. */
  confirmSecret(deviceId: number, secretHash: string | null): Promise<void>;
  recordAttempt(attempt: ConnectionAttempt): Promise<void>;
};

/** Presence (handlers/presence.ts): each write answers the row when it changed something. */
export type PresenceStore = {
  presenceOf(deviceId: number): Promise<{ status: number; sessionId: string | null } | undefined>;
  markOnline(deviceId: number, conn: string | null, now: Date): Promise<DeviceStatusRow | undefined>;
  markOffline(deviceId: number, conn: string | null, now: Date): Promise<DeviceStatusRow | undefined>;
  /** Nobody is connected to an embedded broker that just started. */
  markAllOffline(): Promise<void>;
};

/** A device's hello (handlers/hello.ts). */
export type HelloStore = {
  profile(deviceId: number): Promise<DeviceProfile | undefined>;
  save(deviceId: number, values: HelloValues): Promise<DeviceStatusRow | undefined>;
  /** Keeps a first-contact secret's hash, pending until the device uses it. */
  issueSecret(deviceId: number, pendingSecretHash: string, issuedAt: Date): Promise<void>;
};

/** Durable command delivery (command-dispatcher.ts, handlers/reply.ts). */
export type CommandStore = {
  /** The device's serial and status, to address its commands and know whether it is online. */
  target(deviceId: number): Promise<{ serial: string; status: number } | undefined>;
  /** Open commands of a device in the order the device must run them. */
  open(deviceId: number): Promise<DeviceCommand[]>;
  /** Marks a command sent (first send) or counts a re-send; undefined once it has ended. */
  markSent(commandId: string): Promise<DeviceCommand | undefined>;
  devicesWithOpen(): Promise<number[]>;
  /** Open commands past their TTL become expired; answers them. */
  expireDue(): Promise<DeviceCommand[]>;
  /** Applies a reply to a command of THIS device that is still open; undefined otherwise. */
  applyReply(deviceId: number, commandId: string, reply: CommandReply): Promise<DeviceCommand | undefined>;
};

/** Telemetry batches (telemetry-writer.ts) and their retention. */
export type TelemetryStore = {
  write(batch: EncodedBatch): Promise<void>;
  /** Answers how many points went. */
  deleteOlderThan(before: Date): Promise<number>;
};

/**
 * What the gateway needs from the devices module, and all it gets: the devices module
 * implements it (modules/devices/device-store.ts) and app.ts hands it to createGateway.
 * No gateway file reads a repository; the devices module reaches the gateway only through
 * the `Gateway` it is given (ServiceContext.gateway).
 */
export type DeviceStore = {
  /** Who a serial is (inbound.ts caches it a while; the broker ACL asks afresh). */
  identity(serial: string): Promise<DeviceIdentity | undefined>;
  auth: AuthStore;
  presence: PresenceStore;
  hello: HelloStore;
  commands: CommandStore;
  telemetry: TelemetryStore;
  recordEvent(event: NewDeviceEvent): Promise<StoredDeviceEvent>;
  /** The devices list's hourly upkeep (its search stretches redrawn when uneven); true when redrawn. */
  rebalanceSearch(): Promise<boolean>;
};
