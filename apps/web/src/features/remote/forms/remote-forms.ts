import { PAGE_SIZES } from '@fleetgate/shared/constants';
import { defaultPortOf, REMOTE_PROTOCOLS, type RemoteProtocol } from '@fleetgate/shared/devices/tunnel';
import {
  portForwardBodySchema,
  REMOTE_NAME_MAX,
  remoteEntryBodySchema,
  remoteEntryUpdateSchema,
  SHARE_LINK_MINUTES_MAX,
  shareLinkBodySchema,
} from '@fleetgate/shared/schemas/remote';
import { z } from 'zod';
import type { FieldDef, FormDefinition, FormValues } from '#src/lib/forms/types';
import { api } from '#src/lib/http/client';
import { type RemoteEntryJson, remoteKeys } from '../api/remote';
import { PortForwardFormBody } from '../components/PortForwards';
import { ShareLinkFormBody } from '../components/ShareLinks';

const protocolOptions = REMOTE_PROTOCOLS.map((p) => ({ value: p, label: `protocol.${p}` }));

const FIELDS: readonly FieldDef[] = [
  { key: 'name', label: 'field.name', type: 'text', required: true, maxlength: REMOTE_NAME_MAX },
  { key: 'protocol', label: 'field.protocol', type: 'select', required: true, options: protocolOptions },
  { key: 'host', label: 'field.host', type: 'text', required: true, maxlength: 15, hint: 'field.hostHint' },
  {
    key: 'port',
    label: 'field.port',
    type: 'number',
    min: 1,
    max: 65_535,
    step: 1,
    hint: 'field.portHint',
  },
  { key: 'enabled', label: 'field.enabled', type: 'checkbox' },
];

/** An empty port is the protocol's own (product §9); the server fills it in. */
function cleaned(values: FormValues) {
  const { port, ...rest } = values;
  return port === undefined || port === null ? rest : { ...rest, port: Number(port) };
}

async function deviceChoices() {
  try {
    const response = await api.get<{ id: number; name: string; serial: string }[]>('/devices', {
      query: { fields: ['id', 'name', 'serial'], limit: PAGE_SIZES.selector, sort: 'name' },
      dedupe: false,
    });
    return response.data.map((d) => ({ value: String(d.id), label: `${d.name} (${d.serial})` }));
  } catch {
    return [];
  }
}

/**
 * 'Add remote' (product §2 dialog; POST /devices/remote-access): a service of the device (host
 * 127.0.0.1) or of a LAN host behind it, by protocol, on the protocol's port unless one is given.
 */
export async function addRemoteForm(
  preset: { device?: { id: number; name: string } } = {},
): Promise<FormDefinition> {
  const choices = await deviceChoices();
  const devices =
    preset.device && !choices.some((c) => c.value === String(preset.device!.id))
      ? [{ value: String(preset.device.id), label: preset.device.name }, ...choices]
      : choices;
  return {
    name: 'addRemote',
    ns: 'remote',
    title: { create: 'add.title' },
    endpoint: '/devices/remote-access',
    schema: remoteEntryBodySchema,
    fields: [
      {
        key: 'device_id',
        label: 'field.device',
        type: 'select',
        required: true,
        options: devices,
        optionsAreData: true,
        disabled: preset.device !== undefined,
      },
      ...FIELDS,
    ],
    defaults: {
      device_id: preset.device ? String(preset.device.id) : undefined,
      name: '',
      protocol: 'ssh' satisfies RemoteProtocol,
      host: '127.0.0.1',
      port: undefined,
      enabled: true,
    },
    toBody: cleaned,
    permission: 'manage_devices',
    invalidate: [remoteKeys.all],
    submitLabel: 'add.submit',
    result: { item: 'result.entry', created: 'result.created' },
    fallbackPath: '/remote/access',
  };
}

