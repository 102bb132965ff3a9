import { AuthenticatorFailed, finishAuthenticator, startAuthenticator } from '../../../web/dashboard/signing-in/authenticator';
import { fetchAnswering } from '../../support/user-api-fetch';

const issuer = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Pool';

describe('turning on an authenticator app from the dashboard', () => {
  it('asks the pool\'s user API at the issuer\'s origin for a secret with the person\'s token, and makes the otpauth URI', async () => {
    const { fetcher, calls } = fetchAnswering({ body: { SecretCode: 'JBSWY3DPEHPK3PXP' } });
    const started = await startAuthenticator(issuer, 'access-token', 'zoë@example.com', fetcher);
    expect(started).toEqual({ secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Shortener%3Azo%C3%AB%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Shortener' });
    expect(calls).toEqual([{ url: 'https://cognito-idp.eu-west-1.amazonaws.com/', target: 'AWSCognitoIdentityProviderService.AssociateSoftwareToken', body: { AccessToken: 'access-token' } }]);
  });

  it('verifies the app\'s code, then turns MFA on as preferred', async () => {
    const { fetcher, calls } = fetchAnswering({ body: { Status: 'SUCCESS' } }, { body: {} });
    await finishAuthenticator(issuer, 'access-token', '123456', fetcher);
    expect(calls.map((call) => [call.target, call.body])).toEqual([
      ['AWSCognitoIdentityProviderService.VerifySoftwareToken', { AccessToken: 'access-token', UserCode: '123456', FriendlyDeviceName: 'Authenticator app' }],
      ['AWSCognitoIdentityProviderService.SetUserMFAPreference', { AccessToken: 'access-token', SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }],
    ]);
  });

  it('says a wrong code in words, turns nothing on, and asks nothing for a code that is not 6 digits', async () => {
    const { fetcher, calls } = fetchAnswering({ status: 400, body: { __type: 'EnableSoftwareTokenMFAException', message: 'Code mismatch' } });
    await expect(finishAuthenticator(issuer, 'access-token', '000000', fetcher)).rejects.toThrow(new AuthenticatorFailed('That code does not match: type the code the app shows now.'));
    expect(calls).toHaveLength(1);
    await expect(finishAuthenticator(issuer, 'access-token', '12 34', fetcher)).rejects.toThrow('Type the 6 digits');
    expect(calls).toHaveLength(1);
  });
});
