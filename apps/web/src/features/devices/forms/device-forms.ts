import {
  actionParamsSchemas,
  CLI_COMMAND_MAX,
  DEVICE_PASSWORD_MAX,
  DEVICE_PASSWORD_MIN,
} from '@fleetgate/shared/devices/actions';
import { MONITORING } from '@fleetgate/shared/limits';
import {
  deviceDescriptionSchema,
  deviceNameSchema,
  macSchema,
  serialSchema,
} from '@fleetgate/shared/schemas/devices';
import { z } from 'zod';
import type { FieldOption, FormDefinition, FormValues, SubmitContext } from '#src/lib/forms/types';
import { deviceBatchSource } from '../action-source';
import { deviceKeys } from '../api/devices';
import type { DeviceDetail } from '../api/types';

/**
 * The device forms of product §2 (dialogs add device, add device from file, update info,
 * password manager, monitoring period, CLI), each on the shared contract of
 * `@fleetgate/shared/schemas/devices`. A response with `meta.channel` opens 'Action status'.
 */

const empty = (value: unknown) => value === '' || value === null || value === undefined;
/** An optional field: an empty input is no value. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (empty(value) ? undefined : value), schema.optional());
const companyId = z.preprocess(
  (value) => (empty(value) ? undefined : Number(value)),
  z.number({ error: 'Choose a company' }).int('Choose a company').min(1, 'Choose a company').optional(),
);

const deviceIdOf = ({ id }: SubmitContext) => Number(id);

/** The MAC address mask (product §5: F is a hex digit, upper-cased). */
export const MAC_MASK = 'FF:FF:FF:FF:FF:FF';
const withoutEmpty = (values: FormValues) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => !empty(value)));

/** 'Add device': serial and MAC, optionally a company (for users who see several), a name. */
export function addDeviceForm(companies: readonly FieldOption[] = []): FormDefinition {
  return {
    name: 'addDevice',
    ns: 'devices',
    title: { create: 'add.title' },
    endpoint: '/devices',
    schema: z.object({
      serial: serialSchema,
      mac: macSchema,
      company_id: companyId,
      name: optional(deviceNameSchema),
      description: optional(deviceDescriptionSchema),
    }),
    fields: [
      { key: 'serial', label: 'field.serial', type: 'text', required: true, maxlength: 32 },
      {
        key: 'mac',
        label: 'field.mac',
        type: 'text',
        required: true,
        placeholder: 'field.macPlaceholder',
        // product §5 masks: six hex pairs, upper-cased as typed ('001e42aabbcc' → '00:1E:42:AA:BB:CC').
        mask: MAC_MASK,
      },
      ...(companies.length > 1
        ? [{ key: 'company_id', label: 'field.company', type: 'select' as const, options: companies }]
        : []),
      { key: 'name', label: 'field.name', type: 'text', maxlength: 64 },
      { key: 'description', label: 'field.description', type: 'textarea', maxlength: 255 },
    ],
    defaults: { serial: '', mac: '', name: '', description: '' },
    permission: 'manage_devices',
    invalidate: [deviceKeys.all],
    toBody: withoutEmpty,
    result: { item: 'result.device', created: 'result.created' },
    submitLabel: 'add.submit',
  };
}

/** 'Add device from file': a CSV of serial, mac[, name, description, model]; one result per row. */
export function importDevicesForm(companies: readonly FieldOption[] = []): FormDefinition {
  return {
    name: 'addDeviceFromFile',
    ns: 'devices',
    title: { create: 'import.title' },
    endpoint: '/devices/import',
    upload: true,
    schema: z.object({
      file: z.instanceof(File, { message: 'Not a CSV file selected' }),
      company_id: companyId,
    }),
    fields: [
      {
        key: 'file',
        label: 'field.file',
        type: 'file',
        required: true,
        accept: '.csv,text/csv',
        hint: 'import.hint',
      },
      ...(companies.length > 1
        ? [{ key: 'company_id', label: 'field.company', type: 'select' as const, options: companies }]
        : []),
    ],
    defaults: { file: null },
    permission: 'manage_devices',
    invalidate: [deviceKeys.all],
    toBody: withoutEmpty,
    leaveOpen: true,
    // The rows' outcome and its summary show in the window; the toast says the file went.
    result: { item: 'result.deviceFile', created: 'result.uploaded', own: true },
    submitLabel: 'import.submit',
  };
}

