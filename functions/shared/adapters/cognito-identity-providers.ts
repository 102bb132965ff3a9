import {
  type CognitoIdentityProviderClient,
  CreateIdentityProviderCommand,
  type CreateIdentityProviderCommandInput,
  DeleteIdentityProviderCommand,
  DescribeUserPoolClientCommand,
  DuplicateProviderException,
  ResourceNotFoundException,
  UpdateIdentityProviderCommand,
  UpdateUserPoolClientCommand,
  type UpdateUserPoolClientCommandInput,
  type UserPoolClientType,
} from '@aws-sdk/client-cognito-identity-provider';
import type { IdentityProviders, ProviderRegistration } from '../domain/ports';

/** The SAML assertion attribute that carries the email, as most providers (Entra ID, Okta, Google) send it. */
const SAML_EMAIL = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';

/**
 * A workspace's identity provider in the Cognito user pool, and the app clients allowed to use it: the dashboard's
 * and the command line's, so that neither is a way around it (a client without the provider would take the
 * domain's people by password). A provider with the domain as its identifier is where the pool's managed login
 * sends people of that domain.
 */
export class CognitoIdentityProviders implements IdentityProviders {
  constructor(
    private readonly client: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
    private readonly appClientIds: readonly string[],
  ) {}

  async register(registration: ProviderRegistration): Promise<void> {
    const details: Pick<CreateIdentityProviderCommandInput, 'ProviderType' | 'ProviderDetails' | 'AttributeMapping'> =
      registration.protocol === 'oidc' && registration.oidc
        ? {
            ProviderType: 'OIDC',
            ProviderDetails: {
              client_id: registration.oidc.clientId,
              client_secret: registration.oidc.clientSecret,
              oidc_issuer: registration.oidc.issuer,
              authorize_scopes: 'openid email profile',
              attributes_request_method: 'GET',
            },
            AttributeMapping: { email: 'email', email_verified: 'email_verified' },
          }
        : { ProviderType: 'SAML', ProviderDetails: { MetadataURL: registration.saml?.metadataUrl ?? '' }, AttributeMapping: { email: SAML_EMAIL } };
    try {
      await this.client.send(new CreateIdentityProviderCommand({ UserPoolId: this.userPoolId, ProviderName: registration.providerName, ...details }));
    } catch (error) {
      // The name is derived from workspace and domain: an existing one is this connection's, left by a retried call.
      if (!(error instanceof DuplicateProviderException)) throw error;
    }
  }

  async enable(providerName: string, domain: string): Promise<void> {
    await this.client.send(new UpdateIdentityProviderCommand({ UserPoolId: this.userPoolId, ProviderName: providerName, IdpIdentifiers: [domain] }));
    await this.changeClientProviders((names) => (names.includes(providerName) ? names : [...names, providerName]));
  }

  async remove(providerName: string): Promise<void> {
    await this.changeClientProviders((names) => names.filter((name) => name !== providerName));
    try {
      await this.client.send(new DeleteIdentityProviderCommand({ UserPoolId: this.userPoolId, ProviderName: providerName }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }

  /**
   * UpdateUserPoolClient resets every setting it is not given to its default (callback URLs and token lifetimes
   * included), so the client is read first and written back whole, only its providers changed.
   */
  private async changeClientProviders(change: (names: string[]) => string[]): Promise<void> {
    for (const clientId of this.appClientIds) await this.changeProvidersOf(clientId, change);
  }

  private async changeProvidersOf(clientId: string, change: (names: string[]) => string[]): Promise<void> {
    const { UserPoolClient } = await this.client.send(new DescribeUserPoolClientCommand({ UserPoolId: this.userPoolId, ClientId: clientId }));
    if (!UserPoolClient) throw new Error(`app client ${clientId} not found`);
    const current = UserPoolClient.SupportedIdentityProviders ?? [];
    const next = change(current);
    if (next.length === current.length && next.every((name, index) => name === current[index])) return;
    await this.client.send(new UpdateUserPoolClientCommand({ ...writableSettings(UserPoolClient), SupportedIdentityProviders: next }));
  }
}

/** The described client's settings that UpdateUserPoolClient accepts back (the rest are read-only facts). */
function writableSettings(described: UserPoolClientType): UpdateUserPoolClientCommandInput {
  const { ClientSecret: _secret, CreationDate: _created, LastModifiedDate: _modified, ...settings } = described;
  return settings as UpdateUserPoolClientCommandInput;
}
