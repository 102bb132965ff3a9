import { randomBytes } from 'node:crypto';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { CognitoIdentityProviders } from '../../functions/shared/adapters/cognito-identity-providers';
import { providerNameFor } from '../../functions/shared/domain/sso/sso-connection';
import { LOCAL_REGION } from '../../bin/local/stack';
import { startCustomerIdp, type CustomerIdp } from '../support/customer-idp';
import { authorizationUrl, exchangeCode, localSignInTarget, pkcePair, signIn, createUser, type SignInTarget } from '../support/sign-in';

/**
 * Single sign-on end to end on the local stack (issue 29): a company's own OpenID provider (a second oidc-provider)
 * registered in the local user pool through the same Cognito calls the SSO function makes on AWS, and people of
 * its email domain signing in through it and only through it.
 */
let idp: CustomerIdp;
let target: SignInTarget;
let providers: CognitoIdentityProviders;
const domain = `sso-${randomBytes(4).toString('hex')}.example`;

beforeAll(async () => {
  target = localSignInTarget();
  idp = await startCustomerIdp(Number(process.env.SSO_PROVIDER_PORT), `${target.issuer}/oauth2/idpresponse`);
  const client = new CognitoIdentityProviderClient({ region: LOCAL_REGION, endpoint: new URL(target.issuer).origin, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  providers = new CognitoIdentityProviders(client, target.poolId, target.clientId);
});

afterAll(() => idp.close());

/** Cookies per host: the sign-in hops between the pool's provider and the company's. */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    this.jars.set(host, jar);
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string> | undefined), cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') } });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    return response;
  }
}

/** Starts a sign-in at the pool, types the email on its page, and follows every redirect until the app's callback or a page. */
async function signInAs(email: string, password = 'not-asked'): Promise<{ code?: string; verifier: string; page?: Response; hops: string[] }> {
  const browser = new Browser();
  const { verifier, challenge } = pkcePair();
  let response = await browser.get(authorizationUrl(target, challenge));
  const pageUrl = new URL(response.headers.get('location') ?? '', target.issuer).href;
  const form = await browser.get(pageUrl);
  const action = /<form method="post" action="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  response = await browser.get(new URL(action.replaceAll('&#47;', '/'), pageUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  const hops: string[] = [];
  let at = pageUrl;
  while (response.status >= 300 && response.status < 400) {
    const next = new URL(response.headers.get('location') ?? '', at).href;
    hops.push(new URL(next).host);
    if (next.startsWith(target.redirectUri)) return { code: new URL(next).searchParams.get('code') ?? '', verifier, hops };
    at = next;
    response = await browser.get(next);
  }
  return { verifier, page: response, hops };
}

describe('a company\'s people signing in through its own provider', () => {
  beforeAll(async () => {
    const providerName = providerNameFor('acct_e2e', domain);
    await providers.register({ providerName, protocol: 'oidc', oidc: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret } });
    await providers.enable(providerName, domain);
  });

  it('are sent to it, come back signed in as the email it vouched for, and get the pool\'s access token', async () => {
    const email = `ana@${domain}`;
    const outcome = await signInAs(email);
    expect(outcome.hops).toContain(new URL(idp.issuer).host);
    expect(outcome.code).toBeTruthy();
    const tokens = await exchangeCode(target, outcome.code as string, outcome.verifier);
    const claims = JSON.parse(Buffer.from(tokens.accessToken.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ token_use: 'access', client_id: target.clientId, email, iss: target.issuer });
  });

  it('never sign in with a password there, even one they set before the domain was connected', async () => {
    const person = await createUser({ email: `ben@${domain}` });
    const outcome = await signInAs(person.email, person.password);
    expect(outcome.hops[0]).toBe(new URL(idp.issuer).host);
    await expect(signIn(person)).rejects.toThrow();
  });

  it('are refused when the provider vouches for an email outside the domain or one it has not verified', async () => {
    await idp.vouch(`eve@${domain}`, 'eve@elsewhere.example', true);
    const outside = await signInAs(`eve@${domain}`);
    expect(outside.code).toBeUndefined();
    expect(await outside.page?.text()).toContain(`outside ${domain}`);
    await idp.vouch(`zed@${domain}`, `zed@${domain}`, false);
    const unverified = await signInAs(`zed@${domain}`);
    expect(unverified.code).toBeUndefined();
    expect(unverified.page?.status).toBe(400);
  });

  it('refuses a provider\'s answer replayed or carrying another sign-in\'s state', async () => {
    const forged = await fetch(`${target.issuer}/oauth2/idpresponse?code=x&state=${randomBytes(24).toString('base64url')}`, { redirect: 'manual' });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('expired or is not yours');
  });

  it('leaves everyone else on the password page, and nobody is sent anywhere once the domain is disconnected', async () => {
    const other = await createUser();
    await expect(signIn(other)).resolves.toMatchObject({ accessToken: expect.any(String) });
    await providers.remove(providerNameFor('acct_e2e', domain));
    const person = await createUser({ email: `cy@${domain}` });
    await expect(signIn(person)).resolves.toMatchObject({ accessToken: expect.any(String) });
  });
});
