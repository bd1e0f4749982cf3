import { EMAIL_MAX } from '@fleetgate/shared/limits';
import {
  SMTP_SECURITY,
  type SmtpConfig,
  smtpConfigBodySchema,
  smtpTestBodySchema,
  suppressBodySchema,
} from '@fleetgate/shared/schemas/mail';
import { z } from 'zod';
import type { FormDefinition, FormValues } from '#src/lib/forms/types';
import { fetchSmtpConfig, mailKeys } from '../api/mail';

/**
 * The 'SMTP configuration' dialog (product §2): built from the saved configuration, whose
 * password is never sent back; an empty password keeps it.
 */
export function buildSmtpForm(current: SmtpConfig | null): FormDefinition {
  return {
    name: 'smtpConfiguration',
    ns: 'mail',
    title: { create: 'smtp.dialogTitle' },
    endpoint: '/email-smtp',
    method: 'PUT',
    schema: smtpConfigBodySchema,
    fields: [
      {
        key: 'host',
        label: 'smtp.host',
        type: 'text',
        required: true,
        maxlength: 253,
        placeholder: 'smtp.hostPlaceholder',
      },
      { key: 'port', label: 'smtp.port', type: 'number', required: true, min: 1, max: 65535, step: 1 },
      {
        key: 'security',
        label: 'smtp.security',
        type: 'select',
        required: true,
        options: SMTP_SECURITY.map((value) => ({ value, label: `security.${value}` })),
      },
      {
        key: 'allow_invalid_certificate',
        label: 'smtp.allowInvalidCertificate',
        type: 'checkbox',
        depends: { key: 'security', value: 'none', not: true },
      },
      { key: 'username', label: 'smtp.username', type: 'text', maxlength: 255 },
      {
        key: 'password',
        label: 'smtp.password',
        type: 'password',
        maxlength: 1024,
        ...(current?.password_set ? { hint: 'smtp.passwordKeep' } : {}),
        depends: (values) => !values.clear_password,
      },
      ...(current?.password_set
        ? [{ key: 'clear_password', label: 'smtp.clearPassword', type: 'checkbox' as const }]
        : []),
      { key: 'from_address', label: 'smtp.fromAddress', type: 'email', required: true, maxlength: EMAIL_MAX },
      { key: 'from_name', label: 'smtp.fromName', type: 'text', maxlength: 120 },
    ],
    defaults: {
      host: current?.host ?? '',
      port: current?.port ?? 587,
      security: current?.security ?? 'starttls',
      allow_invalid_certificate: current?.allow_invalid_certificate ?? false,
      username: current?.username ?? '',
      password: '',
      ...(current?.password_set ? { clear_password: false } : {}),
      from_address: current?.from_address ?? '',
      from_name: current?.from_name ?? '',
    },
    toBody: (values: FormValues) => {
      const { password, ...rest } = values;
      return password ? { ...rest, password } : rest;
    },
    permission: 'super_admin',
    invalidate: [mailKeys.all],
    result: { item: 'result.smtp', created: 'result.saved' },
    fallbackPath: '/email-smtp',
  };
}

/** The form as the registry serves it: built from what is saved now. */
export async function smtpForm(): Promise<FormDefinition> {
  return buildSmtpForm(await fetchSmtpConfig());
}

/** 'Send test message': through the saved configuration. */
export const smtpTestForm: FormDefinition = {
  name: 'smtpTest',
  ns: 'mail',
  title: { create: 'test.title' },
  endpoint: '/email-smtp/test',
  schema: smtpTestBodySchema,
  fields: [
    { key: 'to', label: 'test.to', type: 'email', required: true, maxlength: EMAIL_MAX, hint: 'test.hint' },
  ],
  defaults: { to: '' },
  permission: 'super_admin',
  invalidate: [mailKeys.all],
  // The server says 'Test message sent to …'; product §8's pattern names the recipient too.
  result: { item: 'result.testMessage', created: 'result.sent', own: true },
  submitLabel: 'test.submit',
  fallbackPath: '/email-smtp',
};

/** Adds an address to the suppression list. */
export const suppressEmailForm: FormDefinition = {
  name: 'suppressEmail',
  ns: 'mail',
  title: { create: 'suppressed.addTitle' },
  endpoint: '/suppressed-emails',
  schema: suppressBodySchema,
  fields: [
    { key: 'email', label: 'suppressed.email', type: 'email', required: true, maxlength: EMAIL_MAX },
    { key: 'reason', label: 'suppressed.reason', type: 'textarea', required: true, maxlength: 500 },
  ],
  defaults: { email: '', reason: '' },
  permission: 'super_admin',
  invalidate: [mailKeys.all],
  result: { item: 'result.suppressedAddress', created: 'result.added' },
  submitLabel: 'suppressed.addSubmit',
  fallbackPath: '/email-smtp',
};

/**
 * removeFromSuppresionList (product §3: DELETE /suppressed-emails/{email}): opened with the
 * address as its id, so `/forms/removeFromSuppresionList/{email}` works too. It has no
 * fields: the page itself is the question, and its note says what is lost. The list's row
 * action asks through the confirm helper instead (SuppressionList).
 */
export const removeFromSuppresionListForm: FormDefinition = {
  name: 'removeFromSuppresionList',
  ns: 'mail',
  title: { create: 'suppressed.removeTitle', edit: 'suppressed.removeTitleFor' },
  endpoint: ({ id }) => `/suppressed-emails/${encodeURIComponent(id ?? '')}`,
  method: 'DELETE',
  schema: z.object({}),
  fields: [],
  toBody: () => undefined,
  permission: 'super_admin',
  invalidate: [mailKeys.all],
  note: 'suppressed.removeNote',
  result: { item: 'result.suppressedAddress', created: 'result.removed' },
  submitLabel: 'suppressed.removeSubmit',
  fallbackPath: '/email-smtp',
};
