import { useEffect, useMemo, useState } from 'preact/hooks';
import { apiFor, call, type Api, type Problem } from './api';
import type { paths } from '../../clients/typescript/src/schema';
import type { ApiRouteKey } from '../../functions/shared/http/routes';
import { keepWorkspace, storedWorkspace } from './session';
import { followLink, hrefOf, navigate, usePlace, type Place } from './router';
import type { PersonSession } from './signing-in/person-session';
import { chooseWorkspace, useAllowed, WorkspaceContext } from './workspace';
import { ProblemNote } from './ui';
import { LinksPage } from './links/links-page';
import { NewLinkPage } from './links/new-link-page';
import { ImportPage } from './links/import-page';
import { LinkPage } from './links/link-page';
import { DomainsPage } from './domains-page';
import { WebhooksPage } from './webhooks-page';
import { UsagePage } from './usage-page';
import { MembersPage } from './members-page';
import { KeysPage } from './keys-page';
import { AuditPage } from './audit-page';
import { ImportsPage } from './links/imports-page';
import { InvitationPage } from './invitation-page';
import { OverviewPage } from './overview-page';
import { SettingsPage } from './settings-page';
import { SecurityPage } from './security-page';

type Me = paths['/v2/me']['get']['responses'][200]['content']['application/json'];
type PageName = Exclude<Place['page'], 'link' | 'invitation' | 'missing'>;

/** Each page and the call it is built on: the page is offered, and opened, only where that call is allowed. */
const PAGES: Array<{ page: PageName; href: string; label: string; needs: ApiRouteKey }> = [
  { page: 'overview', href: hrefOf('/'), label: 'Overview', needs: 'GET /v2/stats' },
  { page: 'links', href: hrefOf('/links'), label: 'Links', needs: 'GET /v2/links' },
  { page: 'new', href: hrefOf('/new'), label: 'New link', needs: 'POST /v2/shorten' },
  { page: 'import', href: hrefOf('/import'), label: 'Import CSV', needs: 'POST /v2/shorten/batch' },
  { page: 'domains', href: hrefOf('/domains'), label: 'Domains', needs: 'GET /v2/domains' },
  { page: 'webhooks', href: hrefOf('/webhooks'), label: 'Webhooks', needs: 'GET /v2/webhooks' },
  { page: 'members', href: hrefOf('/members'), label: 'Members', needs: 'GET /v2/members' },
  { page: 'keys', href: hrefOf('/keys'), label: 'API keys', needs: 'POST /v2/keys' },
  { page: 'audit', href: hrefOf('/audit'), label: 'Audit log', needs: 'GET /v2/audit-log' },
  { page: 'usage', href: hrefOf('/usage'), label: 'Usage', needs: 'GET /v2/usage' },
  { page: 'imports', href: hrefOf('/imports'), label: 'Move links in', needs: 'POST /v2/imports' },
  { page: 'settings', href: hrefOf('/settings'), label: 'Settings', needs: 'GET /v2/workspace' },
  { page: 'security', href: hrefOf('/security'), label: 'Security', needs: 'GET /v2/workspace' },
];

/**
 * A signed-in person's dashboard: who they are and their workspaces (`GET /v2/me`), the chosen one named on every
 * call (Shortener-Workspace), a switcher among them, and the pages their role there allows.
 */
