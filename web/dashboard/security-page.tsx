import { useEffect, useState } from 'preact/hooks';
import { call, type Api, type Problem } from './api';
import type { paths } from '../../clients/typescript/src/schema';
import { finishAuthenticator, startAuthenticator } from './signing-in/authenticator';
import { addPasskey, deletePasskey, listPasskeys, type Passkey } from './signing-in/passkeys';
import { UserApiFailed } from './signing-in/user-api';
import type { PersonSession } from './signing-in/person-session';
import { CopyButton, formatDateTime, ProblemNote } from './ui';
import { useAllowed, useCan } from './workspace';

type Workspace = paths['/v2/workspace']['get']['responses'][200]['content']['application/json'];
type Connection = paths['/v2/sso']['get']['responses'][200]['content']['application/json']['connections'][number];
type NewConnection = paths['/v2/sso']['post']['requestBody']['content']['application/json'];

/**
 * The workspace's sign-in rules: whether its people must sign in with MFA (owners switch it), and for ENTERPRISE
 * workspaces the email domains connected to their company's identity provider. Every member reads them; the controls
 * appear where the person's role allows them (`security:manage`), and the API refuses anyway. And the person's own
 * authenticator app, which they can turn on here even while the workspace refuses them for the lack of it.
 */
export function SecurityPage({ api, session }: { api: Api; session: PersonSession }) {
  const [workspace, setWorkspace] = useState<Workspace>();
  const [problem, setProblem] = useState<Problem>();
  const load = async () => {
    const answer = await call(() => api.GET('/v2/workspace'));
    if ('problem' in answer) return setProblem(answer.problem);
    setProblem(undefined);
    setWorkspace(answer.data);
  };
  useEffect(() => void load(), [api]);

  return (
    <section aria-labelledby="security-title">
      <h1 id="security-title">Security</h1>
      <ProblemNote problem={problem} />
      <AuthenticatorApp session={session} />
      <Passkeys session={session} />
      {workspace && <MfaRequirement api={api} workspace={workspace} onChanged={setWorkspace} />}
      {workspace && <SingleSignOn api={api} plan={workspace.plan} />}
    </section>
  );
}

function MfaRequirement({ api, workspace, onChanged }: { api: Api; workspace: Workspace; onChanged: (workspace: Workspace) => void }) {
  const canManage = useCan('security:manage');
  const [required, setRequired] = useState(workspace.security.mfaRequired);
  const [problem, setProblem] = useState<Problem>();
  const [said, setSaid] = useState('');
  const save = async (event: Event) => {
    event.preventDefault();
    setSaid('');
    const answer = await call(() => api.PATCH('/v2/workspace', { body: { security: { mfaRequired: required } } }));
    if ('problem' in answer) return setProblem(answer.problem);
    setProblem(undefined);
    onChanged(answer.data);
    setSaid(answer.data.security.mfaRequired ? 'Saved: MFA is now required.' : 'Saved: MFA is no longer required.');
  };
  return (
    <article class="panel" aria-labelledby="mfa-title">
      <h2 id="mfa-title">Multi-factor authentication</h2>
      <p>
        When it is required, people of this workspace must sign in with the code of an authenticator app as well as their password; anyone signed in without one is refused
        until they turn one on and sign in again. API keys are not affected.
      </p>
      <p>
        Now: <strong data-testid="mfa-status">{workspace.security.mfaRequired ? 'required' : 'not required'}</strong>.
      </p>
      {canManage ? (
        <form onSubmit={save} aria-label="MFA requirement" noValidate>
          <label class="check">
            <input type="checkbox" checked={required} onChange={(event) => setRequired(event.currentTarget.checked)} /> Require MFA of everyone in this workspace
          </label>
          <p class="help">To require it, sign in with your own authenticator app first: you would otherwise be locked out with everyone else.</p>
          <ProblemNote problem={problem} />
          <button type="submit">Save MFA setting</button>{' '}
          <span role="status" class="said">
            {said}
          </span>
        </form>
      ) : (
        <p class="help">Only the workspace's owners change this.</p>
      )}
    </article>
  );
}

