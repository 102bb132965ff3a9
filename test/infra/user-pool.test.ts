import { Match, Template } from 'aws-cdk-lib/assertions';
import { EnvNames } from '../../functions/shared/config';
import { CLI_CALLBACK_PORTS } from '../../clients/sign-in/cli-callback';
import { ACCESS_TOKEN_MINUTES, CLI_REFRESH_TOKEN_DAYS, SIGN_IN_CALLBACK_PAGE } from '../../lib/user-pool';
import { StackOutputs } from '../../lib/stack-outputs';
import { buildStack } from './app-factory';

const devStack = buildStack({ stage: 'dev' }).stack;
const dev = Template.fromStack(devStack);
const json = dev.toJSON() as { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };
const [poolId] = Object.keys(dev.findResources('AWS::Cognito::UserPool'));
const [clientId, cliClientId] = Object.keys(dev.findResources('AWS::Cognito::UserPoolClient'));

describe('the user pool people sign in with', () => {
  it('is one pool, email as the user name, TOTP optional, no SMS, self sign-up off unless asked for', () => {
    dev.resourceCountIs('AWS::Cognito::UserPool', 1);
    dev.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      AutoVerifiedAttributes: ['email'],
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    });
    const open = Template.fromStack(buildStack({ stage: 'dev', selfSignUp: 'true' }).stack);
    open.hasResourceProperties('AWS::Cognito::UserPool', { AdminCreateUserConfig: { AllowAdminCreateUserOnly: false } });
  });

  it('has a V2 pre-token-generation trigger (access tokens\' mfa claim) that may read users of this pool (AdminGetUser) and nothing else', () => {
    const pool = json.Resources[poolId as string]?.Properties ?? {};
    const trigger = (pool.LambdaConfig as { PreTokenGenerationConfig?: { LambdaArn?: { 'Fn::GetAtt'?: string[] }; LambdaVersion?: string } }).PreTokenGenerationConfig;
    expect(trigger?.LambdaVersion).toBe('V2_0');
    const functionId = trigger?.LambdaArn?.['Fn::GetAtt']?.[0] ?? '';
    expect(json.Resources[functionId]?.Properties.Environment).toMatchObject({ Variables: { POWERTOOLS_SERVICE_NAME: 'pre-token-generation' } });
    const roleId = (json.Resources[functionId]?.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    const cognitoStatements = Object.values(json.Resources)
      .filter((resource) => resource.Type === 'AWS::IAM::Policy' && JSON.stringify(resource.Properties.Roles).includes(String(roleId)))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Array<{ Action: string | string[]; Resource: unknown }> }).Statement)
      .filter((statement) => JSON.stringify(statement.Action).includes('cognito-idp'));
    expect(cognitoStatements).toEqual([{ Action: 'cognito-idp:AdminGetUser', Effect: 'Allow', Resource: { 'Fn::GetAtt': [poolId, 'Arn'] } }]);
    // Cognito may invoke it, for this pool only.
    dev.hasResourceProperties('AWS::Lambda::Permission', { Principal: 'cognito-idp.amazonaws.com', FunctionName: Match.objectLike({ 'Fn::GetAtt': [functionId, 'Arn'] }), SourceArn: { 'Fn::GetAtt': [poolId, 'Arn'] } });
  });

  it('refuses a selfSignUp context that is neither true nor false', () => {
    expect(() => buildStack({ stage: 'dev', selfSignUp: 'yes' })).toThrow('selfSignUp must be true or false');
  });

  it('is on the Plus plan with threat protection enforcing, and a strong password policy', () => {
    dev.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true }) },
    });
  });

  it('has one public client for the dashboard: code flow, no secret, the exact callback, 15-minute access tokens, revocable refresh tokens', () => {
    dev.resourceCountIs('AWS::Cognito::UserPoolClient', 2);
    const client = json.Resources[clientId as string]?.Properties ?? {};
    expect(client.GenerateSecret).toBe(false);
    expect(client.AllowedOAuthFlows).toEqual(['code']);
    expect(client.AllowedOAuthFlowsUserPoolClient).toBe(true);
    expect(client.SupportedIdentityProviders).toEqual(['COGNITO']);
    expect(client.AccessTokenValidity).toBe(ACCESS_TOKEN_MINUTES);
    expect(client.TokenValidityUnits).toMatchObject({ AccessToken: 'minutes' });
    expect(client.EnableTokenRevocation).toBe(true);
    expect(client.PreventUserExistenceErrors).toBe('ENABLED');
    // One URL, the dashboard distribution's sign-in page: no wildcard, no localhost.
    expect(client.CallbackURLs).toHaveLength(1);
    const callback = JSON.stringify(client.CallbackURLs);
    expect(callback).toContain('DashboardDistribution');
    expect(callback).toContain(`/app/${SIGN_IN_CALLBACK_PAGE}`);
    expect(callback).not.toMatch(/\*|localhost/);
  });

  it('has one public client for the command line: code flow, no secret, exact loopback callbacks only, revocable refresh tokens', () => {
    const client = json.Resources[cliClientId as string]?.Properties ?? {};
    expect(client.ClientName).toBe('shortener-dev-cli');
    expect(client.GenerateSecret).toBe(false);
    expect(client.AllowedOAuthFlows).toEqual(['code']);
    expect(client.AllowedOAuthScopes).toEqual(['openid', 'email', 'profile']);
    expect(client.SupportedIdentityProviders).toEqual(['COGNITO']);
    // Exact URLs, one per port the CLI may listen on: no wildcard, no other host, no https page of anyone's.
    expect(client.CallbackURLs).toEqual(CLI_CALLBACK_PORTS.map((port) => `http://localhost:${port}/callback`));
    expect(client.ExplicitAuthFlows).toEqual(['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']);
    expect([client.AccessTokenValidity, client.RefreshTokenValidity]).toEqual([ACCESS_TOKEN_MINUTES, CLI_REFRESH_TOKEN_DAYS * 24 * 60]);
    expect(client.EnableTokenRevocation).toBe(true);
    expect(client.PreventUserExistenceErrors).toBe('ENABLED');
    dev.hasResourceProperties('AWS::Cognito::ManagedLoginBranding', { UseCognitoProvidedValues: true, ClientId: { Ref: cliClientId } });
    dev.hasOutput(StackOutputs.cliClientId, { Value: { Ref: cliClientId } });
    expect(JSON.stringify(dev.findOutputs(StackOutputs.signInIssuer))).toContain('https://cognito-idp.');
  });

  it('has a managed login domain with the newer pages and Cognito\'s own style for the client', () => {
    dev.hasResourceProperties('AWS::Cognito::UserPoolDomain', { ManagedLoginVersion: 2, UserPoolId: { Ref: poolId } });
    dev.hasResourceProperties('AWS::Cognito::ManagedLoginBranding', { UseCognitoProvidedValues: true, ClientId: { Ref: clientId } });
  });

  it('offers passkeys beside the password as a first factor, with user verification required, for the managed login domain\'s host', () => {
    dev.hasResourceProperties('AWS::Cognito::UserPool', {
      Policies: Match.objectLike({ SignInPolicy: { AllowedFirstAuthFactors: ['PASSWORD', 'WEB_AUTHN'] } }),
      // The mfa claim's rule counts a passkey sign-in as two factors only because the passkey verified its user.
      WebAuthnUserVerification: 'required',
    });
    const pool = json.Resources[poolId as string]?.Properties ?? {};
    const [, domain] = Object.entries(json.Resources).find(([, resource]) => resource.Type === 'AWS::Cognito::UserPoolDomain') ?? [];
    // The relying party is the host the managed pages are served from: `<the domain's prefix>.auth.<region>.amazoncognito.com`.
    expect(pool.WebAuthnRelyingPartyID).toEqual({ 'Fn::Join': ['', [...(domain?.Properties.Domain as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1], `.auth.${devStack.region}.amazoncognito.com`]] });
    // The dashboard's client allows choice-based sign-in (ALLOW_USER_AUTH), which passkeys go through; the command line's does not need it.
    expect(json.Resources[clientId as string]?.Properties.ExplicitAuthFlows).toEqual(['ALLOW_USER_SRP_AUTH', 'ALLOW_USER_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']);
  });

  it('gives the authorizer the pool\'s issuer, JWKS and both client ids, and the membership and account reads it needs', () => {
    const [, authorizer] = Object.entries(json.Resources).find(([, resource]) => resource.Type === 'AWS::Lambda::Function' && JSON.stringify(resource.Properties.Environment).includes('"authorizer"')) ?? [];
    const variables = (authorizer?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(variables[EnvNames.tokenIssuer])).toContain('https://cognito-idp.');
    expect(JSON.stringify(variables[EnvNames.tokenIssuer])).toContain(`"Ref":"${poolId}"`);
    expect(JSON.stringify(variables[EnvNames.tokenJwksUrl])).toContain('/.well-known/jwks.json');
    expect(variables[EnvNames.tokenClientId]).toEqual({ Ref: clientId });
    expect(variables[EnvNames.tokenCliClientId]).toEqual({ Ref: cliClientId });
    expect(variables[EnvNames.membersTable]).toBeDefined();
    expect(variables[EnvNames.accountsTable]).toBeDefined();
  });
});
