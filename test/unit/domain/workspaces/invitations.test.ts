import { InvalidRequest } from '../../../../functions/shared/domain/errors';
import {
  emailKeyOf,
  hashInvitationToken,
  isExpired,
  isInvitationIdShaped,
  isTokenShaped,
  newInvitationId,
  newInvitationToken,
  toInvitationView,
  type Invitation,
} from '../../../../functions/shared/domain/workspaces/invitation';
import { acceptUrlOf, invitationMail } from '../../../../functions/shared/domain/workspaces/invitation-mail';
import { invitationRequestSchema, workspacePatchSchema } from '../../../../functions/shared/domain/workspaces/people-requests';
import { parseOrRefuse } from '../../../../functions/shared/domain/request-parsing';

const invitation: Invitation = {
  id: 'inv_AAAAAAAAAAAAAAAA',
  workspaceId: 'acct_1',
  email: 'Zoë.Müller@Example.com',
  emailKey: 'zoë.müller@example.com',
  role: 'admin',
  invitedBy: { userId: 'u1', email: 'ana@example.com' },
  createdAt: '2026-11-25T12:00:00.000Z',
  expiresAt: '2026-12-02T12:00:00.000Z',
};

describe('invitation tokens', () => {
  it('are 32 random bytes (43 base64url characters), stored only as their SHA-256, never twice the same', () => {
    const tokens = Array.from({ length: 50 }, () => newInvitationToken());
    for (const { token, tokenHash } of tokens) {
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      expect(isTokenShaped(token)).toBe(true);
      expect(tokenHash).toBe(hashInvitationToken(token));
      expect(tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(tokenHash).not.toContain(token);
    }
    expect(new Set(tokens.map(({ token }) => token)).size).toBe(50);
  });

  it('refuse anything of another shape before any read: guesses, ids, hashes, padding, unicode', () => {
    const { token, tokenHash } = newInvitationToken();
    for (const guess of ['', 'a', token.slice(1), `${token}=`, `${token}a`, tokenHash, newInvitationId(), `${token.slice(0, 42)}é`, `${token.slice(0, 42)}/`]) {
      expect(isTokenShaped(guess)).toBe(false);
    }
    expect(isInvitationIdShaped(newInvitationId())).toBe(true);
    expect(isInvitationIdShaped(token)).toBe(false);
  });

  it('expire at their time exactly, whatever TTL has done yet', () => {
    const expiresAtMs = Date.parse(invitation.expiresAt);
    expect(isExpired(invitation, expiresAtMs - 1)).toBe(false);
    expect(isExpired(invitation, expiresAtMs)).toBe(true);
  });

  it('bind to the email case-insensitively and never show the token or its hash', () => {
    expect(emailKeyOf('  ZOË.müller@EXAMPLE.com ')).toBe(invitation.emailKey);
    expect(Object.keys(toInvitationView(invitation)).sort()).toEqual(['createdAt', 'email', 'expiresAt', 'id', 'invitedBy', 'role']);
  });
});

describe('the invitation mail', () => {
  it('is plain text to the invited address, with the dashboard\'s link to the token\'s page', () => {
    const { token } = newInvitationToken();
    const url = acceptUrlOf('https://d111.cloudfront.net/app/', token);
    expect(url).toBe(`https://d111.cloudfront.net/app/invitations/${token}`);
    expect(acceptUrlOf('http://localhost:3000/app', token)).toBe(`http://localhost:3000/app/invitations/${token}`);
    const mail = invitationMail(invitation, 'Équipe Ünïcode', url);
    expect(mail.to).toBe(invitation.email);
    expect(mail.subject).toBe('You are invited to Équipe Ünïcode');
    expect(mail.text).toContain('ana@example.com invites you to the workspace Équipe Ünïcode as an admin.');
    expect(mail.text).toContain(url);
  });
});

describe('people requests', () => {
  const refusal = (schema: Parameters<typeof parseOrRefuse>[0], body: unknown) => {
    try {
      parseOrRefuse(schema, body);
      return undefined;
    } catch (error) {
      if (error instanceof InvalidRequest) return error.message;
      throw error;
    }
  };

  it('take an email and a known role, trimming the email', () => {
    expect(parseOrRefuse(invitationRequestSchema(), { email: ' bo@example.com ', role: 'viewer' })).toEqual({ email: 'bo@example.com', role: 'viewer' });
    expect(refusal(invitationRequestSchema(), { email: 'bo@example.com', role: 'superuser' })).toBe('role must be one of owner, admin, member, viewer');
    for (const email of ['bo', 'bo@', '@example.com', 'a b@example.com', 42, `${'a'.repeat(250)}@example.com`]) {
      expect(refusal(invitationRequestSchema(), { email, role: 'member' })).toBe('email must be an email address of at most 254 characters');
    }
  });

  it('take a workspace name of 1 to 100 characters, without line breaks that would reach a mail\'s subject', () => {
    expect(parseOrRefuse(workspacePatchSchema(), { name: '  Équipe 北京  ' })).toEqual({ name: 'Équipe 北京' });
    for (const name of ['', '   ', 'a'.repeat(101), 'Acme\r\nBcc: x@evil.example', 'tab\there', null]) {
      expect(refusal(workspacePatchSchema(), { name })).toBe('name must be 1 to 100 characters, not only spaces');
    }
  });
});
