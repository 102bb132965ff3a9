import fc from 'fast-check';
import { PlanRequired, InvalidRequest, SsoChallengeMissing, SsoConnectionNotFound, SsoDomainInUse } from '../../../../functions/shared/domain/errors';
import type { Plan } from '../../../../functions/shared/domain/limits/plans';
import { providerNameFor } from '../../../../functions/shared/domain/sso/sso-connection';
import { addSsoConnection, listSsoConnections, removeSsoConnection, verifySsoConnection, viewSsoConnection, type SsoContext } from '../../../../functions/shared/domain/sso/sso-management';
import { keyCaller } from '../../../support/callers';
import { InMemorySsoStore, MapTxtRecords, RecordingIdentityProviders } from '../../../support/in-memory-sso';

const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const owner = (workspace = 'acct_a', plan: Plan = 'ENTERPRISE'): SsoContext => ({
  caller: keyCaller({ keyId: 'user_u1', accountId: workspace, owner: `acct:${workspace}`, plan, actor: { kind: 'user', userId: 'u1', email: 'ana@acme.com', role: 'owner' } }),
  nowMs: NOW,
  requestId: 'req-1',
  localProviderHosts: new Set(),
});
const oidc = { domain: 'Acme.com', protocol: 'oidc', oidc: { issuer: 'https://login.acme.com/', clientId: 'shortener', clientSecret: 's3cret-value' } };

function setup() {
  return { sso: new InMemorySsoStore(), providers: new RecordingIdentityProviders(), txt: new MapTxtRecords() };
}