/** The person's own authenticator app: turned on with a secret and its first code (Cognito's software token MFA). */
function AuthenticatorApp({ session }: { session: PersonSession }) {
  const [started, setStarted] = useState<{ secret: string; uri: string }>();
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState(false);
  const attempt = async (run: () => Promise<void>) => {
    try {
      await run();
      setFailure('');
    } catch (error) {
      setFailure(error instanceof UserApiFailed ? error.message : 'Something went wrong: try again.');
    }
  };
  const start = () => attempt(async () => setStarted(await startAuthenticator(session.issuer, await session.accessToken(), session.person.email ?? session.person.sub)));
  const finish = (event: Event) => {
    event.preventDefault();
    return attempt(async () => {
      await finishAuthenticator(session.issuer, await session.accessToken(), code.trim());
      setStarted(undefined);
      setDone(true);
    });
  };
  return (
    <article class="panel" aria-labelledby="authenticator-title">
      <h2 id="authenticator-title">Your authenticator app</h2>
      {session.signedInWithMfa ? (
        <p>You signed in with your authenticator app's code.</p>
      ) : done ? (
        <p role="status">Your authenticator app is on. Sign out and sign in again with its code: this session did not use it.</p>
      ) : started ? (
        <form onSubmit={finish} aria-label="Turn on your authenticator app" noValidate>
          <p>
            Add this key to your authenticator app (such as 1Password, Google Authenticator or Authy), as a time-based key: <code data-testid="totp-secret">{started.secret}</code>{' '}
            <CopyButton text={started.secret} label="Copy the key" />
          </p>
          <p class="help">
            Or give the app this address: <code>{started.uri}</code> <CopyButton text={started.uri} label="Copy the address" />
          </p>
          <div class="field">
            <label for="totp-code">Code the app shows</label>
            <input id="totp-code" inputMode="numeric" autoComplete="one-time-code" value={code} onInput={(event) => setCode(event.currentTarget.value)} />
          </div>
          <button type="submit">Turn on</button>
        </form>
      ) : (
        <>
          <p>Sign in with a code from an authenticator app as well as your password. Once it is on, every sign-in asks for the code.</p>
          <button type="button" onClick={() => void start()}>
            Set up an authenticator app
          </button>
        </>
      )}
      {failure && (
        <div class="problem" role="alert">
          <p>{failure}</p>
        </div>
      )}
    </article>
  );
}

