import { AwsJsonError } from './aws-json-server';
import type { UserPoolClientSpec } from './template';

/** A pool's identity provider as Cognito keeps it: its type, details (the OIDC issuer, client id and secret) and domains. */
export interface LocalIdentityProvider {
  name: string;
  type: 'OIDC' | 'SAML';
  details: Record<string, string>;
  identifiers: string[];
}

const PROVIDER_NAME = /^[^_\s][^\s]{0,30}[^_\s]$/;

/**
 * The slice of Cognito's API that manages a pool's identity providers and the app clients offering them
 * (CreateIdentityProvider, UpdateIdentityProvider, DeleteIdentityProvider, DescribeUserPoolClient,
 * UpdateUserPoolClient), kept in memory for a local run. The local sign-in page asks it which provider an email's
 * domain belongs to (providerForEmail), as the managed login pages route by the providers' identifiers.
 */
export class IdentityProviderRegistry {
  private readonly providers = new Map<string, LocalIdentityProvider>();
  private readonly offered = new Map<string, string[]>();

  constructor(
    private readonly poolId: string,
    private readonly clients: readonly UserPoolClientSpec[],
  ) {
    for (const client of clients) this.offered.set(client.id, ['COGNITO']);
  }

  handles(operation: string): boolean {
    return ['CreateIdentityProvider', 'UpdateIdentityProvider', 'DeleteIdentityProvider', 'DescribeUserPoolClient', 'UpdateUserPoolClient'].includes(operation);
  }

  handle(operation: string, input: Record<string, unknown>): unknown {
    if (input.UserPoolId !== this.poolId) throw new AwsJsonError('ResourceNotFoundException', `User pool ${String(input.UserPoolId)} does not exist.`);
    switch (operation) {
      case 'CreateIdentityProvider': {
        const name = String(input.ProviderName ?? '');
        if (!PROVIDER_NAME.test(name)) throw new AwsJsonError('InvalidParameterException', 'Invalid ProviderName.');
        if (this.providers.has(name)) throw new AwsJsonError('DuplicateProviderException', `A provider with the name ${name} already exists in this user pool.`);
        const type = input.ProviderType === 'SAML' ? 'SAML' : input.ProviderType === 'OIDC' ? 'OIDC' : undefined;
        if (!type) throw new AwsJsonError('InvalidParameterException', 'ProviderType must be OIDC or SAML here.');
        const details = Object.fromEntries(Object.entries((input.ProviderDetails ?? {}) as Record<string, unknown>).map(([key, value]) => [key, String(value)]));
        this.providers.set(name, { name, type, details, identifiers: Array.isArray(input.IdpIdentifiers) ? input.IdpIdentifiers.map(String) : [] });
        return { IdentityProvider: { UserPoolId: this.poolId, ProviderName: name, ProviderType: type } };
      }
      case 'UpdateIdentityProvider': {
        const provider = this.provider(input.ProviderName);
        if (Array.isArray(input.IdpIdentifiers)) provider.identifiers = input.IdpIdentifiers.map((identifier) => String(identifier).toLowerCase());
        return { IdentityProvider: { UserPoolId: this.poolId, ProviderName: provider.name, ProviderType: provider.type } };
      }
      case 'DeleteIdentityProvider':
        if (!this.providers.delete(this.provider(input.ProviderName).name)) throw new AwsJsonError('ResourceNotFoundException', 'Identity provider not found.');
        for (const [client, names] of this.offered) this.offered.set(client, names.filter((name) => name !== input.ProviderName));
        return {};
      case 'DescribeUserPoolClient': {
        const client = this.client(input.ClientId);
        return { UserPoolClient: { UserPoolId: this.poolId, ClientId: client.id, CallbackURLs: client.callbackUrls, LogoutURLs: client.logoutUrls, AllowedOAuthScopes: client.scopes, SupportedIdentityProviders: this.offered.get(client.id) } };
      }
      case 'UpdateUserPoolClient': {
        const client = this.client(input.ClientId);
        const names = Array.isArray(input.SupportedIdentityProviders) ? input.SupportedIdentityProviders.map(String) : ['COGNITO'];
        const unknown = names.find((name) => name !== 'COGNITO' && !this.providers.has(name));
        if (unknown) throw new AwsJsonError('InvalidParameterException', `The provider ${unknown} does not exist for User Pool ${this.poolId}`);
        this.offered.set(client.id, names);
        return { UserPoolClient: { UserPoolId: this.poolId, ClientId: client.id, SupportedIdentityProviders: names } };
      }
      default:
        throw new AwsJsonError('UnknownOperationException', `${operation} is not played locally`);
    }
  }

  /** The provider a client sends people of this email's domain to, if any (its identifiers name the domain). */
  providerForEmail(clientId: string, email: string): LocalIdentityProvider | undefined {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    const offered = this.offered.get(clientId) ?? [];
    return [...this.providers.values()].find((provider) => offered.includes(provider.name) && provider.identifiers.includes(domain));
  }

  private provider(name: unknown): LocalIdentityProvider {
    const provider = this.providers.get(String(name));
    if (!provider) throw new AwsJsonError('ResourceNotFoundException', 'Identity provider not found.');
    return provider;
  }

  private client(id: unknown): UserPoolClientSpec {
    const client = this.clients.find((candidate) => candidate.id === id);
    if (!client) throw new AwsJsonError('ResourceNotFoundException', `User pool client ${String(id)} does not exist.`);
    return client;
  }
}
