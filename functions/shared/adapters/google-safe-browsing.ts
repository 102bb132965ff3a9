import { SafetyCheckUnavailable } from '../domain/errors';
import { OwnMessages } from '../domain/messages';
import type { SafetyChecker } from '../domain/ports';

export const SAFE_BROWSING_ENDPOINT = 'https://safebrowsing.googleapis.com/v4/threatMatches:find';
/** Google accepts up to 500 threat entries per Lookup API call: a 50-item batch always fits in one. */
export const MAX_URLS_PER_LOOKUP = 500;
const TIMEOUT_MS = 2_000;

interface ThreatMatchesResponse {
  matches?: Array<{ threat?: { url?: string } }>;
}

export interface GoogleSafeBrowsingOptions {
  apiKey: () => Promise<string>;
  endpoint?: string;
  /** When Google cannot answer: refuse the creation (default) or let it through. */
  failOpen?: boolean;
  onFailure?: (reason: string) => void;
}

/** Google Safe Browsing v4 Lookup API (threatMatches:find) over all four threat types. */
export class GoogleSafeBrowsingChecker implements SafetyChecker {
  constructor(private readonly options: GoogleSafeBrowsingOptions) {}

  async findUnsafe(urls: readonly string[]): Promise<ReadonlySet<string>> {
    const unsafe = new Set<string>();
    for (let start = 0; start < urls.length; start += MAX_URLS_PER_LOOKUP) {
      for (const url of await this.lookup(urls.slice(start, start + MAX_URLS_PER_LOOKUP))) unsafe.add(url);
    }
    return unsafe;
  }

  private async lookup(urls: readonly string[]): Promise<string[]> {
    try {
      const endpoint = new URL(this.options.endpoint ?? SAFE_BROWSING_ENDPOINT);
      endpoint.searchParams.set('key', await this.options.apiKey());
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
        body: JSON.stringify({
          client: { clientId: 'url-shortener', clientVersion: '1.0.0' },
          threatInfo: {
            threatTypes: ['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE', 'POTENTIALLY_HARMFUL_APPLICATION'],
            platformTypes: ['ANY_PLATFORM'],
            threatEntryTypes: ['URL'],
            threatEntries: urls.map((url) => ({ url })),
          },
        }),
      });
      if (!response.ok) throw new Error(`Safe Browsing answered ${response.status}`);
      const body = (await response.json()) as ThreatMatchesResponse;
      return (body.matches ?? []).flatMap((match) => (match.threat?.url ? [match.threat.url] : []));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.options.onFailure?.(reason);
      if (this.options.failOpen) return [];
      throw new SafetyCheckUnavailable(OwnMessages.safetyUnavailable);
    }
  }
}
