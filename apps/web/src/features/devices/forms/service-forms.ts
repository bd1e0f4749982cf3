import { activateServiceBodySchema } from '@fleetgate/shared/schemas/resources';
import { RESOURCE_CHANGE_KEYS } from '#src/features/resources/api/resources';
import type { FormDefinition } from '#src/lib/forms/types';
import {
  type DeviceServiceJson,
  fetchResourceTypes,
  type ResourceTypeJson,
  serviceKeys,
} from '../api/services';
import { type ServicePreset, serviceTypeOptions } from '../utils/services';

/**
 * 'Manage services' and 'device pack' (product §2 device dialogs): one form that activates a
 * credit or a management pack of the device's company on the device (POST
 * /devices/{id}/services), optionally renewing from the company's credits when it ends. The
 * 'device pack' form is the same one offering management packs only. A refusal ('Not enough
 * credits: 0 left') comes back on the type's field.
 */
export function manageServicesForm(
  types: readonly ResourceTypeJson[],
  preset: ServicePreset = {},
): FormDefinition {
  const options = serviceTypeOptions(types, preset);
  const title = preset.pack ? 'services.pack' : 'services.manage';
  return {
    name: preset.pack ? 'devicePack' : 'deviceServices',
    ns: 'devices',
    title: { create: title, edit: title },
    endpoint: ({ id }) => `/devices/${id}/services`,
    schema: activateServiceBodySchema,
    fields: [
      {
        key: 'credit_type_name',
        label: preset.pack ? 'services.field.pack' : 'services.field.type',
        type: 'select',
        required: true,
        options,
        optionsAreData: true,
        nothingFound: 'services.field.noTypes',
        hint: preset.pack ? 'services.field.packHint' : 'services.field.typeHint',
      },
      {
        key: 'auto_renew',
        label: 'services.autoRenew',
        type: 'checkbox',
        hint: 'services.autoRenewHint',
      },
    ],
    defaults: {
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
      auto_renew: Boolean(values.auto_renew),
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
