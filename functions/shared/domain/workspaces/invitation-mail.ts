import type { OutgoingMail } from '../ports';
import type { Invitation } from './invitation';

/**
 * The invitation's mail: plain text, so nothing a workspace's name holds can become markup. The link leads to the
 * dashboard's invitation page, which accepts it for the person signed in there.
 */
export function invitationMail(invitation: Invitation, workspaceName: string, acceptUrl: string): OutgoingMail {
  const expires = new Date(invitation.expiresAt).toUTCString();
  return {
    to: invitation.email,
    subject: `You are invited to ${workspaceName}`,
    text: [
      `${invitation.invitedBy.email} invites you to the workspace ${workspaceName} as ${invitation.role === 'admin' || invitation.role === 'owner' ? 'an' : 'a'} ${invitation.role}.`,
      '',
      `Accept the invitation, signed in as ${invitation.email}:`,
      acceptUrl,
      '',
      `The link works once, until ${expires}. If you did not expect this mail, ignore it.`,
    ].join('\n'),
  };
}

/** The dashboard's page for one invitation: `<dashboard>/invitations/<token>`. */
export function acceptUrlOf(dashboardUrl: string, token: string): string {
  return new URL(`invitations/${token}`, dashboardUrl.endsWith('/') ? dashboardUrl : `${dashboardUrl}/`).href;
}
