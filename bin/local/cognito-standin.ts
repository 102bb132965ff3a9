import { randomBytes } from 'node:crypto';
import type { AccessTokenVerifier } from '../../functions/shared/domain/ports';
import { AwsJsonError, type AwsJsonProtocol } from './aws-json-server';
import type { LocalPasskeys } from './passkeys';
import { newTotpSecret, totpMatches } from './totp';
import type { LocalUser, LocalUserDirectory } from './user-directory';

const PERSONAL_OPERATIONS = [
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'SetUserMFAPreference',
  'StartWebAuthnRegistration',
  'CompleteWebAuthnRegistration',
  'ListWebAuthnCredentials',
  'DeleteWebAuthnCredential',
];
/** Cognito's scope for a person's own user API. */
export const USER_API_SCOPE = 'aws.cognito.signin.user.admin';

/** A verified token's scopes (its signature was checked first: reading its payload is safe). */
function scopesOf(token: string): string[] {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { scope?: unknown };
    return typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  } catch {
    return [];
  }
}

/** Cognito's user pool API as the SDK sends it (AWS JSON 1.1). */
export const COGNITO_PROTOCOL: AwsJsonProtocol = { targetPrefix: 'AWSCognitoIdentityProviderService', contentType: 'application/x-amz-json-1.1' };

/**
 * The slice of Cognito's user pool API a local run needs to manage people (tests add users, an operator could too):
 * AdminCreateUser, AdminSetUserPassword, AdminGetUser and AdminUserGlobalSignOut (the provider ends the person's
 * grants: their refresh tokens stop working) on the template's pool, over the local user directory (users named by
 * their email, the pool's user name, or their `sub`); and a person enrolling an authenticator app
 * with their own access token (AssociateSoftwareToken, VerifySoftwareToken, SetUserMFAPreference), and their
 * passkeys (StartWebAuthnRegistration, CompleteWebAuthnRegistration, ListWebAuthnCredentials,
 * DeleteWebAuthnCredential: passkeys.ts, when the template's pool allows them), checked by the same verifier as the
 * authorizer's.
 */
export class CognitoStandIn {
  constructor(
    private readonly poolId: string,
    private readonly users: LocalUserDirectory,
    private readonly tokens: AccessTokenVerifier,
    private readonly signOutEverywhere: (sub: string) => Promise<void>,
    private readonly passkeys?: LocalPasskeys,
  ) {}

  /** The operations a person makes with their own access token (a page may call these, and only these). */
  static isPersonal(operation: string): boolean {
    return PERSONAL_OPERATIONS.includes(operation);
  }

  handle(operation: string, input: Record<string, unknown>): Promise<unknown> | unknown {
    if (operation in this.personal) return this.personal[operation as keyof typeof this.personal](input);
    if (input.UserPoolId !== this.poolId) throw new AwsJsonError('ResourceNotFoundException', `User pool ${String(input.UserPoolId)} does not exist.`);
    switch (operation) {
      case 'AdminCreateUser':
        return this.createUser(input);
      case 'AdminSetUserPassword':
        return this.setPassword(input);
      case 'AdminGetUser': {
        const user = this.userNamed(input.Username);
        return { Username: user.sub, UserAttributes: attributesOf(user), UserStatus: user.status, Enabled: true, UserCreateDate: Date.parse(user.createdAt) / 1000 };
      }
      case 'AdminUserGlobalSignOut':
        return this.signOutEverywhere(this.userNamed(input.Username).sub).then(() => ({}));
      default:
        throw new AwsJsonError('UnknownOperationException', `${operation} is not played locally`);
    }
  }

