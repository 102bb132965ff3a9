import { useEffect, useMemo, useState } from 'preact/hooks';
import { apiFor, type Api } from './api';
import { forgetEverything, keepTokens, storedTokens, storedWorkspace, takePendingSignIn } from './session';
import { followLink, hrefOf, navigate, replacePlace, usePlace, type Place } from './router';
import { BASE } from './places';
import { SignIn } from './sign-in';
import { finishSignIn, signInWords } from './signing-in/oidc';
import { PersonSession, signInSetup } from './signing-in/person-session';
import { LinksPage } from './links/links-page';
import { NewLinkPage } from './links/new-link-page';
import { ImportPage } from './links/import-page';
import { LinkPage } from './links/link-page';
import { DomainsPage } from './domains-page';
import { WebhooksPage } from './webhooks-page';
import { UsagePage } from './usage-page';

const NAV: Array<{ page: Place['page']; href: string; label: string }> = [
  { page: 'links', href: hrefOf('/'), label: 'Links' },
  { page: 'new', href: hrefOf('/new'), label: 'New link' },
  { page: 'import', href: hrefOf('/import'), label: 'Import CSV' },
  { page: 'domains', href: hrefOf('/domains'), label: 'Domains' },
  { page: 'webhooks', href: hrefOf('/webhooks'), label: 'Webhooks' },
  { page: 'usage', href: hrefOf('/usage'), label: 'Usage' },
];

/** Where a tab is: finding out (config, callback, stored tokens), signed out (and why), or signed in. */
type Entry = { kind: 'opening' } | { kind: 'signedOut'; reason?: string } | { kind: 'signedIn'; session: PersonSession };

/** Back where the sign-in started, if that was a page of the dashboard (anything else: the links). */
const safeReturn = (returnTo: string | undefined, callbackPath: string) =>
  returnTo?.startsWith(`${BASE}/`) && !returnTo.startsWith('//') && !returnTo.startsWith(callbackPath) ? returnTo : hrefOf('/');

/** The tab's way in: the provider's callback finished, a session kept by this tab resumed, or the sign-in page. */
async function enter(): Promise<Entry> {
  const setup = await signInSetup();
  const callbackPath = new URL(setup.config.redirectUri).pathname;
  if (location.pathname === callbackPath) {
    const pending = takePendingSignIn();
    try {
      const tokens = await finishSignIn(setup.config, setup.endpoints, pending, new URLSearchParams(location.search));
      keepTokens(tokens);
      replacePlace(safeReturn(pending?.returnTo, callbackPath));
      return { kind: 'signedIn', session: new PersonSession(setup, tokens) };
    } catch (error) {
      replacePlace(hrefOf('/'));
      return { kind: 'signedOut', reason: signInWords(error) };
    }
  }
  const tokens = storedTokens();
  return tokens ? { kind: 'signedIn', session: new PersonSession(setup, tokens) } : { kind: 'signedOut' };
}

export function App() {
  const [entry, setEntry] = useState<Entry>({ kind: 'opening' });
  useEffect(() => {
    enter().then(setEntry, (error: unknown) => setEntry({ kind: 'signedOut', reason: signInWords(error) }));
  }, []);

  if (entry.kind === 'opening') return <p class="loading">Loading…</p>;
  if (entry.kind === 'signedOut') return <SignIn reason={entry.reason} />;
  const session = entry.session;
  /**
   * Sign-out revokes the refresh token and forgets the tab's tokens; the provider's session is ended on its page when
   * it offers one. Refused mid-session (`reason`): the same, staying here to say why.
   */
  const signOut = async (reason?: string) => {
    const endSession = await session.signOut();
    forgetEverything();
    if (endSession && reason === undefined) return location.assign(endSession);
    navigate(hrefOf('/'));
    setEntry({ kind: 'signedOut', ...(reason === undefined ? {} : { reason }) });
  };
  return <SignedIn session={session} signOut={signOut} />;
}

function SignedIn({ session, signOut }: { session: PersonSession; signOut: (reason?: string) => Promise<void> }) {
  const place = usePlace();
  const [workspaceId] = useState(storedWorkspace);
  const api = useMemo(() => apiFor(session, workspaceId, (reason) => void signOut(reason)), [session, workspaceId]);
  return (
    <div class="shell" onClick={followLink}>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <span class="brand">Shortener</span>
        <nav aria-label="Dashboard">
          <ul>
            {NAV.map((item) => (
              <li key={item.page}>
                <a href={item.href} aria-current={item.page === place.page ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          class="quiet"
          onClick={() => void signOut()}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page place={place} api={api} />
      </main>
    </div>
  );
}

function Page({ place, api }: { place: Place; api: Api }) {
  switch (place.page) {
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
    case 'missing':
      return (
        <section>
          <h1>Page not found</h1>
          <p>
            <a href={hrefOf('/')}>Back to your links</a>
          </p>
        </section>
      );
  }
}
