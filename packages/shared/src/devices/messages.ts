import { z } from 'zod';
import { DEVICE_ACTIONS } from './actions';

/**
 * Payloads of the device protocol, JSON in UTF-8 (docs/device-protocol.md). Unknown
 * fields are ignored, so an agent newer than the server still gets through; a known
 * field with a wrong type or out of range makes the whole message malformed (dropped).
 */

/** MAC addresses as six hex pairs, ':' or '-' separated or bare; stored upper case with ':'. */
export const MAC_PATTERN = /^(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$|^[0-9A-Fa-f]{12}$/;

export function normalizeMac(mac: string): string | null {
  const text = mac.trim();
  if (!MAC_PATTERN.test(text)) return null;
  const hex = text.replace(/[:-]/g, '').toUpperCase();
  return hex.match(/.{2}/g)!.join(':');
}

export const IMEI_PATTERN = /^\d{15}$/;

/** Wire limits per message kind (bytes); larger messages are dropped. */
export const PAYLOAD_LIMITS = {
  hello: 8 * 1024,
  status: 1024,
  state: 32 * 1024,
  event: 8 * 1024,
  /** Replies carry command output and exported files. */
  reply: 2 * 1024 * 1024,
} as const;
/** No MQTT frame may be larger than this: the connection is closed before it is buffered. */
export const MAX_FRAME_BYTES = PAYLOAD_LIMITS.reply + 16 * 1024;

const timestamp = z.union([z.iso.datetime({ offset: true }), z.number().int().min(0)]);

export const simSchema = z.object({
  slot: z.number().int().min(1).max(6),
  modem: z.number().int().min(1).max(2).optional(),
  iccid: z.string().max(22).optional(),
  imsi: z.string().max(16).optional(),
  operator: z.string().max(64).optional(),
  state: z.enum(['active', 'inserted', 'absent', 'error']).optional(),
});

/** `up/hello`: who the device is, sent after every connect once it has subscribed. */
export const helloSchema = z.object({
  serial: z.string().max(32),
  mac: z.string().max(17),
  model: z.string().trim().min(1).max(32),
  firmware: z.string().trim().min(1).max(64),
  imei: z.string().regex(IMEI_PATTERN).optional(),
  hostname: z.string().max(64).optional(),
  sims: z.array(simSchema).max(6).optional(),
  /** Monitoring period in force on the device (seconds). */
  monitoring_period: z.number().int().min(1).optional(),
  agent: z.object({ name: z.string().max(64), version: z.string().max(32) }).optional(),
  /** Changes at every boot; lets the server tell a reboot from a reconnect. */
  boot_id: z.string().max(64).optional(),
});
export type HelloMessage = z.infer<typeof helloSchema>;

/** `up/status` (retained; the last will publishes `{"state":"offline"}`). */
export const statusMessageSchema = z.object({
  state: z.enum(['online', 'offline']),
  /** Connection id the device picks per connect, the same in its online message and its will. */
  conn: z.string().max(64).optional(),
  at: timestamp.optional(),
  reason: z.string().max(64).optional(),
});
export type StatusMessage = z.infer<typeof statusMessageSchema>;

const counter = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const portSchema = z.object({
  name: z.string().max(16),
  link: z.enum(['up', 'down']),
  /** Mbit/s. */
  speed: z.number().int().min(0).max(100_000).optional(),
  duplex: z.enum(['full', 'half']).optional(),
  poe: z.boolean().optional(),
});

/**
 * `up/state`: telemetry as the monitoring configuration asks (product §3 Monitoring config,
 * units of product §9). Every key is optional; data counters only grow between resets.
 */
export const stateSchema = z.object({
  at: timestamp.optional(),
  /** Seconds since boot. */
  uptime: z
    .number()
    .int()
    .min(0)
    .max(10 * 365 * 86_400)
    .optional(),
  /** dBm (product §9). */
  signal: z.number().min(-150).max(0).optional(),
  rsrp: z.number().min(-160).max(0).optional(),
  rsrq: z.number().min(-40).max(0).optional(),
  sinr: z.number().min(-30).max(50).optional(),
  /** °C (product §9). */
  temperature: z.number().min(-60).max(150).optional(),
  network_type: z.string().max(16).optional(),
  operator: z.string().max(64).optional(),
  sim_slot: z.number().int().min(1).max(6).optional(),
  wan: z
    .object({
      type: z.enum(['mobile', 'wired', 'wifi', 'none']),
      ip: z.union([z.ipv4(), z.ipv6()]).optional(),
    })
    .optional(),
  /** Bytes received and sent on the mobile WAN since the counters were last reset. */
  data: z.object({ rx: counter, tx: counter }).optional(),
  gps: z
    .object({
      lat: z.number().min(-90).max(90),
      lon: z.number().min(-180).max(180),
      alt: z.number().min(-1000).max(20_000).optional(),
      speed: z.number().min(0).max(2000).optional(),
      satellites: z.number().int().min(0).max(64).optional(),
      fix: z.boolean().optional(),
    })
    .optional(),
  io: z
    .object({
      din: z.array(z.boolean()).max(16).optional(),
      dout: z.array(z.boolean()).max(16).optional(),
      /** Volts (product §9). */
      ain: z.array(z.number().min(-100).max(100)).max(8).optional(),
      /** Milliamperes, current loop (product §9). */
      acl: z.array(z.number().min(0).max(100)).max(8).optional(),
    })
    .optional(),
  ports: z.array(portSchema).max(64).optional(),
  cpu: z.number().min(0).max(100).optional(),
  memory: z.number().min(0).max(100).optional(),
});
export type StateMessage = z.infer<typeof stateSchema>;

export const EVENT_SEVERITIES = ['info', 'warning', 'error'] as const;

/** `up/event`: something happened on the device. */
export const eventMessageSchema = z.object({
  at: timestamp.optional(),
  type: z.string().regex(/^[a-z][a-z0-9_.]{0,63}$/),
  severity: z.enum(EVENT_SEVERITIES).default('info'),
  message: z.string().max(1000),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type EventMessage = z.infer<typeof eventMessageSchema>;

/** `down/cmd/{id}`: a command, QoS 1. The device executes each id at most once. */
export const commandMessageSchema = z.object({
  id: z.uuid(),
  /** Increases per device: the order to execute in. */
  seq: z.number().int().min(0),
  action: z.enum(DEVICE_ACTIONS),
  params: z.record(z.string(), z.unknown()),
  issued_at: z.iso.datetime({ offset: true }),
  expires_at: z.iso.datetime({ offset: true }),
});
export type CommandMessage = z.infer<typeof commandMessageSchema>;

export const REPLY_OUTPUT_MAX = 256 * 1024;

/** `up/reply/{id}`: acknowledgement, then the outcome. */
export const replySchema = z.object({
  id: z.uuid(),
  status: z.enum(['acked', 'done', 'failed']),
  output: z.string().max(REPLY_OUTPUT_MAX).optional(),
  error: z.string().max(1000).optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  file: z
    .object({
      name: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/),
      content_type: z.string().max(100),
      /** base64 */
      data: z.string().max(PAYLOAD_LIMITS.reply),
    })
    .optional(),
});
export type ReplyMessage = z.infer<typeof replySchema>;

/** `down/secret`: the per-device secret issued on first contact. */
export const secretMessageSchema = z.object({
  secret: z.string().min(32).max(128),
  issued_at: z.iso.datetime({ offset: true }),
});
export type SecretMessage = z.infer<typeof secretMessageSchema>;

/** One decoder for every message: making one per message was a visible cost at 20k msg/s. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A payload as text; undefined when it is not UTF-8. */
export function utf8Text(payload: Uint8Array): string | undefined {
  try {
    return utf8.decode(payload);
  } catch {
    return undefined;
  }
}

/** Parses a payload as JSON; null when it is not JSON (or not UTF-8). */
export function parseJson(payload: Uint8Array | string): unknown {
  const text = typeof payload === 'string' ? payload : utf8Text(payload);
  if (text === undefined) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
