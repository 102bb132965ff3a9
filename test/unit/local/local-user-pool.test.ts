import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { signInPage } from '../../../bin/local/sign-in-page';
import { servedOverHttp } from '../../../bin/local/stack';
import { readTopology, type Template as CfnTemplate } from '../../../bin/local/template';
import { LocalUserDirectory } from '../../../bin/local/user-directory';
import { CognitoStandIn } from '../../../bin/local/cognito-standin';
import { newTotpSecret, totpCode, totpMatches } from '../../../bin/local/totp';
import { buildStack } from '../../infra/app-factory';

describe('the user pool read from the template', () => {
  const template = Template.fromStack(buildStack({ stage: 'dev' }).stack).toJSON() as CfnTemplate;
  const topology = readTopology(template, 'cdk.out', { region: 'us-east-1', shortHost: 'localhost:4000' });

  it('has the pool, its MFA setting, the dashboard client with its exact callback and 15-minute access tokens, and the command line\'s with its loopback ones', () => {
    expect(topology.userPools).toHaveLength(1);
    const [pool] = topology.userPools;
    expect(pool?.mfa).toBe('OPTIONAL');
    expect(pool?.passkeys).toBe(true);
    expect(pool?.clients).toEqual([
      expect.objectContaining({
        callbackUrls: ['https://localhost:4000/app/signed-in'],
        logoutUrls: ['https://localhost:4000/app/'],
        scopes: ['openid', 'email', 'profile', 'aws.cognito.signin.user.admin'],
        accessTokenSeconds: 900,
        idTokenSeconds: 900,
        refreshTokenSeconds: 12 * 3600,
      }),
      expect.objectContaining({
        callbackUrls: ['http://localhost:47821/callback', 'http://localhost:47822/callback', 'http://localhost:47823/callback'],
        logoutUrls: [],
        scopes: ['openid', 'email', 'profile'],
        accessTokenSeconds: 900,
        refreshTokenSeconds: 30 * 86_400,
      }),
    ]);
  });

  it('is served over http on the local host only: other URLs stay exactly as the template has them', () => {
    const [pool] = topology.userPools;
    if (!pool) throw new Error('no pool');
    const local = servedOverHttp({ ...pool, clients: pool.clients.map((client) => ({ ...client, callbackUrls: [...client.callbackUrls, 'https://localhost:40000/app/signed-in', 'https://app.example.com/cb'] })) }, 'http://localhost:4000');
    expect(local.clients[0]?.callbackUrls).toEqual(['http://localhost:4000/app/signed-in', 'https://localhost:40000/app/signed-in', 'https://app.example.com/cb']);
  });
});

describe('the local user directory', () => {
  it('signs in a confirmed user by email in any case, and nobody with a wrong password or an unknown email', async () => {
    const users = new LocalUserDirectory();
    const user = await users.create('Ada@Example.com', 'correct horse', { permanent: true });
    expect(await users.signIn('ada@example.COM', 'correct horse')).toEqual(user);
    expect(await users.signIn('ada@example.com', 'Correct horse')).toBeUndefined();
    expect(await users.signIn('bob@example.com', 'correct horse')).toBeUndefined();
    expect(await users.create('ADA@example.com', 'other', { permanent: true })).toBeUndefined();
  });

  it('does not sign in a user who still has a temporary password', async () => {
    const users = new LocalUserDirectory();
    await users.create('new@example.com', 'temporary', { permanent: false });
    expect(await users.signIn('new@example.com', 'temporary')).toBeUndefined();
    await users.setPassword('new@example.com', 'permanent one', true);
    expect(await users.signIn('new@example.com', 'permanent one')).toBeDefined();
  });

  it('keeps users in a file only its owner reads, with password hashes, never passwords', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'users-')), 'users.json');
    const users = new LocalUserDirectory(file);
    await users.create('kept@example.com', 'a secret phrase', { permanent: true });
    expect(readFileSync(file, 'utf8')).not.toContain('a secret phrase');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await new LocalUserDirectory(file).signIn('kept@example.com', 'a secret phrase')).toBeDefined();
  });
});