describe('connecting an email domain to single sign-on', () => {
  it('claims the domain pending, with the TXT record to publish, and registers its provider without the secret in any record', async () => {
    const deps = setup();
    const view = await addSsoConnection(oidc, owner(), deps);
    expect(view).toMatchObject({ domain: 'acme.com', protocol: 'oidc', status: 'pending', oidc: { issuer: 'https://login.acme.com/', clientId: 'shortener' } });
    expect(view.dnsRecord.name).toBe('_shortener-challenge.acme.com');
    expect(deps.providers.registered.get(providerNameFor('acct_a', 'acme.com'))?.oidc?.clientSecret).toBe('s3cret-value');
    expect(JSON.stringify([view, [...deps.sso.connections.values()], deps.sso.records])).not.toContain('s3cret-value');
    expect(deps.sso.records.map((record) => [record.action, record.actor.kind, record.target])).toEqual([['sso.created', 'user', { type: 'sso', id: 'acme.com' }]]);
  });

  it('is ENTERPRISE\'s alone: lower plans get the spec\'s 403 naming it', async () => {
    await expect(addSsoConnection(oidc, owner('acct_a', 'PRO'), setup())).rejects.toMatchObject({ feature: 'singleSignOn', requiredPlan: 'ENTERPRISE' });
    await expect(addSsoConnection(oidc, owner('acct_a', 'PRO'), setup())).rejects.toBeInstanceOf(PlanRequired);
  });

  it('connects a domain once service-wide, never saying to whom, and at most ten a workspace', async () => {
    const deps = setup();
    await addSsoConnection(oidc, owner('acct_a'), deps);
    await expect(addSsoConnection(oidc, owner('acct_b'), deps)).rejects.toBeInstanceOf(SsoDomainInUse);
    for (let index = 1; index < 10; index++) await addSsoConnection({ ...oidc, domain: `acme${index}.com` }, owner('acct_a'), deps);
    await expect(addSsoConnection({ ...oidc, domain: 'one-more.com' }, owner('acct_a'), deps)).rejects.toBeInstanceOf(InvalidRequest);
  });

  it('releases the claim when the user pool refuses the provider', async () => {
    const deps = setup();
    deps.providers.refuse = new Error('InvalidParameterException');
    await expect(addSsoConnection(oidc, owner(), deps)).rejects.toThrow('InvalidParameterException');
    expect(deps.sso.connections.size).toBe(0);
  });

  it.each([
    ['no domain', { ...oidc, domain: undefined }],
    ['a bare name', { ...oidc, domain: 'localhost' }],
    ['an address with a path', { ...oidc, domain: 'acme.com/x' }],
    ['an unknown protocol', { ...oidc, protocol: 'ldap' }],
    ['an http issuer', { ...oidc, oidc: { ...oidc.oidc, issuer: 'http://login.acme.com/' } }],
    ['credentials in the issuer', { ...oidc, oidc: { ...oidc.oidc, issuer: 'https://a:b@login.acme.com/' } }],
    ['no client secret', { ...oidc, oidc: { issuer: 'https://login.acme.com/', clientId: 'x' } }],
    ['SAML settings on an OIDC connection', { ...oidc, saml: { metadataUrl: 'https://idp.acme.com/metadata' } }],
    ['SAML without its metadata', { domain: 'acme.com', protocol: 'saml' }],
  ])('refuses %s with a 400 naming the field', async (_why, body) => {
    await expect(addSsoConnection(body as object, owner(), setup())).rejects.toBeInstanceOf(InvalidRequest);
  });

  it('takes an internationalised domain in its DNS form and a loopback issuer only where a local run allows it', async () => {
    const deps = setup();
    const view = await addSsoConnection({ ...oidc, domain: 'Bücher.example' }, owner(), deps);
    expect(view.domain).toBe('xn--bcher-kva.example');
    const local = { ...owner(), localProviderHosts: new Set(['127.0.0.1:4999']) };
    await expect(addSsoConnection({ ...oidc, domain: 'local.example', oidc: { ...oidc.oidc, issuer: 'http://127.0.0.1:4999/' } }, local, deps)).resolves.toMatchObject({ status: 'pending' });
    await expect(addSsoConnection({ ...oidc, domain: 'other.example', oidc: { ...oidc.oidc, issuer: 'http://127.0.0.1:5000/' } }, local, deps)).rejects.toBeInstanceOf(InvalidRequest);
  });

  it('never crashes on any text as a domain or a provider setting', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), async (domain, issuer) => {
        const outcome = await addSsoConnection({ domain, protocol: 'oidc', oidc: { issuer, clientId: 'c', clientSecret: 's' } }, owner(), setup()).catch((error: unknown) => error);
        expect(outcome instanceof InvalidRequest || (typeof outcome === 'object' && outcome !== null && 'status' in outcome)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('proving and removing a connection', () => {
  it('stays pending until the TXT record is there, then sends the domain\'s people to the provider', async () => {
    const deps = setup();
    const view = await addSsoConnection(oidc, owner(), deps);
    await expect(verifySsoConnection('acme.com', owner(), deps)).rejects.toBeInstanceOf(SsoChallengeMissing);
    expect(deps.providers.enabled.size).toBe(0);
    deps.txt.records.set(view.dnsRecord.name, [`"${view.dnsRecord.value}"`]);
    await expect(verifySsoConnection('ACME.com', owner(), deps)).resolves.toMatchObject({ status: 'active', verifiedAt: '2026-11-25T12:00:00.000Z' });
    expect([...deps.providers.enabled.values()]).toEqual(['acme.com']);
    expect(deps.sso.records.map((record) => record.action)).toEqual(['sso.created', 'sso.verified']);
    expect(deps.sso.records[1]?.changes).toEqual({ status: { before: 'pending', after: 'active' } });
  });

  it('refuses another workspace\'s TXT value and answers another workspace\'s connection as none', async () => {
    const deps = setup();
    await addSsoConnection(oidc, owner('acct_a'), deps);
    deps.txt.records.set('_shortener-challenge.acme.com', ['shortener-verification=0000']);
    await expect(verifySsoConnection('acme.com', owner('acct_a'), deps)).rejects.toBeInstanceOf(SsoChallengeMissing);
    await expect(viewSsoConnection('acme.com', owner('acct_b'), deps)).rejects.toBeInstanceOf(SsoConnectionNotFound);
    await expect(removeSsoConnection('acme.com', owner('acct_b'), deps)).rejects.toBeInstanceOf(SsoConnectionNotFound);
    await expect(listSsoConnections(owner('acct_b'), deps)).resolves.toEqual({ connections: [] });
  });

  it('takes the provider out of the pool and frees the domain on removal', async () => {
    const deps = setup();
    await addSsoConnection(oidc, owner(), deps);
    await removeSsoConnection('acme.com', owner(), deps);
    expect(deps.providers.registered.size).toBe(0);
    await expect(addSsoConnection(oidc, owner('acct_b'), deps)).resolves.toMatchObject({ status: 'pending' });
  });
});
