import { useMemo, useState } from 'preact/hooks';
import { apiFor, type Api } from './api';
import { forgetApiKey, keepApiKey, storedApiKey } from './session';
import { followLink, hrefOf, navigate, usePlace, type Place } from './router';
import { SignIn } from './sign-in';
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

export function App() {
  const [apiKey, setApiKey] = useState(storedApiKey);
  const [signedOutBecause, setSignedOutBecause] = useState<string>();
  const place = usePlace();
  const signOut = (reason?: string) => {
    forgetApiKey();
    setApiKey(undefined);
    setSignedOutBecause(reason);
  };
  const api = useMemo(() => (apiKey ? apiFor(apiKey, signOut) : undefined), [apiKey]);

  if (!api) {
    return (
      <SignIn
        reason={signedOutBecause}
        onSignedIn={(key) => {
          keepApiKey(key);
          setSignedOutBecause(undefined);
          setApiKey(key);
        }}
      />
    );
  }
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
          onClick={() => {
            signOut();
            navigate(hrefOf('/'));
          }}
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
