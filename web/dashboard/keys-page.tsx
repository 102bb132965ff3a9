import { useContext, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { call, type Api, type Problem } from './api';
import type { paths } from '../../clients/typescript/src/schema';
import { SCOPES, scopesOfRole, type Scope } from '../../functions/shared/domain/accounts/permissions';
import { CopyButton, formatDateTime, ProblemNote } from './ui';
import { useAllowed, WorkspaceContext } from './workspace';

type Key = paths['/v2/keys']['get']['responses'][200]['content']['application/json']['keys'][number];

const createdBy = (key: Key) => (key.createdBy.kind === 'user' ? key.createdBy.email : 'an operator');

/**
 * The workspace's API keys, for machines: make one with the scopes a job needs and an expiry (the secret shown once),
 * list them and revoke one (admins and owners). Scopes beyond the person's role are shown but cannot be ticked: a key never outranks its maker.
 */
export function KeysPage({ api }: { api: Api }) {
  const workspace = useContext(WorkspaceContext);
  // Members make keys; admins and owners also see and revoke everyone's (the routes' own permissions).
  const canList = useAllowed('GET /v2/keys');
  const allowed = new Set<Scope>(workspace ? scopesOfRole(workspace.role) : []);
  const [keys, setKeys] = useState<Key[]>();
  const [problem, setProblem] = useState<Problem>();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['links:read']);
  const [expiresOn, setExpiresOn] = useState('');
  const [createProblem, setCreateProblem] = useState<Problem>();
  const [secret, setSecret] = useState<{ name: string; secret: string }>();

  const load = async () => {
    if (!canList) return;
    const answer = await call(() => api.GET('/v2/keys'));
    if ('problem' in answer) setProblem(answer.problem);
    else setKeys(answer.data.keys);
  };
  useEffect(() => void load(), [api, canList]);

  const create = async (event: Event) => {
    event.preventDefault();
    // A date is the end of that day, UTC: the key works through the whole day named.
    const body = { name: name.trim(), scopes, ...(expiresOn ? { expiresAt: `${expiresOn}T23:59:59.000Z` } : {}) };
    const answer = await call(() => api.POST('/v2/keys', { body }));
    if ('problem' in answer) return setCreateProblem(answer.problem);
    setCreateProblem(undefined);
    setSecret({ name: answer.data.name, secret: answer.data.secret });
    setName('');
    setExpiresOn('');
    await load();
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <p class="help">Keys are for machines (scripts, the command line). People sign in instead.</p>
      <ProblemNote problem={problem} />
      <form onSubmit={create} class="panel" noValidate>
        <h2>Make a key</h2>
        <div class="field">
          <label for="key-name">Name</label>
          <input id="key-name" autoComplete="off" value={name} onInput={(event) => setName(event.currentTarget.value)} />
        </div>
        <fieldset>
          <legend>Scopes</legend>
          <div class="grid">
            {SCOPES.map((scope) => (
              <label key={scope} class="check">
                <input
                  type="checkbox"
                  disabled={!allowed.has(scope)}
                  checked={scopes.includes(scope)}
                  onChange={(event) => setScopes(event.currentTarget.checked ? [...scopes, scope] : scopes.filter((chosen) => chosen !== scope))}
                />{' '}
                {scope}
              </label>
            ))}
          </div>
          {allowed.size < SCOPES.length && <p class="help">Your role cannot give the scopes that are greyed out.</p>}
        </fieldset>
        <div class="field">
          <label for="key-expires">Expires on (optional, end of day UTC)</label>
          <input id="key-expires" type="date" value={expiresOn} onInput={(event) => setExpiresOn(event.currentTarget.value)} />
        </div>
        <ProblemNote problem={createProblem} />
        <button type="submit">Make key</button>
      </form>
      {secret && (
        <div class="panel secret" role="status">
          <h2>Key “{secret.name}”</h2>
          <p>Copy it now: it is shown only this once.</p>
          <p>
            <code data-testid="key-secret">{secret.secret}</code> <CopyButton text={secret.secret} label="Copy the key" />
          </p>
          <button type="button" class="quiet" onClick={() => setSecret(undefined)}>
            I have saved it
          </button>
        </div>
      )}
      {keys?.length === 0 && <p class="empty">No keys yet.</p>}
      {keys && keys.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">The workspace's keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Status</th>
                <th scope="col">Made by</th>
                <th scope="col">Made</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <KeyRow key={key.id} api={api} apiKey={key} onRevoked={load} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** One key; Revoke asks first (focus on "Keep it"), since its machines stop at their next request. */
function KeyRow({ api, apiKey, onRevoked }: { api: Api; apiKey: Key; onRevoked: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const revoke = async () => {
    const answer = await call(() => api.DELETE('/v2/keys/{id}', { params: { path: { id: apiKey.id } } }));
    if ('problem' in answer) return setProblem(answer.problem);
    setAsking(false);
    await onRevoked();
  };
  return (
    <tr>
      <th scope="row">{apiKey.name}</th>
      <td>{apiKey.scopes.join(', ')}</td>
      <td>{apiKey.status}</td>
      <td>{createdBy(apiKey)}</td>
      <td>{formatDateTime(apiKey.createdAt)}</td>
      <td>{apiKey.expiresAt ? formatDateTime(apiKey.expiresAt) : 'Never'}</td>
      <td>{apiKey.lastUsedAt ? formatDateTime(apiKey.lastUsedAt) : 'Not yet'}</td>
      <td>
        {asking ? (
          <ConfirmRevoke name={apiKey.name} onKeep={() => setAsking(false)} onRevoke={() => void revoke()} />
        ) : (
          <button type="button" class="quiet small" onClick={() => setAsking(true)} aria-label={`Revoke ${apiKey.name}`}>
            Revoke
          </button>
        )}
        <ProblemNote problem={problem} />
      </td>
    </tr>
  );
}

/** The question, its focus on the harmless answer when it appears. */
function ConfirmRevoke({ name, onKeep, onRevoke }: { name: string; onKeep: () => void; onRevoke: () => void }) {
  const keep = useRef<HTMLButtonElement>(null);
  // Before the browser paints: the Revoke button that had the focus is gone, the focus must not fall to the page.
  useLayoutEffect(() => keep.current?.focus(), []);
  return (
    <span role="group" aria-label={`Revoke ${name}?`}>
      <button type="button" class="quiet small" ref={keep} onClick={onKeep}>
        Keep it
      </button>{' '}
      <button type="button" class="danger small" onClick={onRevoke}>
        Revoke {name}
      </button>
    </span>
  );
}
