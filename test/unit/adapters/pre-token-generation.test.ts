import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { Context, PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { handler } from '../../../functions/pre-token-generation/handler';
import { AUTHENTICATOR_APP } from '../../../functions/shared/domain/accounts/sign-in-mfa';

/** The user pool's pre-token-generation trigger (V2): the access token's `mfa` claim, from what the pool says of the person. */
const cognito = mockClient(CognitoIdentityProviderClient);
beforeEach(() => cognito.reset());

function event(triggerSource: PreTokenGenerationV2TriggerEvent['triggerSource'], userAttributes: Record<string, string> = { sub: 'sub-1', email: 'ada@example.com' }): PreTokenGenerationV2TriggerEvent {
  return {
    version: '2',
    triggerSource,
    region: 'eu-west-1',
    userPoolId: 'eu-west-1_Pool',
    userName: 'sub-1',
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'dashboard' },
    request: { userAttributes, groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [] }, scopes: ['openid', 'email'] },
    response: { claimsAndScopeOverrideDetails: {} },
  } as PreTokenGenerationV2TriggerEvent;
}
const run = (input: PreTokenGenerationV2TriggerEvent) => handler(input, {} as Context) as Promise<PreTokenGenerationV2TriggerEvent>;

describe('the pre-token-generation trigger', () => {
  it.each(['TokenGeneration_HostedAuth', 'TokenGeneration_Authentication', 'TokenGeneration_RefreshTokens'] as const)(
    'adds mfa: true to the access token (%s) of a person with an authenticator app, read with AdminGetUser on the event\'s pool',
    async (source) => {
      cognito.on(AdminGetUserCommand).resolves({ Username: 'sub-1', UserMFASettingList: [AUTHENTICATOR_APP], PreferredMfaSetting: AUTHENTICATOR_APP });
      const answered = await run(event(source));
      expect(answered.response.claimsAndScopeOverrideDetails).toEqual({ accessTokenGeneration: { claimsToAddOrOverride: { mfa: true } } });
      expect(cognito.commandCalls(AdminGetUserCommand).map((call) => call.args[0].input)).toEqual([{ UserPoolId: 'eu-west-1_Pool', Username: 'sub-1' }]);
    },
  );

  it('adds nothing for a person without one', async () => {
    cognito.on(AdminGetUserCommand).resolves({ Username: 'sub-1' });
    expect((await run(event('TokenGeneration_HostedAuth'))).response.claimsAndScopeOverrideDetails).toEqual({});
  });

  it('adds nothing, and reads nothing, for a person of a company\'s identity provider (Cognito asked them for no code)', async () => {
    const answered = await run(event('TokenGeneration_HostedAuth', { sub: 'sub-1', identities: '[{"providerName":"sso-acme"}]' }));
    expect(answered.response.claimsAndScopeOverrideDetails).toEqual({});
    expect(cognito.commandCalls(AdminGetUserCommand)).toHaveLength(0);
  });

  it('fails the sign-in when the pool cannot say (no token claims what was not checked)', async () => {
    cognito.on(AdminGetUserCommand).rejects(new Error('TooManyRequestsException'));
    await expect(run(event('TokenGeneration_HostedAuth'))).rejects.toThrow('TooManyRequests');
  });
});