/** Editing an entry (PUT /devices/remote-access/{id}): every field but its device. */
export function editRemoteForm(entry: RemoteEntryJson): FormDefinition {
  return {
    name: 'editRemote',
    ns: 'remote',
    title: { create: 'edit.title', edit: 'edit.title' },
    endpoint: `/devices/remote-access/${entry.id}`,
    method: 'PUT',
    schema: remoteEntryUpdateSchema,
    fields: FIELDS,
    defaults: {
      name: entry.name,
      protocol: entry.protocol,
      host: entry.host,
      port: entry.port === defaultPortOf(entry.protocol) ? undefined : entry.port,
      enabled: entry.enabled,
    },
    toBody: (values) => {
      const body = cleaned(values) as Record<string, unknown>;
      // An emptied port goes back to the protocol's own.
      if (!('port' in body)) body.port = defaultPortOf(values.protocol as RemoteProtocol) ?? entry.port;
      return body;
    },
    permission: 'manage_devices',
    invalidate: [remoteKeys.all],
    result: { item: 'result.entry', created: 'result.updated', updated: 'result.updated' },
    fallbackPath: '/remote/access',
  };
}

/** The allowlist as typed (commas, spaces or lines between addresses) as the body carries it. */
const splitAddresses = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(/[\s,]+/)
        .map((part) => part.trim())
        .filter(Boolean)
    : value;

/** The port forward form's check: the shared rule, the allowlist read from its text field. */
export const portForwardFormSchema = z.preprocess(
  (values) =>
    values && typeof values === 'object'
      ? { ...(values as FormValues), allow_from: splitAddresses((values as FormValues).allow_from) ?? [] }
      : values,
  portForwardBodySchema,
);

/**
 * 'Port forward' (POST /remote/forwards): a port of the server that reaches the device's own
 * SSH or a remote entry for a while, so that OpenSSH, an SFTP client or a VNC viewer connect
 * as they are. After saving, the window shows where to connect.
 */
export function portForwardForm(target: { device_id: number } | { entry_id: number }): FormDefinition {
  return {
    name: 'portForward',
    ns: 'remote',
    title: { create: 'forward.title' },
    endpoint: '/remote/forwards',
    schema: portForwardFormSchema,
    fields: [
      {
        key: 'minutes',
        label: 'field.minutes',
        type: 'number',
        required: true,
        min: 1,
        max: 1440,
        step: 1,
        hint: 'field.minutesHint',
      },
      {
        key: 'allow_from',
        label: 'field.allowFrom',
        type: 'textarea',
        maxlength: 1000,
        hint: 'field.allowFromHint',
      },
    ],
    defaults: { ...target, minutes: 60, allow_from: '' },
    permission: 'manage_devices',
    invalidate: [remoteKeys.all],
    submitLabel: 'forward.submit',
    result: { item: 'result.forward', created: 'result.opened' },
    fallbackPath: '/remote/access',
    body: PortForwardFormBody,
  };
}

/**
 * 'Share link' (POST /remote/share-links): whoever holds the link opens this SSH or VNC entry
 * without signing in, for 1 minute to a day. After saving, the link, shown this once.
 */
export function shareLinkForm(entryId: number): FormDefinition {
  return {
    name: 'shareLink',
    ns: 'remote',
    title: { create: 'share.title' },
    endpoint: '/remote/share-links',
    schema: shareLinkBodySchema,
    fields: [
      {
        key: 'minutes',
        label: 'field.minutes',
        type: 'number',
        required: true,
        min: 1,
        max: SHARE_LINK_MINUTES_MAX,
        step: 1,
        hint: 'share.minutesHint',
      },
    ],
    defaults: { entry_id: entryId, minutes: 60 },
    permission: 'manage_devices',
    invalidate: [remoteKeys.all],
    submitLabel: 'share.submit',
    result: { item: 'result.shareLink', created: 'result.created' },
    fallbackPath: '/remote/access',
    body: ShareLinkFormBody,
  };
}