/** 'Update info': name and description; a change is also sent to the device (set_info). */
export const updateInfoForm: FormDefinition = {
  name: 'deviceUpdateInfo',
  ns: 'devices',
  title: { create: 'updateInfo.title', edit: 'updateInfo.title' },
  endpoint: ({ id }) => `/devices/${id}`,
  method: 'PUT',
  schema: z.object({ name: deviceNameSchema, description: deviceDescriptionSchema }),
  fields: [
    { key: 'name', label: 'field.name', type: 'text', required: true, maxlength: 64 },
    { key: 'description', label: 'field.description', type: 'textarea', maxlength: 255 },
  ],
  defaults: { name: '', description: '' },
  load: {
    path: (id) => `/devices/${id}`,
    toValues: (data) => {
      const device = data as DeviceDetail;
      return { name: device.name, description: device.description };
    },
  },
  permission: 'manage_devices',
  invalidate: [deviceKeys.all],
  actionStatus: deviceBatchSource,
  result: { item: 'result.deviceInfo', created: 'result.updated', updated: 'result.updated' },
};

/** 'Password manager': a device password, generated with 16 characters (product §5, §9). */
export const passwordForm: FormDefinition = {
  name: 'devicePassword',
  ns: 'devices',
  title: { create: 'password.title', edit: 'password.title' },
  endpoint: '/devices/passwords/set',
  // The device's own contract, worded for people (product §5): 'Password must be at least 8 characters'.
  schema: actionParamsSchemas.set_password,
  fields: [
    {
      key: 'password',
      label: 'field.password',
      type: 'password',
      required: true,
      minlength: DEVICE_PASSWORD_MIN,
      maxlength: DEVICE_PASSWORD_MAX,
      generate: true,
      hint: 'password.hint',
    },
  ],
  defaults: { password: '' },
  permission: 'manage_devices',
  toBody: (values, context) => ({ device_id: [deviceIdOf(context)], password: values.password }),
  actionStatus: deviceBatchSource,
  // product §8: 'Device password updated successfully'.
  result: { item: 'result.devicePassword', created: 'result.updated', updated: 'result.updated' },
  submitLabel: 'password.submit',
};

/** 'Monitoring period': how often the device reports, 60 s to 31536000 s (product §5). */
export const monitoringPeriodForm: FormDefinition = {
  name: 'deviceMonitoringPeriod',
  ns: 'devices',
  title: { create: 'monitoring.title', edit: 'monitoring.title' },
  endpoint: '/devices/actions',
  schema: actionParamsSchemas.monitoring_period,
  fields: [
    {
      key: 'period',
      label: 'field.period',
      type: 'number',
      required: true,
      min: MONITORING.minSeconds,
      max: MONITORING.maxSeconds,
      step: 1,
      addon: 's',
      hint: 'monitoring.hint',
    },
  ],
  defaults: { period: MONITORING.defaultSeconds },
  load: {
    path: (id) => `/devices/${id}`,
    toValues: (data) => ({ period: (data as DeviceDetail).monitoring_period }),
  },
  permission: 'manage_devices',
  toBody: (values, context) => ({
    action: 'monitoring_period',
    device_id: [deviceIdOf(context)],
    params: { period: values.period },
  }),
  actionStatus: deviceBatchSource,
  result: { item: 'result.monitoringPeriod', created: 'result.sent', updated: 'result.sent' },
  submitLabel: 'monitoring.submit',
};

/**
 * 'CLI': one command at a time. The window stays open on purpose (product §4 leaveOpen) and
 * says so: the run's status and output show below the command, and the next command can
 * follow without opening the window again.
 */
export const cliForm: FormDefinition = {
  name: 'deviceCli',
  ns: 'devices',
  title: { create: 'cli.title', edit: 'cli.title' },
  endpoint: '/devices/actions',
  schema: actionParamsSchemas.cli,
  fields: [
    {
      key: 'command',
      label: 'field.command',
      type: 'text',
      required: true,
      maxlength: CLI_COMMAND_MAX,
      placeholder: 'cli.placeholder',
    },
  ],
  defaults: { command: '' },
  permission: 'manage_devices',
  toBody: (values, context) => ({
    action: 'cli',
    device_id: [deviceIdOf(context)],
    params: { command: values.command },
  }),
  leaveOpen: true,
  note: 'cli.stays',
  statusInline: true,
  actionStatus: deviceBatchSource,
  result: { item: 'result.command', created: 'result.sent', updated: 'result.sent' },
  submitLabel: 'cli.submit',
};
