import { addPasskey, deletePasskey, hostMayUse, listPasskeys } from '../../../web/dashboard/signing-in/passkeys';
import { UserApiFailed } from '../../../web/dashboard/signing-in/user-api';
import { fetchAnswering } from '../../support/user-api-fetch';

const issuer = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Pool';
const creationOptions = { challenge: 'Y2hhbGxlbmdl', rp: { id: 'localhost', name: 'Shortener' }, user: { id: 'dXNlcg', name: 'ada@example.com', displayName: '' }, pubKeyCredParams: [{ alg: -7, type: 'public-key' }] };
const madeCredential = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: 'e30', attestationObject: 'o2Nm' } };

describe('the person\'s passkeys on the dashboard', () => {
  it('lists them from ListWebAuthnCredentials with the person\'s token, at the issuer\'s origin', async () => {
    const { fetcher, calls } = fetchAnswering({ body: { Credentials: [{ CredentialId: 'c1', FriendlyCredentialName: 'Laptop', CreatedAt: 1_764_129_600 }, { CredentialId: 'c2', CreatedAt: 1_764_129_660 }] } });
    expect(await listPasskeys(issuer, 'access-token', fetcher)).toEqual([
      { id: 'c1', name: 'Laptop', createdAt: new Date(1_764_129_600_000) },
      { id: 'c2', name: 'Passkey', createdAt: new Date(1_764_129_660_000) },
    ]);
    expect(calls).toEqual([{ url: 'https://cognito-idp.eu-west-1.amazonaws.com/', target: 'AWSCognitoIdentityProviderService.ListWebAuthnCredentials', body: { AccessToken: 'access-token' } }]);
  });

  it('adds one: the pool\'s creation options to the browser\'s authenticator, its answer back to the pool', async () => {
    const { fetcher, calls } = fetchAnswering({ body: { CredentialCreationOptions: creationOptions } }, { body: {} });
    const asked: unknown[] = [];
    await addPasskey(issuer, 'access-token', 'localhost', async (options) => (asked.push(options), madeCredential as never), fetcher);
    expect(asked).toEqual([{ optionsJSON: creationOptions }]);
    expect(calls.map((call) => [call.target, call.body])).toEqual([
      ['AWSCognitoIdentityProviderService.StartWebAuthnRegistration', { AccessToken: 'access-token' }],
      ['AWSCognitoIdentityProviderService.CompleteWebAuthnRegistration', { AccessToken: 'access-token', Credential: madeCredential }],
    ]);
  });

  it('makes no passkey the page may not make (another relying party\'s: on AWS the managed login domain\'s), and says where to add one', async () => {
    const { fetcher, calls } = fetchAnswering({ body: { CredentialCreationOptions: { ...creationOptions, rp: { id: 'shortener-prod-1.auth.eu-west-1.amazoncognito.com', name: 'x' } } } });
    const register = jest.fn();
    await expect(addPasskey(issuer, 'access-token', 'd111.cloudfront.net', register, fetcher)).rejects.toThrow('Passkeys for this account belong to shortener-prod-1.auth.eu-west-1.amazoncognito.com');
    expect(register).not.toHaveBeenCalled();
    expect(calls).toHaveLength(1);
    expect([hostMayUse('example.com', 'app.example.com'), hostMayUse('example.com', 'evilexample.com'), hostMayUse('localhost', 'localhost')]).toEqual([true, false, true]);
  });

  it('says a cancelled ceremony and a refused answer in words, and completes nothing after a cancel', async () => {
    const cancelled = fetchAnswering({ body: { CredentialCreationOptions: creationOptions } });
    await expect(addPasskey(issuer, 'access-token', 'localhost', () => Promise.reject(new Error('NotAllowedError')), cancelled.fetcher)).rejects.toThrow(new UserApiFailed('No passkey was made: the browser or the person cancelled it. Try again.'));
    expect(cancelled.calls).toHaveLength(1);
    const refused = fetchAnswering({ body: { CredentialCreationOptions: creationOptions } }, { status: 400, body: { __type: 'WebAuthnOriginNotAllowedException' } });
    await expect(addPasskey(issuer, 'access-token', 'localhost', async () => madeCredential as never, refused.fetcher)).rejects.toThrow('The sign-in service did not accept that passkey');
  });

  it('deletes one by its credential id', async () => {
    const { fetcher, calls } = fetchAnswering({ body: {} }, { status: 400, body: { __type: 'ResourceNotFoundException' } });
    await deletePasskey(issuer, 'access-token', 'c1', fetcher);
    expect(calls[0]).toMatchObject({ target: 'AWSCognitoIdentityProviderService.DeleteWebAuthnCredential', body: { AccessToken: 'access-token', CredentialId: 'c1' } });
    await expect(deletePasskey(issuer, 'access-token', 'c1', fetcher)).rejects.toThrow('That passkey is already gone.');
  });
});
