import { useEffect, useRef, useState } from 'preact/hooks';
import { call, type Api, type Problem } from '../api';
import { hrefOf, navigate } from '../router';
import { CopyButton, formatDateTime, formatNumber, ProblemNote } from '../ui';
import { useAllowed } from '../workspace';
import { draftOf, editOf } from './link-draft';
import { LinkForm } from './link-form';
import type { Link } from './link-types';
import { LinkStatsSection } from './link-stats';
import { QrDialog } from './qr-dialog';
import { HealthDetails } from './health-badge';
import { SOURCE_NAMES } from './import-sources';

/** One link: what it is, its stats, and edit, QR code and delete. */
export function LinkPage({ api, code }: { api: Api; code: string }) {
  const canEdit = useAllowed('PATCH /v2/links/{code}');
  const canDelete = useAllowed('DELETE /v2/links/{code}');
  const query = new URLSearchParams(location.search);
  const domain = query.get('domain') ?? undefined;
  const [link, setLink] = useState<Link>();
  const [problem, setProblem] = useState<Problem>();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(query.has('created') ? 'Link created.' : '');
  const [showQr, setShowQr] = useState(false);
  const confirmDelete = useRef<HTMLDialogElement>(null);
  const [deleteProblem, setDeleteProblem] = useState<Problem>();
  const params = { path: { code }, query: domain ? { domain } : {} };

  const load = async () => {
    const answer = await call(() => api.GET('/v2/links/{code}', { params }));
    if ('problem' in answer) setProblem(answer.problem);
    else setLink(answer.data);
  };
  useEffect(() => void load(), [api, code, domain]);

  const remove = async () => {
    const answer = await call(() => api.DELETE('/v2/links/{code}', { params }));
    if ('problem' in answer) return setDeleteProblem(answer.problem);
    confirmDelete.current?.close();
    navigate(hrefOf('/links'));
  };

  if (!link) {
    return (
      <section>
        <h1>Link {code}</h1>
        {problem ? <ProblemNote problem={problem} /> : <p>Loading…</p>}
        <p>
          <a href={hrefOf('/links')}>Back to your links</a>
        </p>
      </section>
    );
  }
  const changeable = link.status !== 'deleted' && link.status !== 'used-up';
  return (
    <section aria-labelledby="link-title">
      <p class="crumbs">
        <a href={hrefOf('/links')}>Links</a> /
      </p>
      <h1 id="link-title">{link.shortUrl}</h1>
      {saved && (
        <p class="saved" role="status">
          {saved}
        </p>
      )}
      <dl class="facts">
        <dt>Short URL</dt>
        <dd>
          <a href={link.shortUrl} rel="noopener noreferrer" target="_blank">
            {link.shortUrl}
          </a>{' '}
          <CopyButton text={link.shortUrl} label={`Copy ${link.shortUrl}`} />
        </dd>
        <dt>Destination</dt>
        <dd class="destination">{link.url ?? '—'}</dd>
        <dt>Status</dt>
        <dd>
          <span class={`status status-${link.status}`}>{link.status}</span>
        </dd>
        <dt>Health</dt>
        <dd>
          <HealthDetails health={link.health} active={link.status === 'active'} />
        </dd>
        <dt>Clicks</dt>
        <dd>{formatNumber(link.clicks)}{link.maxClicks !== undefined ? ` of ${formatNumber(link.maxClicks)}` : ''}</dd>
        {link.importedClicks !== undefined && (
          <>
            <dt>Clicks before import</dt>
            <dd data-testid="imported-clicks">{formatNumber(link.importedClicks)}</dd>
          </>
        )}
        {link.importedFrom && (
          <>
            <dt>Imported from</dt>
            <dd>
              {SOURCE_NAMES[link.importedFrom.source]} (<span class="destination">{link.importedFrom.sourceId}</span>)
            </dd>
          </>
        )}
        <dt>Created</dt>
        <dd>{formatDateTime(link.createdAt)}</dd>
        <dt>Expires</dt>
        <dd>{link.expiresAt ? formatDateTime(link.expiresAt) : 'Never'}</dd>
        <dt>Password</dt>
        <dd>{link.passwordProtected ? 'Yes' : 'No'}</dd>
        <dt>Tags</dt>
        <dd>{link.tags?.length ? link.tags.join(', ') : 'None'}</dd>
      </dl>
      <div class="actions">
        {changeable && canEdit && (
          <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            {editing ? 'Close the editor' : 'Edit'}
          </button>
        )}
        <button type="button" onClick={() => setShowQr(true)}>
          QR code
        </button>
        {link.status !== 'deleted' && canDelete && (
          <button type="button" class="danger" onClick={() => (setDeleteProblem(undefined), confirmDelete.current?.showModal())}>
            Delete
          </button>
        )}
      </div>
      {editing && (
        <section aria-labelledby="edit-title" class="panel">
          <h2 id="edit-title">Edit</h2>
          <LinkForm
            mode="edit"
            initial={draftOf(link)}
            domains={[]}
            current={{ passwordProtected: link.passwordProtected, ...(link.expiresAt ? { expiresAt: link.expiresAt } : {}) }}
            submitLabel="Save changes"
            onSubmit={async (draft) => {
              const edit = editOf(draftOf(link), draft);
              if (Object.keys(edit).length === 0) return { status: 0, message: 'Nothing changed.' };
              // Fields the API will refuse go as typed, for its message.
              const answer = await call(() => api.PATCH('/v2/links/{code}', { params, body: edit as never }));
              if ('problem' in answer) return answer.problem;
              setLink(answer.data);
              setEditing(false);
              setSaved('Changes saved.');
              return undefined;
            }}
          />
        </section>
      )}
      {showQr && <QrDialog api={api} code={code} domain={domain} shortUrl={link.shortUrl} onClose={() => setShowQr(false)} />}
      <dialog ref={confirmDelete} aria-labelledby="delete-title" class="confirm">
        <h2 id="delete-title">Delete {link.shortUrl}?</h2>
        <p>Visitors will no longer reach the destination{link.expiredUrl ? ' (they go to the after-expiry address)' : ''}. This cannot be undone.</p>
        <ProblemNote problem={deleteProblem} />
        <div class="actions">
          <button type="button" class="danger" onClick={remove}>
            Delete the link
          </button>
          <button type="button" class="quiet" onClick={() => confirmDelete.current?.close()} autoFocus>
            Keep it
          </button>
        </div>
      </dialog>
      <LinkStatsSection api={api} code={code} domain={domain} />
    </section>
  );
}
