/**
 * The API key lives in the tab's sessionStorage only: gone when the tab closes or the user signs out, never in a
 * cookie (so no request carries it unasked) or localStorage (so no other tab or later visit finds it).
 */
const STORAGE_KEY = 'shortener.apiKey';

export function storedApiKey(): string | undefined {
  return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
}

export function keepApiKey(apiKey: string): void {
  sessionStorage.setItem(STORAGE_KEY, apiKey);
}

/** Signing out forgets everything the tab kept: the key and any unfinished form. */
export function forgetApiKey(): void {
  sessionStorage.clear();
}

const DRAFT_PREFIX = 'shortener.draft.';

/** An unfinished form, kept for this tab so leaving the page loses nothing typed (passwords are never kept). */
export function keepDraft(form: string, draft: object): void {
  sessionStorage.setItem(DRAFT_PREFIX + form, JSON.stringify(draft));
}

export function keptDraft<T>(form: string): T | undefined {
  const text = sessionStorage.getItem(DRAFT_PREFIX + form);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export function forgetDraft(form: string): void {
  sessionStorage.removeItem(DRAFT_PREFIX + form);
}
