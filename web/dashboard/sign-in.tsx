import { useState } from 'preact/hooks';
import { apiFor, call, type Problem } from './api';
import { ProblemNote } from './ui';

/**
 * The key is checked with one call (the usage, which every key may read) before the dashboard opens. `reason` is why
 * the tab was signed out, when the API refused the key mid-session.
 */
export function SignIn({ onSignedIn, reason }: { onSignedIn: (apiKey: string) => void; reason?: string | undefined }) {
  const [apiKey, setApiKey] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>(reason === undefined ? undefined : { status: 401, message: reason });
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const key = apiKey.trim();
    if (!key) return setProblem({ status: 0, message: 'Enter your API key.' });
    setBusy(true);
    const answer = await call(() => apiFor(key).GET('/v2/usage'));
    setBusy(false);
    if ('problem' in answer) return setProblem(answer.problem);
    onSignedIn(key);
  };

  return (
    <main id="main" class="sign-in">
      <h1>Sign in to your dashboard</h1>
      <form onSubmit={submit} noValidate>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={apiKey}
          onInput={(event) => setApiKey(event.currentTarget.value)}
          aria-describedby="api-key-help"
          aria-invalid={problem ? true : undefined}
        />
        <p id="api-key-help" class="help">
          Kept in this tab only, until you sign out or close it. An operator issues keys with <code>npm run ops -- keys create</code>.
        </p>
        <ProblemNote problem={problem} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