/** The person's own passkeys: listed, added with the browser's authenticator, deleted (Cognito's WebAuthn user API). */
function Passkeys({ session }: { session: PersonSession }) {
  const [passkeys, setPasskeys] = useState<Passkey[]>();
  const [failure, setFailure] = useState('');
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);
  const attempt = async (run: () => Promise<string>) => {
    setBusy(true);
    setSaid('');
    try {
      const done = await run();
      setPasskeys(await listPasskeys(session.issuer, await session.accessToken()));
      setFailure('');
      setSaid(done);
    } catch (error) {
      setFailure(error instanceof UserApiFailed ? error.message : 'Something went wrong: try again.');
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => void attempt(async () => ''), [session]);
  const add = () => attempt(async () => (await addPasskey(session.issuer, await session.accessToken(), location.hostname), 'Passkey added: choose "Use a passkey" when you next sign in.'));
  const remove = (passkey: Passkey) => attempt(async () => (await deletePasskey(session.issuer, await session.accessToken(), passkey.id), `Deleted ${passkey.name}.`));
  return (
    <article class="panel" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Your passkeys</h2>
      <p>
        A passkey signs you in without your password: your device checks your fingerprint, face or PIN. A workspace that requires MFA counts a passkey sign-in only once you have
        turned on an authenticator app too, since you could otherwise still sign in with your password alone.
      </p>
      {passkeys?.length === 0 && <p class="empty">No passkeys yet.</p>}
      {passkeys && passkeys.length > 0 && (
        <ul aria-label="Your passkeys" class="passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id}>
              {passkey.name}, added {formatDateTime(passkey.createdAt.toISOString())}{' '}
              <button type="button" class="danger" disabled={busy} onClick={() => confirm(`Delete ${passkey.name}? You can no longer sign in with it.`) && void remove(passkey)}>
                Delete {passkey.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" disabled={busy} onClick={() => void add()}>
        Add a passkey
      </button>{' '}
      <span role="status" class="said">
        {said}
      </span>
      {failure && (
        <div class="problem" role="alert">
          <p>{failure}</p>
        </div>
      )}
    </article>
  );
}

const BLANK: { domain: string; protocol: 'oidc' | 'saml'; issuer: string; clientId: string; clientSecret: string; metadataUrl: string } = {
  domain: '',
  protocol: 'oidc',
  issuer: '',
  clientId: '',
  clientSecret: '',
  metadataUrl: '',
};

/** The connected email domains (ENTERPRISE): each with its TXT record, verified once the record is found, deleted. */
function SingleSignOn({ api, plan }: { api: Api; plan: Workspace['plan'] }) {
  const canManage = useAllowed('POST /v2/sso');
  const [connections, setConnections] = useState<Connection[]>();
  const [problem, setProblem] = useState<Problem>();
  const [rowProblem, setRowProblem] = useState<{ domain: string; problem: Problem }>();
  const enterprise = plan === 'ENTERPRISE';
  const load = async () => {
    const answer = await call(() => api.GET('/v2/sso'));
    if ('problem' in answer) return setProblem(answer.problem);
    setProblem(undefined);
    setConnections(answer.data.connections);
  };
  useEffect(() => void (enterprise ? load() : undefined), [api, enterprise]);
  const act = async (domain: string, run: () => Promise<{ data?: unknown; error?: unknown; response: Response }>) => {
    const answer = await call(run);
    if ('problem' in answer) return setRowProblem({ domain, problem: answer.problem });
    setRowProblem(undefined);
    await load();
  };
  const path = (domain: string) => ({ params: { path: { domain } } });

  return (
    <article class="panel" aria-labelledby="sso-title">
      <h2 id="sso-title">Single sign-on</h2>
      {!enterprise ? (
        <p>Single sign-on through your company's identity provider (OIDC or SAML) comes with the ENTERPRISE plan.</p>
      ) : (
        <>
          <p>
            People whose email is in a connected domain sign in through your company's identity provider, and only through it. Publish each domain's TXT record, then verify it: until
            then nobody is sent to the provider.
          </p>
          {canManage && <ConnectionForm api={api} onAdded={load} />}
          <ProblemNote problem={problem} />
          {connections?.length === 0 && <p class="empty">No connected domains yet.</p>}
          {connections?.map((connection) => (
            <section key={connection.domain} class="connection" aria-labelledby={`sso-${connection.domain}`}>
              <h3 id={`sso-${connection.domain}`}>
                {connection.domain} <span class={`status status-${connection.status}`}>{connection.status}</span>
              </h3>
              <p class="help">
                {connection.protocol.toUpperCase()} {connection.oidc ? `issuer ${connection.oidc.issuer}` : connection.saml ? `metadata ${connection.saml.metadataUrl}` : ''}; added{' '}
                {formatDateTime(connection.createdAt)}
                {connection.verifiedAt ? `, verified ${formatDateTime(connection.verifiedAt)}` : ''}
              </p>
              <p>
                TXT record <code>{connection.dnsRecord.name}</code> <CopyButton text={connection.dnsRecord.name} label={`Copy the name ${connection.dnsRecord.name}`} /> with the value{' '}
                <code>{connection.dnsRecord.value}</code> <CopyButton text={connection.dnsRecord.value} label={`Copy the value ${connection.dnsRecord.value}`} />
              </p>
              {rowProblem?.domain === connection.domain && <ProblemNote problem={rowProblem.problem} />}
              {canManage && (
                <div class="actions">
                  {connection.status === 'pending' && (
                    <button type="button" onClick={() => act(connection.domain, () => api.POST('/v2/sso/{domain}/verify', path(connection.domain)))}>
                      Verify {connection.domain}
                    </button>
                  )}
                  <button
                    type="button"
                    class="danger"
                    onClick={() =>
                      confirm(`Disconnect ${connection.domain}? Its people sign in with passwords again.`) && act(connection.domain, () => api.DELETE('/v2/sso/{domain}', path(connection.domain)))
                    }
                  >
                    Disconnect {connection.domain}
                  </button>
                </div>
              )}
            </section>
          ))}
        </>
      )}
    </article>
  );
}

/** Connects an email domain: the provider's settings for its protocol. The OIDC client secret goes to the user pool only. */
function ConnectionForm({ api, onAdded }: { api: Api; onAdded: () => Promise<void> }) {
  const [form, setForm] = useState(BLANK);
  const [problem, setProblem] = useState<Problem>();
  const set = (field: Exclude<keyof typeof BLANK, 'protocol'>) => (event: { currentTarget: { value: string } }) => setForm({ ...form, [field]: event.currentTarget.value });
  const add = async (event: Event) => {
    event.preventDefault();
    const body: NewConnection =
      form.protocol === 'oidc'
        ? { domain: form.domain.trim(), protocol: 'oidc', oidc: { issuer: form.issuer.trim(), clientId: form.clientId.trim(), clientSecret: form.clientSecret } }
        : { domain: form.domain.trim(), protocol: 'saml', saml: { metadataUrl: form.metadataUrl.trim() } };
    const answer = await call(() => api.POST('/v2/sso', { body }));
    if ('problem' in answer) return setProblem(answer.problem);
    setProblem(undefined);
    setForm(BLANK);
    await onAdded();
  };
  return (
    <form class="panel" onSubmit={add} aria-label="Connect an email domain" noValidate>
      <div class="grid">
        <div class="field">
          <label for="sso-domain">Email domain</label>
          <input id="sso-domain" autoComplete="off" placeholder="example.com" value={form.domain} onInput={set('domain')} />
        </div>
        <div class="field">
          <label for="sso-protocol">Protocol</label>
          <select id="sso-protocol" value={form.protocol} onChange={(event) => setForm({ ...form, protocol: event.currentTarget.value === 'saml' ? 'saml' : 'oidc' })}>
            <option value="oidc">OpenID Connect</option>
            <option value="saml">SAML</option>
          </select>
        </div>
        {form.protocol === 'oidc' ? (
          <>
            <div class="field">
              <label for="sso-issuer">Issuer URL</label>
              <input id="sso-issuer" type="url" autoComplete="off" value={form.issuer} onInput={set('issuer')} />
            </div>
            <div class="field">
              <label for="sso-client-id">Client id</label>
              <input id="sso-client-id" autoComplete="off" value={form.clientId} onInput={set('clientId')} />
            </div>
            <div class="field">
              <label for="sso-client-secret">Client secret</label>
              <input id="sso-client-secret" type="password" autoComplete="off" value={form.clientSecret} onInput={set('clientSecret')} />
            </div>
          </>
        ) : (
          <div class="field">
            <label for="sso-metadata">Metadata URL</label>
            <input id="sso-metadata" type="url" autoComplete="off" value={form.metadataUrl} onInput={set('metadataUrl')} />
          </div>
        )}
      </div>
      <ProblemNote problem={problem} />
      <button type="submit">Connect domain</button>
    </form>
  );
}
