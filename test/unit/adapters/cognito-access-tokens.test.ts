import { generateKeyPairSync } from 'node:crypto';
import { CognitoAccessTokens } from '../../../functions/shared/adapters/cognito-access-tokens';
import { hmacToken, startTokenIssuer, unsignedToken, type TokenIssuer } from '../../support/access-tokens';

const CLIENT_ID = 'dashboard-client';
const CLI_CLIENT_ID = 'cli-client';
let issuer: TokenIssuer;
let tokens: CognitoAccessTokens;

beforeAll(async () => {
  issuer = await startTokenIssuer(CLIENT_ID);
  tokens = new CognitoAccessTokens({ issuer: issuer.issuer, jwksUrl: issuer.jwksUrl, clientIds: [CLIENT_ID, CLI_CLIENT_ID] });
});
afterAll(() => issuer.close());

const now = () => Math.floor(Date.now() / 1000);

describe('people\'s access tokens', () => {
  it('accept the pool\'s own access token for the dashboard client, naming the person', async () => {
    await expect(tokens.verify(issuer.accessToken())).resolves.toEqual({ sub: 'user-1', email: 'ada@example.com', mfa: false });
  });

  it('accept a token without an email (Cognito\'s access tokens carry none): the membership has it', async () => {
    await expect(tokens.verify(issuer.accessToken({ email: undefined }))).resolves.toEqual({ sub: 'user-1', mfa: false });
  });

  it('say the sign-in used MFA only for the literal claim mfa: true', async () => {
    await expect(tokens.verify(issuer.accessToken({ mfa: true }))).resolves.toMatchObject({ mfa: true });
    for (const mfa of ['true', 1, [true], { used: true }]) await expect(tokens.verify(issuer.accessToken({ mfa }))).resolves.toMatchObject({ mfa: false });
  });

  it('refuse a token altered to claim MFA: its signature no longer holds', async () => {
    const [header, payload, signature] = issuer.accessToken().split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const altered = `${header}.${Buffer.from(JSON.stringify({ ...claims, mfa: true })).toString('base64url')}.${signature}`;
    await expect(tokens.verify(altered)).resolves.toBeUndefined();
  });

  it('refuse an expired token', async () => {
    await expect(tokens.verify(issuer.accessToken({ iat: now() - 1000, exp: now() - 60 }))).resolves.toBeUndefined();
  });

  it('refuse another issuer\'s token, even signed with the same key', async () => {
    await expect(tokens.verify(issuer.accessToken({ iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Other' }))).resolves.toBeUndefined();
  });

  it('accept the command line\'s client (shortener login) as the dashboard\'s', async () => {
    await expect(tokens.verify(issuer.accessToken({ client_id: CLI_CLIENT_ID }))).resolves.toEqual({ sub: 'user-1', email: 'ada@example.com', mfa: false });
  });

  it('refuse a token issued to another client, or naming none', async () => {
    await expect(tokens.verify(issuer.accessToken({ client_id: 'someone-elses-client' }))).resolves.toBeUndefined();
    await expect(tokens.verify(issuer.accessToken({ client_id: undefined }))).resolves.toBeUndefined();
    await expect(tokens.verify(issuer.accessToken({ client_id: [CLIENT_ID] }))).resolves.toBeUndefined();
  });

  it('refuse an ID token (token_use id) and a token without token_use', async () => {
    await expect(tokens.verify(issuer.accessToken({ token_use: 'id' }))).resolves.toBeUndefined();
    await expect(tokens.verify(issuer.accessToken({ token_use: undefined }))).resolves.toBeUndefined();
  });

  it('refuse an unsigned token (alg none)', async () => {
    const claims = { sub: 'user-1', iss: issuer.issuer, client_id: CLIENT_ID, token_use: 'access', exp: now() + 900 };
    await expect(tokens.verify(unsignedToken({ alg: 'none' }, claims))).resolves.toBeUndefined();
    await expect(tokens.verify(unsignedToken({ alg: 'none', kid: 'x' }, claims))).resolves.toBeUndefined();
  });

  it('refuse an HS256 token keyed with the pool\'s public key (key confusion)', async () => {
    const good = JSON.parse(Buffer.from(issuer.accessToken().split('.')[0] ?? '', 'base64url').toString()) as { kid: string };
    const claims = { sub: 'attacker', iss: issuer.issuer, client_id: CLIENT_ID, token_use: 'access', exp: now() + 900 };
    const jwks = await (await fetch(issuer.jwksUrl)).text();
    for (const secret of [issuer.publicKeyPem, jwks]) {
      await expect(tokens.verify(hmacToken({ alg: 'HS256', kid: good.kid }, claims, secret))).resolves.toBeUndefined();
    }
  });

  it('refuse a token signed by another key, whatever key id it names', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const good = JSON.parse(Buffer.from(issuer.accessToken().split('.')[0] ?? '', 'base64url').toString()) as { kid: string };
    await expect(tokens.verify(issuer.accessToken({}, { key: privateKey }))).resolves.toBeUndefined();
    await expect(tokens.verify(issuer.accessToken({}, { key: privateKey, kid: 'made-up' }))).resolves.toBeUndefined();
    await expect(tokens.verify(issuer.accessToken({}, { key: privateKey, kid: good.kid }))).resolves.toBeUndefined();
  });

  it('refuse a token whose claims were changed after signing', async () => {
    const [header, , signature] = issuer.accessToken().split('.');
    const claims = Buffer.from(JSON.stringify({ sub: 'someone-else', iss: issuer.issuer, client_id: CLIENT_ID, token_use: 'access', exp: now() + 900 })).toString('base64url');
    await expect(tokens.verify(`${header}.${claims}.${signature}`)).resolves.toBeUndefined();
  });

  it('fetch the pool\'s keys once, not per token', async () => {
    const fresh = new CognitoAccessTokens({ issuer: issuer.issuer, jwksUrl: issuer.jwksUrl, clientIds: [CLIENT_ID, CLI_CLIENT_ID] });
    const before = issuer.fetches();
    for (let i = 0; i < 5; i += 1) await fresh.verify(issuer.accessToken());
    expect(issuer.fetches() - before).toBe(1);
  });

  it('fail (not refuse) when the pool\'s keys cannot be fetched: an outage is not a bad token', async () => {
    const unreachable = new CognitoAccessTokens({ issuer: issuer.issuer, jwksUrl: 'http://127.0.0.1:9/.well-known/jwks.json', clientIds: [CLIENT_ID, CLI_CLIENT_ID] });
    await expect(unreachable.verify(issuer.accessToken())).rejects.toThrow();
  });
});
