import { useEffect, useState } from 'preact/hooks';
import { forgetEverything, keepTokens, storedTokens, takePendingSignIn } from './session';
import { hrefOf, navigate, replacePlace } from './router';
import { BASE } from './places';
import { SignIn } from './sign-in';
import { finishSignIn, signInWords } from './signing-in/oidc';
import { PersonSession, signInSetup } from './signing-in/person-session';
import { Shell } from './shell';

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
  return <Shell session={session} signOut={signOut} />;
}
