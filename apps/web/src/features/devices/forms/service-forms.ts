import {
  activateServiceBodySchema,
  activateServicesBodySchema,
  moveDeviceResourcesBodySchema,
} from '@fleetgate/shared/schemas/resources';
import { z } from 'zod';
import { RESOURCE_CHANGE_KEYS } from '#src/features/resources/api/resources';
import type { FieldDef, FormDefinition, FormValues } from '#src/lib/forms/types';
import { deviceKeys } from '../api/devices';
import {
  type DeviceServiceJson,
  fetchResourceTypes,
  type ResourceTypeJson,
  serviceKeys,
} from '../api/services';
import { MoveDeviceResourcesForm } from '../components/MoveDeviceResourcesForm';
import { dataPackTypes, type ServiceKind, type ServicePreset, serviceTypeOptions } from '../utils/services';

/**
 * 'Manage services' checks the body's rules plus which kind is chosen; the kind itself is not
 * sent (the type's name says it to the server).
 */
const manageServicesSchema = activateServiceBodySchema.extend({
  kind: z.enum(['service', 'data_pack']).optional(),
});

const kindOf = (values: FormValues): ServiceKind => (values.kind === 'data_pack' ? 'data_pack' : 'service');

/**
 * 'Manage services' and 'device pack' (product §2 device dialogs): one form that activates a
 * credit or a management pack of the device's company on the device (POST
 * /devices/{id}/services), optionally renewing from the company's credits when it ends, or
 * gives the device a connection data pack (kept in its data packs; the service stays as it
 * is), offered as a kind of its own. The 'device pack' form is the same one offering
 * management packs only. A refusal ('Not enough credits: 0 left') comes back on the type's field.
 */
export function manageServicesForm(
  types: readonly ResourceTypeJson[],
  preset: ServicePreset = {},
): FormDefinition {
  const options = serviceTypeOptions(types, preset);
  const title = preset.pack ? 'services.pack' : 'services.manage';
  const kind: FieldDef[] =
    dataPackTypes(types, preset).length === 0
      ? []
      : [
          {
            key: 'kind',
            label: 'services.field.kind',
            type: 'radio',
            options: [
              { value: 'service', label: 'services.kind.service' },
              { value: 'data_pack', label: 'services.kind.dataPack' },
            ],
            hint: 'services.field.kindHint',
          },
        ];
  return {
    name: preset.pack ? 'devicePack' : 'deviceServices',
    ns: 'devices',
    title: { create: title, edit: title },
    endpoint: ({ id }) => `/devices/${id}/services`,
    schema: manageServicesSchema,
    fields: [
      ...kind,
      {
        key: 'credit_type_name',
        label: preset.pack ? 'services.field.pack' : 'services.field.type',
        type: 'select',
        required: true,
        // A type of the other kind is cleared when the kind changes.
        options: (values) => serviceTypeOptions(types, preset, kindOf(values)),
        optionsAreData: true,
        nothingFound: 'services.field.noTypes',
        hint: preset.pack ? 'services.field.packHint' : 'services.field.typeHint',
      },
      {
        key: 'auto_renew',
        label: 'services.autoRenew',
        type: 'checkbox',
        hint: 'services.autoRenewHint',
        // A data pack leaves the service as it is: there is nothing to renew.
        depends: (values) => kindOf(values) === 'service',
      },
    ],
    defaults: {
      ...(kind.length > 0 ? { kind: 'service' } : {}),
      credit_type_name: options.length === 1 ? options[0]!.value : undefined,
      auto_renew: false,
    },
    // The switch starts where the device's service stands, so that sending it changes nothing unasked.
    load: {
      path: (id) => `/devices/${id}/services`,
      toValues: (data) => ({ auto_renew: (data as DeviceServiceJson).auto_renew }),
    },
    permission: 'update_device_credit_status',
    invalidate: [serviceKeys.all, ...RESOURCE_CHANGE_KEYS],
    toBody: (values) => ({
      credit_type_name: values.credit_type_name,
      ...(kindOf(values) === 'service' ? { auto_renew: Boolean(values.auto_renew) } : {}),
    }),
    // product §8: the server's 'Service activated successfully', these words when it has none.
    result: { item: 'result.service', created: 'result.activated', updated: 'result.activated' },
    submitLabel: 'services.activate',
  };
}

/** The form by name (manifest, full-page route): the types the caller may name, read first. */
export async function loadManageServicesForm(preset: ServicePreset = {}): Promise<FormDefinition> {
  const types = await fetchResourceTypes().catch((): ResourceTypeJson[] => []);
  return manageServicesForm(types, preset);
}

/**
 * 'Manage services' on the devices table's selection (POST /devices/services): one unit of a
 * credit or management pack per device, each from its own company, all or none (a refusal,
 * 'Not enough credits: 1 left', changes nothing). Auto-renew is only switched on, never off:
 * left unticked, each device keeps its own setting.
 */
export function bulkServicesForm(
  types: readonly ResourceTypeJson[],
  deviceIds: readonly number[],
): FormDefinition {
  const options = serviceTypeOptions(types);
  return {
    name: 'devicesServices',
    ns: 'devices',
    title: { create: 'services.manage' },
    endpoint: '/devices/services',
    schema: activateServicesBodySchema,
    fields: [
      {
        key: 'credit_type_name',
        label: 'services.field.type',
        type: 'select',
        required: true,
        options,
        optionsAreData: true,
        nothingFound: 'services.field.noTypes',
        hint: 'services.field.typeHint',
      },
      {
        key: 'auto_renew',
        label: 'services.bulk.autoRenew',
        type: 'checkbox',
        hint: 'services.bulk.autoRenewHint',
      },
    ],
    // device_id is no field: it travels with the values and is checked by the same schema.
    defaults: {
      device_id: [...deviceIds],
      credit_type_name: options.length === 1 ? options[0]!.value : undefined,
      auto_renew: false,
    },
    permission: 'update_device_credit_status',
    invalidate: [deviceKeys.all, ...RESOURCE_CHANGE_KEYS],
    toBody: (values) => ({
      device_id: values.device_id,
      credit_type_name: values.credit_type_name,
      ...(values.auto_renew ? { auto_renew: true } : {}),
    }),
    result: { item: 'result.service', created: 'result.activated' },
    note: 'services.bulk.note',
    submitLabel: 'services.activate',
  };
}

/**
 * 'Move device resources' (product §2 dialog; POST /devices/credits/move, move_devices_credits):
 * a credit's remaining whole days or one unused connection data pack from the source device
 * (the record's id, preset) to a target device. Refusals come back on 'resource' or 'target';
 * another tenant's device is not found.
 */
export const moveDeviceResourcesForm: FormDefinition = {
  name: 'moveDeviceResources',
  ns: 'devices',
  title: { create: 'move.title', edit: 'move.title' },
  endpoint: '/devices/credits/move',
  schema: moveDeviceResourcesBodySchema,
  // Drawn by the body: the keys the server's refusals are matched to.
  fields: [
    { key: 'source', label: 'move.source', type: 'select', required: true },
    { key: 'target', label: 'move.target', type: 'select', required: true },
    { key: 'resource', label: 'move.resource', type: 'radio', required: true },
  ],
  permission: 'move_devices_credits',
  // Both devices' services, status and lists, and the credit history.
  invalidate: [deviceKeys.all, ...RESOURCE_CHANGE_KEYS],
  result: { item: 'result.deviceResources', created: 'result.moved', updated: 'result.moved' },
  submitLabel: 'move.submit',
  body: MoveDeviceResourcesForm,
};
