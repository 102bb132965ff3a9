import { AdminGetUserCommand, AdminUserGlobalSignOutCommand, CognitoIdentityProviderClient, UserNotFoundException } from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { CognitoPeopleDirectory } from '../../../functions/shared/adapters/cognito-people-directory';

const cognito = mockClient(CognitoIdentityProviderClient);
const directory = () => new CognitoPeopleDirectory(new CognitoIdentityProviderClient({ region: 'eu-west-1' }), 'eu-west-1_Pool');
beforeEach(() => cognito.reset());

describe('the user pool as the directory of people\'s verified emails', () => {
  it('asks AdminGetUser by the person\'s sub and answers their email only when verified', async () => {
    cognito.on(AdminGetUserCommand, { Username: 'sub-verified' }).resolves({ Username: 'sub-verified', UserAttributes: [{ Name: 'email', Value: 'zoë@example.com' }, { Name: 'email_verified', Value: 'true' }] });
    cognito.on(AdminGetUserCommand, { Username: 'sub-unverified' }).resolves({ Username: 'sub-unverified', UserAttributes: [{ Name: 'email', Value: 'eve@example.com' }, { Name: 'email_verified', Value: 'false' }] });
    expect(await directory().verifiedEmailOf('sub-verified')).toBe('zoë@example.com');
    expect(await directory().verifiedEmailOf('sub-unverified')).toBeUndefined();
    expect(cognito.commandCalls(AdminGetUserCommand).map((call) => call.args[0].input)).toEqual([
      { UserPoolId: 'eu-west-1_Pool', Username: 'sub-verified' },
      { UserPoolId: 'eu-west-1_Pool', Username: 'sub-unverified' },
    ]);
  });

  it('knows nobody it does not find, and lets other failures through', async () => {
    cognito.on(AdminGetUserCommand, { Username: 'sub-gone' }).rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    cognito.on(AdminGetUserCommand, { Username: 'sub-throttled' }).rejects(new Error('TooManyRequestsException'));
    expect(await directory().verifiedEmailOf('sub-gone')).toBeUndefined();
    await expect(directory().verifiedEmailOf('sub-throttled')).rejects.toThrow('TooManyRequests');
  });
});

describe('the user pool signing a removed member out everywhere', () => {
  it('calls AdminUserGlobalSignOut on the pool with the person\'s sub', async () => {
    cognito.on(AdminUserGlobalSignOutCommand).resolves({});
    await directory().signOutEverywhere('sub-removed');
    expect(cognito.commandCalls(AdminUserGlobalSignOutCommand).map((call) => call.args[0].input)).toEqual([{ UserPoolId: 'eu-west-1_Pool', Username: 'sub-removed' }]);
  });

  it('has nothing to do for a person the pool no longer has, and lets other failures through', async () => {
    cognito.on(AdminUserGlobalSignOutCommand, { Username: 'sub-gone' }).rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    cognito.on(AdminUserGlobalSignOutCommand, { Username: 'sub-throttled' }).rejects(new Error('TooManyRequestsException'));
    await expect(directory().signOutEverywhere('sub-gone')).resolves.toBeUndefined();
    await expect(directory().signOutEverywhere('sub-throttled')).rejects.toThrow('TooManyRequests');
  });
});