  /** Operations a person makes with their own access token (no pool id: the token names the pool and the user). */
  private readonly personal = {
    AssociateSoftwareToken: async (input: Record<string, unknown>) => {
      const secret = newTotpSecret();
      await this.tokenUser(input, (user) => (user.pendingTotpSecret = secret));
      return { SecretCode: secret };
    },
    VerifySoftwareToken: async (input: Record<string, unknown>) => {
      const user = await this.tokenUser(input, () => undefined);
      if (!user.pendingTotpSecret || !totpMatches(user.pendingTotpSecret, String(input.UserCode ?? ''))) throw new AwsJsonError('EnableSoftwareTokenMFAException', 'Code mismatch');
      await this.tokenUser(input, (found) => {
        found.totpSecret = found.pendingTotpSecret;
        delete found.pendingTotpSecret;
      });
      return { Status: 'SUCCESS' };
    },
    SetUserMFAPreference: async (input: Record<string, unknown>) => {
      const enabled = (input.SoftwareTokenMfaSettings as { Enabled?: unknown } | undefined)?.Enabled === true;
      await this.tokenUser(input, (user) => {
        if (enabled && !user.totpSecret) throw new AwsJsonError('InvalidParameterException', 'User has not verified software token mfa');
        user.mfaEnabled = enabled;
      });
      return {};
    },
    StartWebAuthnRegistration: async (input: Record<string, unknown>) => ({ CredentialCreationOptions: await this.passkeysOf().startRegistration(await this.tokenUser(input, () => undefined)) }),
    CompleteWebAuthnRegistration: async (input: Record<string, unknown>) => {
      await this.passkeysOf().completeRegistration(await this.tokenUser(input, () => undefined), input.Credential);
      return {};
    },
    ListWebAuthnCredentials: async (input: Record<string, unknown>) => ({ Credentials: this.passkeysOf().list(await this.tokenUser(input, () => undefined)) }),
    DeleteWebAuthnCredential: async (input: Record<string, unknown>) => {
      this.passkeysOf().delete(await this.tokenUser(input, () => undefined), input.CredentialId);
      return {};
    },
  };

  private passkeysOf(): LocalPasskeys {
    if (!this.passkeys) throw new AwsJsonError('WebAuthnNotEnabledException', 'Passkeys are not enabled for this user pool.');
    return this.passkeys;
  }

  private async tokenUser(input: Record<string, unknown>, change: (user: LocalUser) => void): Promise<LocalUser> {
    const token = typeof input.AccessToken === 'string' ? input.AccessToken : '';
    const person = token ? await this.tokens.verify(token) : undefined;
    if (!person) throw new AwsJsonError('NotAuthorizedException', 'Invalid Access Token');
    // As Cognito: a person's own user API wants the scope the client grants for it (the dashboard asks for it).
    if (!scopesOf(token).includes(USER_API_SCOPE)) throw new AwsJsonError('NotAuthorizedException', 'Access Token does not have required scopes');
    const user = this.users.update(person.sub, change);
    if (!user) throw new AwsJsonError('NotAuthorizedException', 'Invalid Access Token');
    return user;
  }

  private async createUser(input: Record<string, unknown>): Promise<unknown> {
    const attributes = (Array.isArray(input.UserAttributes) ? input.UserAttributes : []) as Array<{ Name?: unknown; Value?: unknown }>;
    const email = String(attributes.find((attribute) => attribute.Name === 'email')?.Value ?? input.Username ?? '');
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new AwsJsonError('InvalidParameterException', 'Invalid email address format.');
    const verified = attributes.find((attribute) => attribute.Name === 'email_verified')?.Value;
    const temporary = typeof input.TemporaryPassword === 'string' ? input.TemporaryPassword : randomBytes(12).toString('base64url');
    const user = await this.users.create(email, temporary, { permanent: false, emailVerified: verified === undefined ? false : String(verified) === 'true' });
    if (!user) throw new AwsJsonError('UsernameExistsException', 'An account with the given email already exists.');
    return { User: { Username: user.sub, Attributes: attributesOf(user), UserStatus: user.status, Enabled: true, UserCreateDate: Date.parse(user.createdAt) / 1000 } };
  }

  private async setPassword(input: Record<string, unknown>): Promise<unknown> {
    const user = this.userNamed(input.Username);
    if (typeof input.Password !== 'string' || input.Password.length === 0) throw new AwsJsonError('InvalidPasswordException', 'Password does not conform to policy.');
    await this.users.setPassword(user.email, input.Password, input.Permanent === true);
    return {};
  }

  private userNamed(name: unknown): LocalUser {
    const user = typeof name === 'string' ? (this.users.findByEmail(name) ?? this.users.find(name)) : undefined;
    if (!user) throw new AwsJsonError('UserNotFoundException', 'User does not exist.');
    return user;
  }
}

function attributesOf(user: LocalUser): Array<{ Name: string; Value: string }> {
  return [
    { Name: 'sub', Value: user.sub },
    { Name: 'email', Value: user.email },
    { Name: 'email_verified', Value: String(user.emailVerified) },
  ];
}
