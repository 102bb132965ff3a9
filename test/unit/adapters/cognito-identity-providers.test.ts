import {
  CognitoIdentityProviderClient,
  CreateIdentityProviderCommand,
  DeleteIdentityProviderCommand,
  DescribeUserPoolClientCommand,
  DuplicateProviderException,
  ResourceNotFoundException,
  UpdateIdentityProviderCommand,
  UpdateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { CognitoIdentityProviders } from '../../../functions/shared/adapters/cognito-identity-providers';

const cognito = mockClient(CognitoIdentityProviderClient);
const providers = () => new CognitoIdentityProviders(new CognitoIdentityProviderClient({ region: 'eu-west-1' }), 'eu-west-1_pool', ['dashboardclient', 'cliclient']);
const dashboardClient = {
  UserPoolId: 'eu-west-1_pool',
  ClientId: 'dashboardclient',
  ClientName: 'dashboard',
  CallbackURLs: ['https://app.example/app/callback'],
  AllowedOAuthFlows: ['code' as const],
  AllowedOAuthScopes: ['openid', 'email'],
  AccessTokenValidity: 15,
  TokenValidityUnits: { AccessToken: 'minutes' as const },
  SupportedIdentityProviders: ['COGNITO'],
  EnableTokenRevocation: true,
  CreationDate: new Date(0),
  LastModifiedDate: new Date(0),
};

beforeEach(() => cognito.reset());

describe('a workspace\'s identity provider in the Cognito user pool', () => {
  it('is created for OIDC with the secret handed to the pool, the email mapped, and no domain routed to it yet', async () => {
    cognito.on(CreateIdentityProviderCommand).resolves({});
    await providers().register({ providerName: 'sso-abc', protocol: 'oidc', oidc: { issuer: 'https://login.acme.com', clientId: 'cid', clientSecret: 'secret' } });
    expect(cognito.commandCalls(CreateIdentityProviderCommand)[0]?.args[0].input).toEqual({
      UserPoolId: 'eu-west-1_pool',
      ProviderName: 'sso-abc',
      ProviderType: 'OIDC',
      ProviderDetails: { client_id: 'cid', client_secret: 'secret', oidc_issuer: 'https://login.acme.com', authorize_scopes: 'openid email profile', attributes_request_method: 'GET' },
      AttributeMapping: { email: 'email', email_verified: 'email_verified' },
    });
  });

  it('is created for SAML from its metadata URL, and a retry finding it there is fine', async () => {
    cognito.on(CreateIdentityProviderCommand).rejects(new DuplicateProviderException({ message: 'exists', $metadata: {} }));
    await providers().register({ providerName: 'sso-abc', protocol: 'saml', saml: { metadataUrl: 'https://idp.acme.com/metadata' } });
    expect(cognito.commandCalls(CreateIdentityProviderCommand)[0]?.args[0].input).toMatchObject({ ProviderType: 'SAML', ProviderDetails: { MetadataURL: 'https://idp.acme.com/metadata' } });
  });

  it('takes the domain\'s people once enabled, written back onto the app client with every other setting kept', async () => {
    cognito.on(UpdateIdentityProviderCommand).resolves({});
    cognito.on(DescribeUserPoolClientCommand).resolves({ UserPoolClient: dashboardClient });
    cognito.on(UpdateUserPoolClientCommand).resolves({});
    await providers().enable('sso-abc', 'acme.com');
    expect(cognito.commandCalls(UpdateIdentityProviderCommand)[0]?.args[0].input).toEqual({ UserPoolId: 'eu-west-1_pool', ProviderName: 'sso-abc', IdpIdentifiers: ['acme.com'] });
    const { CreationDate: _c, LastModifiedDate: _m, ...kept } = dashboardClient;
    expect(cognito.commandCalls(UpdateUserPoolClientCommand)[0]?.args[0].input).toEqual({ ...kept, SupportedIdentityProviders: ['COGNITO', 'sso-abc'] });
    // The command line's client too: otherwise `shortener login` would take the domain's people by password.
    expect(cognito.commandCalls(DescribeUserPoolClientCommand).map((call) => call.args[0].input.ClientId)).toEqual(['dashboardclient', 'cliclient']);
    expect(cognito.commandCalls(UpdateUserPoolClientCommand)).toHaveLength(2);
  });

  it('leaves the app client alone when it names the provider already', async () => {
    cognito.on(UpdateIdentityProviderCommand).resolves({});
    cognito.on(DescribeUserPoolClientCommand).resolves({ UserPoolClient: { ...dashboardClient, SupportedIdentityProviders: ['COGNITO', 'sso-abc'] } });
    await providers().enable('sso-abc', 'acme.com');
    expect(cognito.commandCalls(UpdateUserPoolClientCommand)).toHaveLength(0);
  });

  it('is taken off the app client before it is deleted, and one already gone is fine', async () => {
    cognito.on(DescribeUserPoolClientCommand).resolves({ UserPoolClient: { ...dashboardClient, SupportedIdentityProviders: ['COGNITO', 'sso-abc'] } });
    cognito.on(UpdateUserPoolClientCommand).resolves({});
    cognito.on(DeleteIdentityProviderCommand).rejects(new ResourceNotFoundException({ message: 'gone', $metadata: {} }));
    await providers().remove('sso-abc');
    expect(cognito.commandCalls(UpdateUserPoolClientCommand).map((call) => call.args[0].input.SupportedIdentityProviders)).toEqual([['COGNITO'], ['COGNITO']]);
    expect(cognito.commandCalls(DeleteIdentityProviderCommand)[0]?.args[0].input).toEqual({ UserPoolId: 'eu-west-1_pool', ProviderName: 'sso-abc' });
  });
});
