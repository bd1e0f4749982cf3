import { z } from 'zod';
import { GENERATED_PASSWORD_LENGTH } from '../constants';
import { MONITORING } from '../limits';
import { atLeastChars, atMostChars, body, text, whole } from '../schemas/messages';
import { STREAM_OPEN_SECONDS } from './tunnel';

/**
 * Device actions: each is a durable command row first, then a message to the
 * device. Parameters are validated here for the REST body and again by the device.
 */
export const DEVICE_ACTIONS = [
  'reboot',
  'set_info',
  'set_password',
  'export_backup',
  'export_event_log',
  'export_troubleshoot',
  'monitoring_period',
  'cli',
  'open_stream',
] as const;
export type DeviceAction = (typeof DEVICE_ACTIONS)[number];

export const DEVICE_PASSWORD_MIN = 8;
export const DEVICE_PASSWORD_MAX = 64;
export const CLI_COMMAND_MAX = 1024;
export const DEVICE_NAME_MAX = 64;
export const DEVICE_DESCRIPTION_MAX = 255;

/** Parameters per action, worded as the forms show them (product §5). */
export const actionParamsSchemas = {
  reboot: body({}, 'Parameters'),
  set_info: body(
    {
      name: text('Name')
        .trim()
        .min(1, 'Name is required')
        .max(DEVICE_NAME_MAX, atMostChars('Name', DEVICE_NAME_MAX)),
      description: text('Description')
        .trim()
        .max(DEVICE_DESCRIPTION_MAX, atMostChars('Description', DEVICE_DESCRIPTION_MAX)),
    },
    'Parameters',
  ),
  set_password: body(
    {
      password: text('Password')
        .min(DEVICE_PASSWORD_MIN, atLeastChars('Password', DEVICE_PASSWORD_MIN))
        .max(DEVICE_PASSWORD_MAX, atMostChars('Password', DEVICE_PASSWORD_MAX)),
    },
    'Parameters',
  ),
  export_backup: body({}, 'Parameters'),
  export_event_log: body({}, 'Parameters'),
  export_troubleshoot: body({}, 'Parameters'),
  // product §5: monitoring intervals 60 s .. 31536000 s.
  monitoring_period: body(
    {
      period: whole('Monitoring period')
        .min(MONITORING.minSeconds, `Monitoring period must be at least ${MONITORING.minSeconds} seconds`)
        .max(MONITORING.maxSeconds, `Monitoring period must be at most ${MONITORING.maxSeconds} seconds`),
    },
    'Parameters',
  ),
  cli: body(
    {
      command: text('Command')
        .trim()
        .min(1, 'Command is required')
        .max(CLI_COMMAND_MAX, atMostChars('Command', CLI_COMMAND_MAX)),
    },
    'Parameters',
  ),
  // Remote access (docs/device-protocol.md §7): connect a stream of this id to the server's
  // tunnel at `url`, carrying TCP to host:port. Sent by the server only, never from a form.
  open_stream: body(
    {
      stream: z.uuid('Stream must be an id'),
      token: text('Token').min(20, 'Token is too short').max(100, 'Token is too long'),
      host: text('Host').min(1, 'Host is required').max(253, 'Host is too long'),
      port: whole('Port').min(1, 'Port must be at least 1').max(65_535, 'Port must be at most 65535'),
      url: z.url({ protocol: /^wss?$/, error: 'Tunnel address must be a ws: or wss: URL' }),
    },
    'Parameters',
  ),
} satisfies Record<DeviceAction, z.ZodType>;

export type ActionParams<A extends DeviceAction> = z.infer<(typeof actionParamsSchemas)[A]>;

/** How long a command waits for an offline device before it expires (seconds). */
export const ACTION_TTL_SECONDS: Record<DeviceAction, number> = {
  reboot: 24 * 3600,
  set_info: 7 * 24 * 3600,
  set_password: 24 * 3600,
  export_backup: 3600,
  export_event_log: 3600,
  export_troubleshoot: 3600,
  monitoring_period: 7 * 24 * 3600,
  cli: 10 * 60,
  open_stream: STREAM_OPEN_SECONDS,
};
export const COMMAND_TTL_MIN_SECONDS = 10;
export const COMMAND_TTL_MAX_SECONDS = 30 * 24 * 3600;

/** Actions whose parameters hold a secret: redacted in stored rows once the command ends. */
export const SECRET_PARAMS: Partial<Record<DeviceAction, readonly string[]>> = {
  set_password: ['password'],
  open_stream: ['token'],
};

/** Actions answered with a file (exports). */
export const FILE_ACTIONS: readonly DeviceAction[] = [
  'export_backup',
  'export_event_log',
  'export_troubleshoot',
];

/** Generated device passwords are 16 characters (product §5, §9). */
export const DEVICE_GENERATED_PASSWORD_LENGTH = GENERATED_PASSWORD_LENGTH;

/** Command lifecycle: pending → sent → acked → done | failed | cancelled | expired. */
export const COMMAND_STATES = ['pending', 'sent', 'acked', 'done', 'failed', 'cancelled', 'expired'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];
export const FINAL_COMMAND_STATES: readonly CommandState[] = ['done', 'failed', 'cancelled', 'expired'];
export const OPEN_COMMAND_STATES: readonly CommandState[] = ['pending', 'sent', 'acked'];

export function isFinalState(state: string): boolean {
  return (FINAL_COMMAND_STATES as readonly string[]).includes(state);
}

/** Human titles of the actions (the console translates by key; these serve logs and CSV). */
export const ACTION_TITLES: Record<DeviceAction, string> = {
  reboot: 'Reboot',
  set_info: 'Update info',
  set_password: 'Set device password',
  export_backup: 'Export backup',
  export_event_log: 'Export event log',
  export_troubleshoot: 'Export troubleshoot file',
  monitoring_period: 'Monitoring period',
  cli: 'CLI command',
  open_stream: 'Open remote access stream',
};
