import { useEffect, useState } from 'preact/hooks';
import { call, type Api, type Problem } from './api';
import type { paths } from '../../clients/typescript/src/schema';
import { CopyButton, formatDateTime, ProblemNote } from './ui';
import { useAllowed } from './workspace';

type Domain = paths['/v2/domains']['get']['responses'][200]['content']['application/json']['domains'][number];

/** The account's own domains: add one, copy its DNS records, see its status and why, make it the default, delete it. */
export function DomainsPage({ api }: { api: Api }) {
  // Reading is every role's; changing is domains:write's (the routes' own permissions).
  const canAdd = useAllowed('POST /v2/domains');
  const canChange = useAllowed('PATCH /v2/domains/{domain}');
  const [domains, setDomains] = useState<Domain[]>();
  const [problem, setProblem] = useState<Problem>();
  const [name, setName] = useState('');
  const [addProblem, setAddProblem] = useState<Problem>();
  const [rowProblem, setRowProblem] = useState<{ domain: string; problem: Problem }>();

  const load = async () => {
    const answer = await call(() => api.GET('/v2/domains'));
    if ('problem' in answer) setProblem(answer.problem);
    else setDomains(answer.data.domains);
  };
  useEffect(() => void load(), [api]);

  const add = async (event: Event) => {
    event.preventDefault();
    const answer = await call(() => api.POST('/v2/domains', { body: { domain: name.trim() } }));
    if ('problem' in answer) return setAddProblem(answer.problem);
    setAddProblem(undefined);
    setName('');
    await load();
  };
  const act = async (domain: string, run: () => Promise<{ data?: unknown; error?: unknown; response: Response }>) => {
    const answer = await call(run);
    if ('problem' in answer) return setRowProblem({ domain, problem: answer.problem });
    setRowProblem(undefined);
    await load();
  };

  return (
    <section aria-labelledby="domains-title">
      <h1 id="domains-title">Domains</h1>
      <p>Short links on your own domain: add it, create the DNS records shown, and it becomes active once they are found.</p>
      {canAdd && (
        <form class="inline" onSubmit={add}>
          <div class="field">
            <label for="new-domain">Domain</label>
            <input id="new-domain" autoComplete="off" placeholder="go.example.com" value={name} onInput={(event) => setName(event.currentTarget.value)} />
          </div>
          <button type="submit">Add domain</button>
        </form>
      )}
      <ProblemNote problem={addProblem} />
      <ProblemNote problem={problem} />
      {domains?.length === 0 && <p class="empty">No domains yet.</p>}
      {domains?.map((domain) => (
        <article key={domain.domain} class="panel" aria-labelledby={`domain-${domain.domain}`}>
          <h2 id={`domain-${domain.domain}`}>
            {domain.domain} <span class={`status status-${domain.status}`}>{domain.status}</span>
            {domain.isDefault && <span class="badge">default</span>}
          </h2>
          {domain.statusReason && <p>{domain.statusReason}</p>}
          <p class="help">Added {formatDateTime(domain.createdAt)}{domain.verifiedAt ? `, verified ${formatDateTime(domain.verifiedAt)}` : ''}</p>
          <table>
            <caption>DNS records to create</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {domain.dnsRecords.map((record) => (
                <tr key={`${record.type}${record.name}${record.value}`}>
                  <td>{record.type}</td>
                  <td>
                    <code>{record.name}</code> <CopyButton text={record.name} label={`Copy the name ${record.name}`} />
                  </td>
                  <td>
                    <code>{record.value}</code> <CopyButton text={record.value} label={`Copy the value ${record.value}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {canChange && <DomainAddresses api={api} domain={domain} onSaved={load} />}
          {rowProblem?.domain === domain.domain && <ProblemNote problem={rowProblem.problem} />}
          {canChange && (
          <div class="actions">
            {domain.status !== 'active' && (
              <button type="button" onClick={() => act(domain.domain, () => api.POST('/v2/domains/{domain}/verify', { params: { path: { domain: domain.domain } } }))}>
                Check DNS now
              </button>
            )}
            {!domain.isDefault && domain.status === 'active' && (
              <button type="button" onClick={() => act(domain.domain, () => api.PATCH('/v2/domains/{domain}', { params: { path: { domain: domain.domain } }, body: { isDefault: true } }))}>
                Make default
              </button>
            )}
            <button
              type="button"
              class="danger"
              onClick={() => confirm(`Delete ${domain.domain}? Its links stop working.`) && act(domain.domain, () => api.DELETE('/v2/domains/{domain}', { params: { path: { domain: domain.domain } } }))}
            >
              Delete {domain.domain}
            </button>
          </div>
          )}
        </article>
      ))}
    </section>
  );
}

const ADDRESSES = [
  ['rootUrl', 'Visitors to the domain itself go to'],
  ['notFoundUrl', 'Visitors to an unknown code go to'],
  ['expiredUrl', 'Visitors to an expired link go to'],
] as const;
type AddressField = (typeof ADDRESSES)[number][0];

/** Where the domain sends visitors its links do not cover; an emptied field is removed (the service's own page). */
function DomainAddresses({ api, domain, onSaved }: { api: Api; domain: Domain; onSaved: () => Promise<void> }) {
  const [values, setValues] = useState<Record<AddressField, string>>({ rootUrl: domain.rootUrl ?? '', notFoundUrl: domain.notFoundUrl ?? '', expiredUrl: domain.expiredUrl ?? '' });
  const [problem, setProblem] = useState<Problem>();
  const [said, setSaid] = useState('');
  const save = async (event: Event) => {
    event.preventDefault();
    const body = Object.fromEntries(ADDRESSES.map(([field]) => [field, values[field].trim() || null]));
    const answer = await call(() => api.PATCH('/v2/domains/{domain}', { params: { path: { domain: domain.domain } }, body }));
    if ('problem' in answer) return setProblem(answer.problem);
    setProblem(undefined);
    setSaid('Saved.');
    await onSaved();
  };
  const id = (field: AddressField) => `${domain.domain}-${field}`;
  return (
    <form onSubmit={save} aria-label={`Addresses of ${domain.domain}`} noValidate>
      <div class="grid">
        {ADDRESSES.map(([field, label]) => (
          <div class="field" key={field}>
            <label for={id(field)}>{label}</label>
            <input id={id(field)} type="url" autoComplete="off" value={values[field]} onInput={(event) => setValues({ ...values, [field]: event.currentTarget.value })} />
          </div>
        ))}
      </div>
      <ProblemNote problem={problem} />
      <button type="submit">Save addresses</button>{' '}
      <span role="status" class="said">
        {said}
      </span>
    </form>
  );
}