export function Shell({ session, signOut }: { session: PersonSession; signOut: (reason?: string) => Promise<void> }) {
  const place = usePlace();
  const [me, setMe] = useState<Me>();
  const [problem, setProblem] = useState<Problem>();
  const [workspaceId, setWorkspaceId] = useState(storedWorkspace);
  const onUnauthorized = (reason: string) => void signOut(reason);
  // The person's own calls (who they are, accepting an invitation) name no workspace.
  const personal = useMemo(() => apiFor(session, undefined, onUnauthorized), [session]);
  const loadMe = async () => {
    const answer = await call(() => personal.GET('/v2/me'));
    if ('problem' in answer) return setProblem(answer.problem);
    setProblem(undefined);
    setMe(answer.data);
  };
  useEffect(() => void loadMe(), [personal]);

  const chosen = me && chooseWorkspace(me.workspaces, workspaceId);
  const api = useMemo(() => apiFor(session, chosen?.workspaceId, onUnauthorized), [session, chosen?.workspaceId]);
  const choose = (id: string) => {
    keepWorkspace(id);
    setWorkspaceId(id);
    // Another workspace's pages: its links, not the link or form of the one left.
    navigate(hrefOf('/'));
  };
  const joined = async (id: string) => {
    await loadMe();
    choose(id);
  };
  const left = () => {
    setWorkspaceId(undefined);
    void loadMe().then(() => navigate(hrefOf('/')));
  };
  const email = me?.user.email ?? session.person.email;

  return (
    <WorkspaceContext.Provider value={chosen}>
      <div class="shell" onClick={followLink}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <span class="brand">Shortener</span>
          {chosen && <Navigation place={place} />}
          {me && me.workspaces.length > 1 && chosen && (
            <label class="switcher">
              Workspace{' '}
              <select value={chosen.workspaceId} onChange={(event) => choose(event.currentTarget.value)}>
                {me.workspaces.map((workspace) => (
                  <option key={workspace.workspaceId} value={workspace.workspaceId}>
                    {workspace.workspaceId} ({workspace.role})
                  </option>
                ))}
              </select>
            </label>
          )}
          <span class="who">{email}</span>
          <button type="button" class="quiet" onClick={() => void signOut()}>
            Sign out
          </button>
        </header>
        <main id="main" tabIndex={-1}>
          <ProblemNote problem={problem} />
          {place.page === 'invitation' ? (
            <InvitationPage api={personal} token={place.token} email={email} onAccepted={joined} />
          ) : me && !chosen ? (
            <section>
              <h1>No workspace yet</h1>
              <p>You are not a member of any workspace. Ask an owner or admin for an invitation: its mail brings you back here.</p>
            </section>
          ) : (
            chosen && <Page key={chosen.workspaceId} place={place} api={api} session={session} onLeft={left} />
          )}
        </main>
      </div>
    </WorkspaceContext.Provider>
  );
}

/** The pages the person's role allows, as links. */
function Navigation({ place }: { place: Place }) {
  return (
    <nav aria-label="Dashboard">
      <ul>
        {PAGES.map((item) => (
          <NavItem key={item.page} item={item} current={item.page === place.page} />
        ))}
      </ul>
    </nav>
  );
}

function NavItem({ item, current }: { item: (typeof PAGES)[number]; current: boolean }) {
  if (!useAllowed(item.needs)) return null;
  return (
    <li>
      <a href={item.href} aria-current={current ? 'page' : undefined}>
        {item.label}
      </a>
    </li>
  );
}

function Page({ place, api, session, onLeft }: { place: Place; api: Api; session: PersonSession; onLeft: () => void }) {
  const needs = PAGES.find((item) => item.page === place.page)?.needs ?? 'GET /v2/links';
  if (!useAllowed(needs)) {
    return (
      <section>
        <h1>Not for your role</h1>
        <p>Your role in this workspace does not allow this page. An owner or admin can change your role.</p>
      </section>
    );
  }
  switch (place.page) {
    case 'overview':
      return <OverviewPage api={api} />;
    case 'links':
      return <LinksPage api={api} />;
    case 'new':
      return <NewLinkPage api={api} />;
    case 'import':
      return <ImportPage api={api} />;
    case 'link':
      return <LinkPage api={api} code={place.code} key={place.code} />;
    case 'domains':
      return <DomainsPage api={api} />;
    case 'webhooks':
      return <WebhooksPage api={api} />;
    case 'usage':
      return <UsagePage api={api} />;
    case 'members':
      return <MembersPage api={api} me={session.person.sub} onLeft={onLeft} />;
    case 'keys':
      return <KeysPage api={api} />;
    case 'audit':
      return <AuditPage api={api} />;
    case 'imports':
      return <ImportsPage api={api} />;
    case 'settings':
      return <SettingsPage api={api} />;
    case 'security':
      return <SecurityPage api={api} session={session} />;
    case 'invitation':
    case 'missing':
      return (
        <section>
          <h1>Page not found</h1>
          <p>
            <a href={hrefOf('/links')}>Back to your links</a>
          </p>
        </section>
      );
  }
}