describe('the local Cognito admin API', () => {
  it('creates a user named by email, answers with their sub, and refuses another pool or a taken email', async () => {
    const users = new LocalUserDirectory();
    const cognito = new CognitoStandIn('Pool1', users, { verify: () => Promise.resolve(undefined) }, () => Promise.resolve());
    const created = (await cognito.handle('AdminCreateUser', { UserPoolId: 'Pool1', Username: 'x@example.com', UserAttributes: [{ Name: 'email', Value: 'x@example.com' }] })) as { User: { Username: string; UserStatus: string } };
    expect(created.User).toMatchObject({ Username: users.findByEmail('x@example.com')?.sub, UserStatus: 'FORCE_CHANGE_PASSWORD' });
    await expect(Promise.resolve().then(() => cognito.handle('AdminCreateUser', { UserPoolId: 'Pool1', Username: 'X@example.com' }))).rejects.toMatchObject({ type: 'UsernameExistsException' });
    expect(() => cognito.handle('AdminGetUser', { UserPoolId: 'Other', Username: 'x@example.com' })).toThrow(expect.objectContaining({ type: 'ResourceNotFoundException' }));
    await cognito.handle('AdminSetUserPassword', { UserPoolId: 'Pool1', Username: created.User.Username, Password: 'now permanent', Permanent: true });
    expect(await users.signIn('x@example.com', 'now permanent')).toBeDefined();
  });

  it('signs a user out everywhere by email or sub (the provider ends their grants), and knows nobody else', async () => {
    const users = new LocalUserDirectory();
    const ended: string[] = [];
    const cognito = new CognitoStandIn('Pool1', users, { verify: () => Promise.resolve(undefined) }, (sub) => Promise.resolve(void ended.push(sub)));
    const user = await users.create('y@example.com', 'a password', { permanent: true });
    await cognito.handle('AdminUserGlobalSignOut', { UserPoolId: 'Pool1', Username: 'y@example.com' });
    await cognito.handle('AdminUserGlobalSignOut', { UserPoolId: 'Pool1', Username: user?.sub });
    expect(ended).toEqual([user?.sub, user?.sub]);
    expect(() => cognito.handle('AdminUserGlobalSignOut', { UserPoolId: 'Pool1', Username: 'nobody@example.com' })).toThrow(expect.objectContaining({ type: 'UserNotFoundException' }));
  });
});

describe('the local sign-in page', () => {
  it('escapes what it echoes: the email typed and the error', () => {
    const page = signInPage({ kind: 'password', action: '/Pool/interaction/abc', email: '"><script>alert(1)</script>', error: '<b>no</b>' });
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<b>');
    expect(page).toContain('&#34;&#62;&#60;script&#62;');
    expect(page).toContain('<form method="post" action="/Pool/interaction/abc">');
  });
});

describe('the local sign-in page\'s authenticator step', () => {
  it('asks for a 6-digit code, escaping its error', () => {
    const page = signInPage({ kind: 'totp', action: '/Pool/interaction/abc/totp', error: '<i>x</i>' });
    expect(page).toContain('<form method="post" action="/Pool/interaction/abc/totp">');
    expect(page).toContain('autocomplete="one-time-code"');
    expect(page).not.toContain('<i>');
  });

  it('takes the current code and its neighbours only, six digits', () => {
    const secret = newTotpSecret();
    expect(totpMatches(secret, totpCode(secret))).toBe(true);
    expect(totpMatches(secret, ` ${totpCode(secret)}`)).toBe(false);
    expect(totpMatches(newTotpSecret(), totpCode(secret))).toBe(false);
    expect(totpMatches(secret, '12345')).toBe(false);
  });
});
