import { useEffect, useState } from 'preact/hooks';
import { call, type Api, type Problem } from '../api';
import { hrefOf, linkHref } from '../router';
import { useAllowed } from '../workspace';
import { CopyButton, formatDateTime, formatNumber, ProblemNote } from '../ui';
import { useAccountLists } from './account-lists';
import { HealthBadge } from './health-badge';
import { BulkActions } from './bulk-actions';
import { selectionKey, type BulkFilter } from './bulk-requests';
import type { Link } from './link-types';

const PAGE_SIZE = 25;
const STATUSES = ['active', 'expired', 'used-up', 'disabled', 'deleted'] as const;

interface Filters {
  search: string;
  status: string;
  domain: string;
  tag: string;
  health: string;
}

const FILTER_NAMES = ['search', 'status', 'domain', 'tag', 'health'] as const;

/** The filters live in the address (so back, reload and a shared URL keep them). */
function filtersFromAddress(): Filters {
  const query = new URLSearchParams(location.search);
  return { search: query.get('search') ?? '', status: query.get('status') ?? '', domain: query.get('domain') ?? '', tag: query.get('tag') ?? '', health: query.get('health') === 'broken' ? 'broken' : '' };
}

/**
 * The filters as a bulk action's filter; undefined while none is set. The bulk API has no health filter: with it on,
 * only selected rows can be acted on, never "all matching" (that filter would reach links the page does not show).
 */
function bulkFilterOf(filters: Filters): BulkFilter | undefined {
  if (filters.health || !FILTER_NAMES.some((name) => filters[name])) return undefined;
  return {
    ...(filters.search ? { search: filters.search } : {}),
    ...(filters.status ? { status: filters.status as (typeof STATUSES)[number] } : {}),
    ...(filters.domain ? { domain: filters.domain } : {}),
    ...(filters.tag ? { tag: filters.tag } : {}),
  };
}

function addressOf(filters: Filters): string {
  const query = new URLSearchParams();
  for (const name of FILTER_NAMES) if (filters[name]) query.set(name, filters[name]);
  const text = query.toString();
  return hrefOf('/links') + (text ? `?${text}` : '');
}

