import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FORMS } from '#src/app/features';
import { initI18n } from '#src/i18n/i18n';
import { isSuccessMessage, successMessage } from '../http/results';
import { formNames, loadForm, provideForms } from './registry';
import { trimValues } from './text';
import type { FormDefinition } from './types';

/**
 * Every registered form checks its fields with human words (product §5: 'Password must be at
 * least 8 characters', 'Command is required'), never zod's own ('Too small: expected string
 * to have >=8 characters'). The shared schemas are walked in packages/shared; this walks
 * the forms as the console uses them, console-only wrappers included.
 */

const ZOD_DEFAULTS = [
  'Too small',
  'Too big',
  'Invalid input',
  'Invalid option',
  'Invalid string',
  'Expected',
  'Required',
];
// The console's forms, as app/ hands them to the registry.
provideForms(FORMS);
const FORM_NAMES = formNames();
const NO_MESSAGE = '\u0000no message of its own\u0000';
const BAD = [undefined, null, '', '   ', 'x'.repeat(100_001), 42, -1, 1.5, true, [], {}];

beforeAll(async () => {
  await initI18n();
  await i18next.changeLanguage('en');
  // Some forms read options when they are built (companies, the SMTP configuration): none here.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ success: true, data: [] }))),
  );
});
afterAll(() => vi.unstubAllGlobals());

function rawMessages(definition: FormDefinition): string[] {
  const found = new Set<string>();
  for (const field of definition.fields) {
    for (const bad of BAD) {
      const values = trimValues({ ...definition.defaults, [field.key]: bad }, definition.fields);
      const issues = [
        ...(definition.schema.safeParse(values, { error: () => NO_MESSAGE }).error?.issues ?? []),
        ...(definition.schema.safeParse(values).error?.issues ?? []),
      ];
      for (const issue of issues) {
        if (issue.code === 'unrecognized_keys') continue;
        if (issue.message === NO_MESSAGE || ZOD_DEFAULTS.some((d) => issue.message.startsWith(d)))
          found.add(
            `${issue.path.join('.')} [${issue.code}] ${issue.message === NO_MESSAGE ? '(no message)' : issue.message}`,
          );
      }
    }
  }
  return [...found];
}

describe('form messages are human wording (product §5)', () => {
  it('finds the forms', () =>
    expect(FORM_NAMES).toEqual(expect.arrayContaining(['devicePassword', 'deviceCli', 'newUser'])));

  it.each(FORM_NAMES)('%s words every check of every field', async (name) => {
    const definition = (await loadForm(name))!;
    expect(rawMessages(definition)).toEqual([]);
  });

  it.each(FORM_NAMES)(
    "%s toasts product §8's '{Item} {verb} successfully' in its own words",
    async (name) => {
      const definition = (await loadForm(name))!;
      const { item, created, updated } = definition.result;
      const words = { ...definition.defaults, to: 'ops@example.test', email: 'jane@x.test', id: '7' };
      const t = (key: string) => i18next.t(key, { ns: definition.ns, ...words });
      for (const verb of [created, updated ?? created]) {
        const text = successMessage(t(item), t(verb));
        expect(isSuccessMessage(text), text).toBe(true);
      }
      expect(successMessage(t(item), t(created))).not.toBe('Saved successfully');
    },
  );

  it("the console's other success words follow product §8's pattern too", () => {
    const keys = [
      'companies:delete.done',
      'roles:delete.done',
      'roles:editor.saved',
      'tags:delete.done',
      'devices:tags.done',
      'invitations:result.revoke',
      'invitations:result.resend',
      'notices:result.remove',
      'notices:result.enable',
      'notices:result.disable',
      'impersonation:grant.done',
      'impersonation:request.sent',
    ];
    for (const key of keys) expect(isSuccessMessage(i18next.t(key)), `${key}: ${i18next.t(key)}`).toBe(true);
    const bulk = [
      'reboot',
      'export_backup',
      'export_event_log',
      'export_troubleshoot',
      'monitoring_period',
      'unregister',
      'reset_identity',
    ];
    for (const action of bulk) {
      for (const count of [1, 3]) {
        const text = successMessage(
          i18next.t(`devices:bulk.item.${action}`, { count }),
          i18next.t(`devices:bulk.verb.${action}`),
        );
        expect(isSuccessMessage(text), text).toBe(true);
      }
    }
    for (const [item, verb] of [
      ['mail:result.smtp', 'mail:result.removed'],
      ['mail:result.suppressedAddress', 'mail:result.removed'],
    ] as const) {
      const text = successMessage(i18next.t(item), i18next.t(verb));
      expect(isSuccessMessage(text), text).toBe(true);
    }
  });

  it("says 'Password must be at least 8 characters' and 'Command is required'", async () => {
    const password = (await loadForm('devicePassword'))!;
    expect(password.schema.safeParse({ password: 'short' }).error?.issues.map((i) => i.message)).toEqual([
      'Password must be at least 8 characters',
    ]);
    const cli = (await loadForm('deviceCli'))!;
    expect(cli.schema.safeParse({ command: '' }).error?.issues.map((i) => i.message)).toEqual([
      'Command is required',
    ]);
  });
});
