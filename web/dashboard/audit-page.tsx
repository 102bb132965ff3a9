import { useEffect, useState } from 'preact/hooks';
import { call, type Api, type Problem } from './api';
import type { paths } from '../../clients/typescript/src/schema';
import { formatDateTime, ProblemNote } from './ui';

type AuditQuery = NonNullable<paths['/v2/audit-log']['get']['parameters']['query']>;
type AuditRecord = paths['/v2/audit-log']['get']['responses'][200]['content']['application/json']['records'][number];

const PAGE_SIZE = 25;
type Filters = Record<'actor' | 'action' | 'target' | 'from' | 'to', string>;
const NO_FILTERS: Filters = { actor: '', action: '', target: '', from: '', to: '' };

const actorOf = (record: AuditRecord) => (record.actor.kind === 'user' ? `${record.actor.email} (${record.actor.role})` : record.actor.kind === 'key' ? `key ${record.actor.name ?? record.actor.keyId}` : 'operator');

/** A local date-time field's value as the API's ISO time (the browser's zone), or nothing. */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

const shown = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value));

/** The audit log: who changed what, newest first, filtered by actor, action, target and time, a page at a time. */
export function AuditPage({ api }: { api: Api }) {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // Cursors of the pages before this one: Newer goes back one.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const [page, setPage] = useState<{ records: AuditRecord[]; nextCursor: string | null }>();
  const [problem, setProblem] = useState<Problem>();
  const cursor = cursors.at(-1);

  useEffect(() => {
    const query: AuditQuery = { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) };
    for (const name of ['actor', 'action', 'target'] as const) if (filters[name].trim()) query[name] = filters[name].trim();
    const from = isoOf(filters.from);
    const to = isoOf(filters.to);
    if (from) query.from = from;
    if (to) query.to = to;
    void call(() => api.GET('/v2/audit-log', { params: { query } })).then((answer) => {
      if ('problem' in answer) return setProblem(answer.problem);
      setProblem(undefined);
      setPage(answer.data);
    });
  }, [api, filters, cursor]);

  const apply = (event: Event) => {
    event.preventDefault();
    setFilters(draft);
    setCursors([undefined]);
  };
  const field = (name: keyof Filters, label: string, time = false) => {
    const common = { id: `audit-${name}`, value: draft[name], onInput: (event: { currentTarget: HTMLInputElement }) => setDraft({ ...draft, [name]: event.currentTarget.value }) };
    return (
      <div class="field">
        <label for={common.id}>{label}</label>
        {time ? <input type="datetime-local" {...common} /> : <input type="text" autoComplete="off" {...common} />}
      </div>
    );
  };

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <form class="filters" onSubmit={apply} role="search" aria-label="Filter the audit log">
        {field('actor', 'Actor (user id, key id or operator)')}
        {field('action', 'Action (link.updated…)')}
        {field('target', 'Target (a code, domain, id…)')}
        {field('from', 'From', true)}
        {field('to', 'To', true)}
        <button type="submit">Filter</button>
      </form>
      <ProblemNote problem={problem} />
      {page?.records.length === 0 && <p class="empty">No records{cursors.length > 1 ? ' on this page' : ''}.</p>}
      {page && page.records.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Audit records, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Changes</th>
                <th scope="col">Request</th>
              </tr>
            </thead>
            <tbody>
              {page.records.map((record) => (
                <tr key={record.id}>
                  <td>{formatDateTime(record.at)}</td>
                  <td>{actorOf(record)}</td>
                  <td>
                    <code>{record.action}</code>
                  </td>
                  <td>
                    {record.target.type} <code>{record.target.id}</code>
                  </td>
                  <td>
                    <ul class="changes">
                      {Object.entries(record.changes).map(([name, change]) => (
                        <li key={name}>
                          <code>{name}</code>: {shown(change.before)} → {shown(change.after)}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <code>{record.requestId ?? ''}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="pager">
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>
        <span aria-live="polite">Page {cursors.length}</span>
        <button type="button" disabled={!page?.nextCursor} onClick={() => page?.nextCursor && setCursors([...cursors, page.nextCursor])}>
          Older
        </button>
      </div>
    </section>
  );
}
