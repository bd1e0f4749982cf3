import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { INVISIBLE_NAME_MESSAGE, INVISIBLE_TEXT_MESSAGE } from '../limits';
import { profileBodySchema } from './account';
import { brandSchema } from './brand';
import { editCompanyBodySchema, newCompanyBodySchema } from './companies';
import { approveDeviceBody, registerDeviceBody, updateDeviceBody } from './devices';
import { acceptInvitationBodySchema } from './invitations';
import { smtpConfigBodySchema } from './mail';
import { roleBodySchema, roleUpdateBodySchema } from './roles';
import { editTagBodySchema, newTagBodySchema } from './tags';
import { createTokenBodySchema } from './tokens';

/** The attack of the finding ('Attk\u202eelif.exe' shows as 'Attkexe.file') and a hidden zero-width space. */
const SPOOFS = ['Attk\u202eelif.exe', 'Acme\u200bCorp'];

type Case = {
  what: string;
  schema: z.ZodType;
  body: (value: string) => Record<string, unknown>;
  field: string;
};

const mac = '00:1E:42:12:34:56';
const smtp = { host: 'smtp.example.com', port: 587, security: 'starttls', from_address: 'fleet@example.com' };

/** Every name the console accepts, in the body of the request that carries it. */
const NAMES: Case[] = [
  {
    what: 'device name (add)',
    schema: registerDeviceBody,
    body: (name) => ({ serial: '1100000001', mac, name }),
    field: 'name',
  },
  { what: 'device name (edit)', schema: updateDeviceBody, body: (name) => ({ name }), field: 'name' },
  {
    what: 'device model (add)',
    schema: registerDeviceBody,
    body: (model) => ({ serial: '1100000001', mac, model }),
    field: 'model',
  },
  {
    what: 'company name (add)',
    schema: newCompanyBodySchema,
    body: (name) => ({ name, parent_id: 1 }),
    field: 'name',
  },
  { what: 'company name (edit)', schema: editCompanyBodySchema, body: (name) => ({ name }), field: 'name' },
  {
    what: 'username (profile)',
    schema: profileBodySchema,
    body: (username) => ({ username }),
    field: 'username',
  },
  {
    what: 'username (invitation)',
    schema: acceptInvitationBodySchema,
    body: (username) => ({ password: 'long-enough-1', username }),
    field: 'username',
  },
  {
    what: 'company name (invitation)',
    schema: acceptInvitationBodySchema,
    body: (company_name) => ({ password: 'long-enough-1', company_name }),
    field: 'company_name',
  },
  { what: 'tag name (add)', schema: newTagBodySchema, body: (name) => ({ name }), field: 'name' },
  { what: 'tag name (edit)', schema: editTagBodySchema, body: (name) => ({ name }), field: 'name' },
  {
    what: 'role title',
    schema: roleBodySchema,
    body: (title) => ({ company_id: 1, name: 'field_ops', title, permissions: [] }),
    field: 'title',
  },
  { what: 'role title (edit)', schema: roleUpdateBodySchema, body: (title) => ({ title }), field: 'title' },
  { what: 'role name (edit)', schema: roleUpdateBodySchema, body: (name) => ({ name }), field: 'name' },
  {
    what: 'token name',
    schema: createTokenBodySchema,
    body: (name) => ({ name, scopes: ['devices:read'] }),
    field: 'name',
  },
  {
    what: 'mail sender name',
    schema: smtpConfigBodySchema,
    body: (from_name) => ({ ...smtp, from_name }),
    field: 'from_name',
  },
  {
    what: 'brand company name',
    schema: brandSchema,
    body: (company_name) => ({ company_name }),
    field: 'company_name',
  },
  { what: 'brand app name', schema: brandSchema, body: (app_name) => ({ app_name }), field: 'app_name' },
];

/** Multi-line text beside the names: line breaks stay allowed. */
const TEXTS: Case[] = [
  {
    what: 'device description',
    schema: updateDeviceBody,
    body: (description) => ({ description }),
    field: 'description',
  },
  {
    what: 'tag description',
    schema: editTagBodySchema,
    body: (description) => ({ description }),
    field: 'description',
  },
  {
    what: 'role description',
    schema: roleUpdateBodySchema,
    body: (description) => ({ description }),
    field: 'description',
  },
  {
    what: 'approved device note',
    schema: approveDeviceBody,
    body: (note) => ({ serial: '1100000001', mac, note }),
    field: 'note',
  },
];

const issuesOf = (c: Case, value: string) => {
  const result = c.schema.safeParse(c.body(value));
  return result.success
    ? []
    : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('names the console accepts refuse invisible and text-direction characters', () => {
  it.each(NAMES)('failing-name: $what', (c) => {
    for (const spoof of SPOOFS) {
      expect(issuesOf(c, spoof), JSON.stringify(spoof)).toContainEqual({
        path: c.field,
        message: INVISIBLE_NAME_MESSAGE,
      });
    }
  });

  it.each(NAMES.filter((c) => !c.what.startsWith('role name')))(
    'successful-name: $what in another script',
    (c) => {
      expect(issuesOf(c, 'Vilniaus Šilas 東京')).toEqual([]);
    },
  );

  it.each(TEXTS)('multi-line $what: line breaks pass, the spoof does not', (c) => {
    expect(issuesOf(c, 'Rack 3\nShelf 2')).toEqual([]);
    for (const spoof of SPOOFS) {
      expect(issuesOf(c, spoof)).toEqual([{ path: c.field, message: INVISIBLE_TEXT_MESSAGE }]);
    }
  });
});
