import { useState } from 'preact/hooks';
import { keepPendingSignIn } from './session';
import { signInSetup } from './signing-in/person-session';
import { signInWords, startSignIn } from './signing-in/oidc';
import { ProblemNote } from './ui';

/**
 * The way in: the provider's own sign-in page (the dashboard never sees a password or a secret). `reason` is why
 * the tab was signed out (the API refused the session mid-way, or the sign-in failed).
 */
export function SignIn({ reason }: { reason?: string | undefined }) {
  const [problem, setProblem] = useState(reason);
  const [busy, setBusy] = useState(false);

  const signIn = async () => {
    setBusy(true);
    try {
      const { config, endpoints } = await signInSetup();
      // The callback is one exact URL: a tab on another of the dashboard's hosts moves there first, since what it
      // keeps for the callback (verifier, state, nonce) is that origin's.
      const callback = new URL(config.redirectUri);
      if (callback.origin !== location.origin) return location.assign(new URL(location.pathname + location.search, callback.origin).toString());
      const { pending, url } = await startSignIn(config, endpoints, location.pathname + location.search);
      keepPendingSignIn(pending);
      location.assign(url);
    } catch (error) {
      setBusy(false);
      setProblem(signInWords(error));
    }
  };

  return (
    <main id="main" class="sign-in">
      <h1>Sign in to your dashboard</h1>
      <p class="help">You sign in on the service's sign-in page and come back here. Machines keep using API keys; people sign in.</p>
      <ProblemNote problem={problem === undefined ? undefined : { status: 401, message: problem }} />
      <button type="button" onClick={() => void signIn()} disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </main>
  );
}
