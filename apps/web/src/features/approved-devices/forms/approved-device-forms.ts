import { fetchCompanyOptions } from '#src/features/companies/api/companies';
import { MAC_MASK } from '#src/features/devices/forms/device-forms';
import type { FieldOption, FormDefinition, FormValues } from '#src/lib/forms/types';
import { approvalSchema, approvedKeys } from '../api/approved-devices';

const withoutEmpty = (values: FormValues) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '' && value !== undefined));

/**
 * 'Add approval' (POST /devices/authorized): a serial and MAC that register themselves into
 * the chosen company on first contact (product §2 auth.devices). Field errors of the server
 * (a serial approved or registered already) show under their fields.
 */
export async function newApprovedDeviceForm(): Promise<FormDefinition> {
  let companies: FieldOption[] = [];
  try {
    companies = await fetchCompanyOptions();
  } catch {
    // The select then offers nothing and the form says a company is required.
  }
  return {
    name: 'newApprovedDevice',
    ns: 'approved-devices',
    title: { create: 'form.title' },
    endpoint: '/devices/authorized',
    schema: approvalSchema,
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
      {
        key: 'company_id',
        label: 'field.company',
        type: 'select',
        required: true,
        options: companies,
        optionsAreData: true,
        hint: 'field.companyHint',
      },
      { key: 'note', label: 'field.note', type: 'textarea', maxlength: 200 },
    ],
    defaults: { serial: '', mac: '', company_id: undefined, note: '' },
    permission: 'super_admin',
    invalidate: [approvedKeys.all],
    toBody: withoutEmpty,
    result: { item: 'result.item', created: 'result.created' },
    submitLabel: 'form.submit',
    fallbackPath: '/auth-devices',
  };
}
