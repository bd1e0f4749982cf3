import { z } from 'zod';
import { hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE } from '../limits';
import { emailSchema, newPasswordSchema } from './auth';
import { companyNameSchema } from './companies';
import { idFilter, listQuerySchema } from './list';
import { body, fields, instantOrText, oneOf, text, whole } from './messages';

/** Days an invitation link works (single-use, expiring). */
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

/** newUser (product §3): POST /users/invite with company_id, email, role (a role id). */
export const inviteUserBodySchema = body({
  company_id: id('Company'),
  email: emailSchema,
  role: id('Role'),
});
export type InviteUserBody = z.input<typeof inviteUserBodySchema>;

/** inviteNewCompany (product §3): POST /distributors/invitations with email. */
export const inviteDistributorBodySchema = body({ email: emailSchema });

/** A display name: any text (stored as typed, shown as text), no control or invisible characters. */
export const usernameSchema = text('Name')
  .trim()
  .min(1, 'Name is required')
  .max(100, 'Name must be at most 100 characters')
  .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);

/** Accepting an invitation: a password, optionally a name, and the new company's name for a distributor. */
export const acceptInvitationBodySchema = body({
  password: newPasswordSchema,
  username: usernameSchema.optional(),
  company_name: companyNameSchema.optional(),
});
export type AcceptInvitationBody = z.input<typeof acceptInvitationBodySchema>;

/** What the accept page shows before the invitee sets a password. */
export const invitationPreviewSchema = fields('Invitation', {
  kind: oneOf(INVITATION_KINDS, 'Kind'),
  email: text('Email'),
  company_name: text('Company name'),
  role_title: text('Role title'),
  invited_by: text('Invited by').nullable(),
  expires_at: instantOrText('Expires at'),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** A row of users.invitations. */
export const invitationSchema = fields('Invitation', {
  id: whole('Id'),
  kind: oneOf(INVITATION_KINDS, 'Kind'),
  email: text('Email'),
  company_id: whole('Company id'),
  company_name: text('Company name'),
  role_id: whole('Role id').nullable(),
  role_title: text('Role title').nullable(),
  status: oneOf(INVITATION_STATUSES, 'Status'),
  invited_by: text('Invited by').nullable(),
  created_at: instantOrText('Created at'),
  expires_at: instantOrText('Expires at'),
  last_sent_at: instantOrText('Last sent at'),
  send_count: whole('Send count'),
  accepted_at: instantOrText('Accepted at').nullable(),
  revoked_at: instantOrText('Revoked at').nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** What inviting answers: the invitation and what became of its e-mail. */
export const invitationSentSchema = invitationSchema.extend({
  mail_status: oneOf(['sent', 'unsent', 'failed', 'suppressed'], 'Mail status'),
});
export type InvitationSent = z.infer<typeof invitationSentSchema>;

/** What accepting an invitation answers: the address to sign in with and the company joined. */
export const invitationAcceptedSchema = fields('Result', {
  email: text('Email'),
  company_id: whole('Company id'),
});

/** GET /invitations: the list parameters, one company's, one status, one kind. */
export const invitationListQuerySchema = listQuerySchema.extend({
  company_id: idFilter('Company').optional(),
  status: oneOf(INVITATION_STATUSES, 'Status').optional(),
  kind: oneOf(INVITATION_KINDS, 'Kind').optional(),
});
export type InvitationListQuery = z.infer<typeof invitationListQuerySchema>;
