import { z } from 'zod';
import { hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE } from '../limits';
import { emailSchema, newPasswordSchema } from './auth';
import { companyNameSchema } from './companies';

/** Days an invitation link works (issue 4: single-use, expiring). */
export const INVITATION_TTL_DAYS = 7;

/** Where the invitation e-mail sends the invitee: the account app's accept page. */
export const INVITATION_PATH = '/account/invitation';

export const INVITATION_STATUSES = ['pending', 'accepted', 'expired', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const INVITATION_KINDS = ['user', 'distributor'] as const;
export type InvitationKind = (typeof INVITATION_KINDS)[number];

const id = (label: string) =>
  z.coerce
    .number({ error: `${label} is required` })
    .int(`${label} is required`)
    .min(1, `${label} is required`);

/** newUser (spec §3): POST /users/invite with company_id, email, role (a role id). */
export const inviteUserBodySchema = z.strictObject({
  company_id: id('Company'),
  email: emailSchema,
  role: id('Role'),
});
export type InviteUserBody = z.input<typeof inviteUserBodySchema>;

/** inviteNewCompany (spec §3): POST /distributors/invitations with email. */
export const inviteDistributorBodySchema = z.strictObject({ email: emailSchema });

/** A display name: any text (stored as typed, shown as text), no control or invisible characters. */
export const usernameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(100, 'Name must be at most 100 characters')
  .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);

/** Accepting an invitation: a password, optionally a name, and the new company's name for a distributor. */
export const acceptInvitationBodySchema = z.strictObject({
  password: newPasswordSchema,
  username: usernameSchema.optional(),
  company_name: companyNameSchema.optional(),
});
export type AcceptInvitationBody = z.input<typeof acceptInvitationBodySchema>;

/** What the accept page shows before the invitee sets a password. */
export const invitationPreviewSchema = z.object({
  kind: z.enum(INVITATION_KINDS),
  email: z.string(),
  company_name: z.string(),
  role_title: z.string(),
  invited_by: z.string().nullable(),
  expires_at: z.date().or(z.string()),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** A row of users.invitations. */
export const invitationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(INVITATION_KINDS),
  email: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  role_id: z.number().int().nullable(),
  role_title: z.string().nullable(),
  status: z.enum(INVITATION_STATUSES),
  invited_by: z.string().nullable(),
  created_at: z.date().or(z.string()),
  expires_at: z.date().or(z.string()),
  last_sent_at: z.date().or(z.string()),
  send_count: z.number().int(),
  accepted_at: z.date().or(z.string()).nullable(),
  revoked_at: z.date().or(z.string()).nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** What inviting answers: the invitation and what became of its e-mail. */
export const invitationSentSchema = invitationSchema.extend({
  mail_status: z.enum(['sent', 'unsent', 'failed', 'suppressed']),
});
