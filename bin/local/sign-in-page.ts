import { escapeHtml, layout } from '../../functions/shared/http/pages';

/** What the local provider's page shows: the email and password form (again, with an error), or a dead end. */
export type SignInPageState =
  | { kind: 'password'; action: string; email?: string; error?: string; passkey?: PasskeyOffer }
  | { kind: 'totp'; action: string; error?: string }
  | { kind: 'error'; message: string };

/** Where the page's passkey button asks for a challenge, posts the answer, and the two scripts it runs. */
export interface PasskeyOffer {
  optionsUrl: string;
  action: string;
  scripts: string[];
}

/**
 * The local user pool's sign-in page, in the visitors' pages' layout (every value escaped; served with their
 * Content-Security-Policy). It stands in for Cognito's managed login pages in a local run only. Its one script is
 * the passkey button's (when the pool allows passkeys): the page works without it, with email and password.
 */
export function signInPage(state: SignInPageState): string {
  if (state.kind === 'error') return layout('Sign-in failed', `<h1>Sign-in failed</h1>\n<p>${escapeHtml(state.message)}</p>`);
  if (state.kind === 'totp') {
    return layout(
      'Sign in',
      `<h1>Authenticator code</h1>
<p>Enter the 6-digit code your authenticator app shows for this account.</p>
${state.error ? `<p class="error" role="alert">${escapeHtml(state.error)}</p>` : ''}
<form method="post" action="${escapeHtml(state.action)}">
<label for="code">Code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus>
<button type="submit">Sign in</button>
</form>`,
    );
  }
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p>Local user pool: the development stand-in for Amazon Cognito's sign-in pages.</p>
${state.error ? `<p class="error" role="alert">${escapeHtml(state.error)}</p>` : ''}
<form method="post" action="${escapeHtml(state.action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(state.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>${state.passkey ? passkeyForm(state.passkey) : ''}`,
  );
}

/** The passkey button, hidden until its script runs; the answer goes in a form of its own, posted by the script. */
function passkeyForm(offer: PasskeyOffer): string {
  return `
<form id="passkey-form" method="post" action="${escapeHtml(offer.action)}" data-options="${escapeHtml(offer.optionsUrl)}">
<input type="hidden" name="assertion" value="">
<button type="button" id="passkey-sign-in" hidden>Use a passkey</button>
<p id="passkey-status" role="status"></p>
</form>
${offer.scripts.map((script) => `<script src="${escapeHtml(script)}"></script>`).join('\n')}`;
}

/**
 * The provider's end-session question (RP-initiated logout, as the dashboard's sign-out asks it): oidc-provider's
 * form (its anti-forgery field inside, `id="op.logoutForm"`) and the two answers, in the same layout.
 */
export function signOutPage(form: string): string {
  return layout(
    'Sign out',
    `<h1>Sign out</h1>
<p>Sign out of the local user pool as well?</p>
${form}
<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button>`,
  );
}
