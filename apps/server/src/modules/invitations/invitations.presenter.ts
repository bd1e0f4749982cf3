import type { InvitationPreview, InvitationSent } from '@fleetgate/shared/schemas/invitations';
import type { MailResult } from '../mail/mail.service';
import type { InvitationRow } from './invitations.repository';

/** What the inviter reads after the e-mail went out, or did not. */
const MAIL_MESSAGES: Record<MailResult['status'], string> = {
  sent: 'Invitation sent successfully',
  unsent:
    'Invitation created. SMTP is not configured, so the e-mail was not sent: its link is in the mail log.',
  failed:
    'Invitation created, but the e-mail could not be sent. Check the SMTP configuration, then resend it.',
  suppressed: 'Invitation created, but the address is on the suppression list, so no e-mail was sent.',
};

/** A sent (or resent) invitation with how its e-mail fared, and the words for it. */
export function presentSentInvitation(
  sent: { invitation: InvitationRow; mailStatus: MailResult['status'] },
  how: 'created' | 'resent',
): { data: InvitationSent; message: string } {
  return {
    data: { ...sent.invitation, mail_status: sent.mailStatus },
    message:
      how === 'resent' && sent.mailStatus === 'sent'
        ? 'Invitation resent successfully'
        : MAIL_MESSAGES[sent.mailStatus],
  };
}

/** What the accept page shows of a usable invitation. */
export function presentInvitationPreview(row: InvitationRow): InvitationPreview {
  return {
    kind: row.kind,
    email: row.email,
    company_name: row.company_name,
    role_title: row.role_title ?? '',
    invited_by: row.invited_by,
    expires_at: row.expires_at,
  };
}
