import { randomBytes } from 'node:crypto';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { CognitoIdentityProviders } from '../../functions/shared/adapters/cognito-identity-providers';
import { providerNameFor } from '../../functions/shared/domain/sso/sso-connection';
import { LOCAL_REGION } from '../../bin/local/stack';
import { DynamoMemberStore } from '../../functions/shared/adapters/dynamo-member-store';
import { WORKSPACE_HEADER } from '../../functions/shared/http/headers';
import { StackOutputs } from '../../lib/stack-outputs';
import { startCustomerIdp, type CustomerIdp } from '../support/customer-idp';
import { publishDnsRecords } from '../support/local-dns';
import { createApiKey, dynamo, http, jsonHeaders, stackOutput, uniqueLoopbackAddress } from '../support/local-stack';
import { authorizationUrl, exchangeCode, localCliClientId, localSignInTarget, pkcePair, signIn, createUser, type SignInTarget } from '../support/sign-in';
import { CLI_CALLBACK_PORTS, cliCallbackUrl } from '../../clients/sign-in/cli-callback';

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
  providers = new CognitoIdentityProviders(client, target.poolId, [target.clientId, localCliClientId()]);
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
    // Nor through the command line's client (`shortener login`): the provider is offered there too.
    await expect(signIn(person, { ...target, clientId: localCliClientId(), redirectUri: cliCallbackUrl(CLI_CALLBACK_PORTS[0]) })).rejects.toThrow();
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

  it('stops at a plain page, not the password, for a domain whose provider speaks SAML (registered, not played locally)', async () => {
    const samlDomain = `saml-${randomBytes(4).toString('hex')}.example`;
    const providerName = providerNameFor('acct_e2e', samlDomain);
    await providers.register({ providerName, protocol: 'saml', saml: { metadataUrl: 'https://idp.example/metadata' } });
    await providers.enable(providerName, samlDomain);
    const outcome = await signInAs(`sam@${samlDomain}`);
    expect(outcome.code).toBeUndefined();
    expect(outcome.page?.status).toBe(501);
    expect(await outcome.page?.text()).toContain('SAML');
    await providers.remove(providerName);
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

/** A new workspace on `plan` with a new person of `role` in it, signed in. */
async function personIn(plan: 'PRO' | 'ENTERPRISE', role: 'owner' | 'admin') {
  const { accountId, apiKey } = await createApiKey(plan);
  const user = await createUser();
  await new DynamoMemberStore(dynamo(), stackOutput(StackOutputs.membersTable)).addMember({ workspaceId: accountId, userId: user.sub, email: user.email, role, joinedAt: new Date().toISOString() });
  const { accessToken } = await signIn(user);
  const address = uniqueLoopbackAddress();
  const call = async (method: string, path: string, body?: object) => {
    const result = await http(method, path, { headers: { ...jsonHeaders(accessToken), [WORKSPACE_HEADER]: accountId }, localAddress: address, ...(body ? { body } : {}) });
    return { status: result.status, body: result.text ? result.json() : undefined };
  };
  return { workspaceId: accountId, apiKey, call };
}

describe('/v2/sso: an ENTERPRISE owner connects the company\'s email domain', () => {
  const companyDomain = `corp-${randomBytes(4).toString('hex')}.example`;

  it('pending until the TXT record is there, then the domain\'s people sign in through the provider; listed, then disconnected', async () => {
    const owner = await personIn('ENTERPRISE', 'owner');
    const added = await owner.call('POST', '/v2/sso', { domain: companyDomain, protocol: 'oidc', oidc: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ domain: companyDomain, status: 'pending', dnsRecord: { type: 'TXT', name: `_shortener-challenge.${companyDomain}` } });
    expect(JSON.stringify(added.body)).not.toContain(idp.clientSecret);
    // Before the proof, the domain's people still see the password page.
    expect((await signInAs(`early@${companyDomain}`)).hops).not.toContain(new URL(idp.issuer).host);
    const early = await owner.call('POST', `/v2/sso/${companyDomain}/verify`);
    expect(early.status).toBe(409);
    publishDnsRecords({ dnsRecords: [(added.body as { dnsRecord: { type: string; name: string; value: string } }).dnsRecord] }, ['TXT']);
    const verified = await owner.call('POST', `/v2/sso/${companyDomain}/verify`);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: 'active' });
    const outcome = await signInAs(`dana@${companyDomain}`);
    expect(outcome.hops).toContain(new URL(idp.issuer).host);
    expect(outcome.code).toBeTruthy();
    expect((await owner.call('GET', '/v2/sso')).body).toMatchObject({ connections: [{ domain: companyDomain, status: 'active' }] });
    expect((await owner.call('DELETE', `/v2/sso/${companyDomain}`)).status).toBe(204);
    expect((await signInAs(`dana@${companyDomain}`)).hops).not.toContain(new URL(idp.issuer).host);
    expect((await owner.call('GET', `/v2/sso/${companyDomain}`)).status).toBe(404);
  });

  it('refuses a domain another workspace connected, never saying whose, and the plans below ENTERPRISE', async () => {
    const first = await personIn('ENTERPRISE', 'owner');
    const second = await personIn('ENTERPRISE', 'owner');
    const taken = `taken-${randomBytes(4).toString('hex')}.example`;
    const body = { domain: taken, protocol: 'oidc', oidc: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret } };
    expect((await first.call('POST', '/v2/sso', body)).status).toBe(201);
    const refused = await second.call('POST', '/v2/sso', body);
    expect(refused).toMatchObject({ status: 409, body: { message: 'This email domain is already connected to single sign-on' } });
    expect((await second.call('GET', `/v2/sso/${taken}`)).status).toBe(404);
    const pro = await personIn('PRO', 'owner');
    expect(await pro.call('POST', '/v2/sso', { ...body, domain: `pro-${taken}` })).toMatchObject({ status: 403, body: { feature: 'singleSignOn', currentPlan: 'PRO' } });
  });

  it('is the owners\' alone: an admin and any API key are refused, naming what is missing', async () => {
    const admin = await personIn('ENTERPRISE', 'admin');
    const body = { domain: `admin-${randomBytes(4).toString('hex')}.example`, protocol: 'oidc', oidc: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret } };
    expect(await admin.call('POST', '/v2/sso', body)).toMatchObject({ status: 403, body: { permission: 'security:manage' } });
    expect((await admin.call('GET', '/v2/sso')).status).toBe(200);
    const byKey = await http('POST', '/v2/sso', { headers: jsonHeaders(admin.apiKey), body, localAddress: uniqueLoopbackAddress() });
    expect(byKey.status).toBe(403);
    expect(byKey.json()).toMatchObject({ permission: 'security:manage', message: 'security:manage is for people signed in, not API keys' });
  });

  it('refuses an issuer over http that is not the local run\'s allowed provider', async () => {
    const owner = await personIn('ENTERPRISE', 'owner');
    const refused = await owner.call('POST', '/v2/sso', { domain: `http-${randomBytes(4).toString('hex')}.example`, protocol: 'oidc', oidc: { issuer: 'http://127.0.0.1:9/', clientId: 'x', clientSecret: 'y' } });
    expect(refused).toMatchObject({ status: 400, body: { message: 'oidc must have issuer (an https URL), clientId and clientSecret (1 to 1000 characters each)' } });
  });
});