export function LinksPage({ api }: { api: Api }) {
  const [filters, setFilters] = useState(filtersFromAddress);
  const [draft, setDraft] = useState(filters.search);
  // Cursors of the pages before this one: Previous goes back one.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const [page, setPage] = useState<{ links: Link[]; nextCursor: string | null }>();
  const [problem, setProblem] = useState<Problem>();
  const [loading, setLoading] = useState(true);
  const lists = useAccountLists(api);
  const cursor = cursors.at(-1);
  // A role that may not change links (a viewer) sees no checkboxes and no bulk actions.
  const canBulk = useAllowed('POST /v2/links/bulk');
  // Rows chosen for a bulk action, kept across pages; a bulk action's end empties it and reads the page again.
  const [selected, setSelected] = useState<Map<string, Link>>(new Map());
  const [reads, setReads] = useState(0);
  const toggle = (links: readonly Link[], on: boolean) =>
    setSelected((previous) => {
      const next = new Map(previous);
      for (const link of links) {
        if (on) next.set(selectionKey(link), link);
        else next.delete(selectionKey(link));
      }
      return next;
    });
  const pageSelected = page !== undefined && page.links.length > 0 && page.links.every((link) => selected.has(selectionKey(link)));

  useEffect(() => {
    let current = true;
    setLoading(true);
    void call(() =>
      api.GET('/v2/links', {
        params: {
          query: {
            limit: PAGE_SIZE,
            ...(cursor ? { cursor } : {}),
            ...(filters.search ? { search: filters.search } : {}),
            ...(filters.status ? { status: filters.status as (typeof STATUSES)[number] } : {}),
            ...(filters.domain ? { domain: filters.domain } : {}),
            ...(filters.tag ? { tag: filters.tag } : {}),
            ...(filters.health === 'broken' ? { health: 'broken' as const } : {}),
          },
        },
      }),
    ).then((answer) => {
      if (!current) return;
      setLoading(false);
      if ('problem' in answer) setProblem(answer.problem);
      else {
        setProblem(undefined);
        setPage(answer.data);
      }
    });
    return () => {
      current = false;
    };
  }, [api, filters, cursor, reads]);

  const applyFilters = (next: Filters) => {
    history.replaceState(null, '', addressOf(next));
    setCursors([undefined]);
    setFilters(next);
  };

  return (
    <section aria-labelledby="links-title">
      <div class="title-row">
        <h1 id="links-title">Links</h1>
        <a class="button" href={hrefOf('/new')}>
          New link
        </a>
      </div>
      <form
        class="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          applyFilters({ ...filters, search: draft.trim() });
        }}
      >
        <div class="field">
          <label for="search">Search</label>
          <input id="search" type="search" value={draft} placeholder="code, alias or destination" onInput={(event) => setDraft(event.currentTarget.value)} />
        </div>
        <button type="submit">Search</button>
        <div class="field">
          <label for="status-filter">Status</label>
          <select id="status-filter" value={filters.status} onChange={(event) => applyFilters({ ...filters, status: event.currentTarget.value })}>
            <option value="">Any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>
        {lists.domains.length > 0 && (
          <div class="field">
            <label for="domain-filter">Domain</label>
            <select id="domain-filter" value={filters.domain} onChange={(event) => applyFilters({ ...filters, domain: event.currentTarget.value })}>
              <option value="">Any</option>
              {lists.domains.map((domain) => (
                <option key={domain} value={domain}>
                  {domain}
                </option>
              ))}
            </select>
          </div>
        )}
        <div class="field">
          <label for="tag-filter">Tag</label>
          <select id="tag-filter" value={filters.tag} onChange={(event) => applyFilters({ ...filters, tag: event.currentTarget.value })}>
            <option value="">Any</option>
            {lists.tags.map(({ tag, links }) => (
              <option key={tag} value={tag}>
                {tag} ({links})
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="health-filter">Health</label>
          <select id="health-filter" value={filters.health} onChange={(event) => applyFilters({ ...filters, health: event.currentTarget.value })}>
            <option value="">Any</option>
            <option value="broken">Broken (PRO)</option>
          </select>
        </div>
      </form>
      <ProblemNote problem={problem} />
      {canBulk && (
        <BulkActions
          api={api}
          selected={[...selected.values()]}
          filter={bulkFilterOf(filters)}
          onDone={() => {
            setSelected(new Map());
            setReads((count) => count + 1);
          }}
        />
      )}
      <div class="table-wrap">
        <table class="links" aria-busy={loading} aria-describedby="links-summary">
          <caption id="links-summary" class="visually-hidden">
            Your links, newest first
          </caption>
          <thead>
            <tr>
              <th scope="col">
                {canBulk && (
                  <input type="checkbox" class="select" aria-label="Select every link on this page for a bulk action" checked={pageSelected} onChange={(event) => toggle(page?.links ?? [], event.currentTarget.checked)} />
                )}{' '}
                Short URL
              </th>
              <th scope="col">Destination</th>
              <th scope="col" class="number">
                Clicks
              </th>
              <th scope="col">Status</th>
              <th scope="col">Health</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
            </tr>
          </thead>
          <tbody>
            {page?.links.map((link) => (
              <tr key={`${link.domain}/${link.shortCode}`}>
                <td>
                  {canBulk && (
                    <input type="checkbox" class="select" aria-label={`Select ${link.shortUrl} for a bulk action`} checked={selected.has(selectionKey(link))} onChange={(event) => toggle([link], event.currentTarget.checked)} />
                  )}{' '}
                  <a href={linkHref(link.shortCode) + (link.domain ? `?domain=${encodeURIComponent(link.domain)}` : '')}>{link.shortUrl}</a>{' '}
                  <CopyButton text={link.shortUrl} label={`Copy ${link.shortUrl}`} />
                </td>
                <td class="destination">{link.url ?? ''}</td>
                <td class="number">{formatNumber(link.clicks)}</td>
                <td>
                  <span class={`status status-${link.status}`}>{link.status}</span>
                </td>
                <td>
                  <HealthBadge health={link.health} active={link.status === 'active'} />
                </td>
                <td>{formatDateTime(link.createdAt)}</td>
                <td>{formatDateTime(link.expiresAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page && page.links.length === 0 && !page.nextCursor && <p class="empty">{Object.values(filters).some(Boolean) ? 'No links match these filters.' : 'No links yet.'}</p>}
      {page && page.links.length < PAGE_SIZE && page.nextCursor && (
        // A filtered page stops after 1,000 links examined (the API's bound): the rest is on the next pages.
        <p class="help">Part of your links was looked through; Next page goes on with the older ones.</p>
      )}
      <nav class="pager" aria-label="Pages of links">
        <button type="button" disabled={cursors.length === 1 || loading} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>
        <span aria-live="polite">Page {cursors.length}</span>
        <button type="button" disabled={!page?.nextCursor || loading} onClick={() => page?.nextCursor && setCursors([...cursors, page.nextCursor])}>
          Next page
        </button>
      </nav>
      <p>
        <a href={hrefOf('/import')}>
          Create many links from a CSV file
        </a>
      </p>
    </section>
  );
}
