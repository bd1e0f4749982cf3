import type { Permission } from '@fleetgate/shared/permissions';
import type { FieldDef, FormValues } from './types';

/**
 * Whether a field shows: its permission is held (product §5) and its dependency holds
 * (product §3 depends). Hidden fields are cleared by the form (product §4 Modal).
 */
export function isFieldVisible(
  field: FieldDef,
  values: FormValues,
  can: (p: Permission) => boolean,
): boolean {
  if (field.permission && !can(field.permission)) return false;
  const depends = field.depends;
  if (!depends) return true;
  if (typeof depends === 'function') return depends(values);
  const actual = values[depends.key];
  let holds: boolean;
  if (!('value' in depends)) holds = Array.isArray(actual) ? actual.length > 0 : Boolean(actual);
  else if (Array.isArray(depends.value)) holds = depends.value.includes(actual);
  else holds = actual === depends.value;
  return depends.not ? !holds : holds;
}

/** The value a field is cleared to when it hides. */
export function clearedValue(field: FieldDef): unknown {
  if (field.type === 'checkbox') return false;
  if (field.type === 'list') return [];
  if (field.type === 'file' || field.type === 'datetime' || field.type === 'date') return null;
  return undefined;
}
