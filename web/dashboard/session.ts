import type { PendingSignIn, Tokens } from './signing-in/oidc';

/**
 * What a signed-in tab keeps lives in its sessionStorage only: gone when the tab closes or the person signs out,
 * never in a cookie (so no request carries a token unasked) or localStorage (so no other tab or later visit finds
 * it). The tokens survive a reload of that tab; the provider's refresh token is revoked on sign-out.
 */
const TOKENS_KEY = 'shortener.tokens';
const PENDING_KEY = 'shortener.signingIn';
const WORKSPACE_KEY = 'shortener.workspace';

function readJson<T>(key: string): T | undefined {
  const text = sessionStorage.getItem(key);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export const storedTokens = () => readJson<Tokens>(TOKENS_KEY);
export const keepTokens = (tokens: Tokens) => sessionStorage.setItem(TOKENS_KEY, JSON.stringify(tokens));

/** The sign-in this tab started (verifier, state, nonce): read once, then gone, so a callback cannot be replayed. */
export function takePendingSignIn(): PendingSignIn | undefined {
  const pending = readJson<PendingSignIn>(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  return pending;
}
export const keepPendingSignIn = (pending: PendingSignIn) => sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));

/** The workspace this tab works in (a person may belong to several). */
export const storedWorkspace = () => sessionStorage.getItem(WORKSPACE_KEY) ?? undefined;
export const keepWorkspace = (workspaceId: string) => sessionStorage.setItem(WORKSPACE_KEY, workspaceId);

/** Signing out forgets everything the tab kept: the tokens, the workspace and any unfinished form. */
export function forgetEverything(): void {
  sessionStorage.clear();
}

const DRAFT_PREFIX = 'shortener.draft.';

/** An unfinished form, kept for this tab so leaving the page loses nothing typed (passwords are never kept). */
export function keepDraft(form: string, draft: object): void {
  sessionStorage.setItem(DRAFT_PREFIX + form, JSON.stringify(draft));
}

export const keptDraft = <T>(form: string) => readJson<T>(DRAFT_PREFIX + form);

export function forgetDraft(form: string): void {
  sessionStorage.removeItem(DRAFT_PREFIX + form);
}
