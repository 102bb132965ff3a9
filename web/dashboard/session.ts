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

export function forgetApiKey(): void {
  sessionStorage.clear();
}
