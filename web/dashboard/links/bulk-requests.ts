import type { paths } from '../../../clients/typescript/src/schema';
import { call, type Api, type Problem } from '../api';
import type { Link } from './link-types';

type BulkBody = paths['/v2/links/bulk']['post']['requestBody']['content']['application/json'];
export type BulkResult = paths['/v2/links/bulk']['post']['responses'][200]['content']['application/json']['results'][number];

/** What the page asks of the links: one of the API's four actions, with what it needs. */
export type BulkChoice = { action: 'delete' } | { action: 'addTags' | 'removeTags'; tags: string[] } | { action: 'update'; changes: { url: string } };

/** The filters of the list, as the API's filter takes them (empty ones left out). */
export interface BulkFilter {
  search?: string;
  status?: 'active' | 'expired' | 'used-up' | 'disabled' | 'deleted';
  domain?: string;
  tag?: string;
}

/** What a run did: each link's result so far, and the refusal that stopped it early, if one did. */
export interface BulkRun {
  results: BulkResult[];
  problem?: Problem;
}

/** The API takes at most this many codes a call (its MAX_BULK_CODES): a larger selection is sent in parts. */
const CODES_PER_CALL = 100;

/** Tags as a person types them: separated by commas or spaces, lower-cased as the API keeps them; the API checks each. */
export const tagsOf = (text: string) => text.toLowerCase().split(/[\s,]+/).filter((tag) => tag !== '');

export const selectionKey = (link: Pick<Link, 'domain' | 'shortCode'>) => `${link.domain}/${link.shortCode}`;

/**
 * The selected links, each on its domain (a code names a link on one domain: `?domain=` as for one link), a call per
 * domain and hundred codes; the results come back in the selection's order.
 */
export async function changeSelected(api: Api, selected: readonly Link[], choice: BulkChoice): Promise<BulkRun> {
  const byDomain = new Map<string, string[]>();
  for (const link of selected) byDomain.set(link.domain, [...(byDomain.get(link.domain) ?? []), link.shortCode]);
  const answered = new Map<string, BulkResult>();
  const inOrder = () => selected.flatMap((link) => answered.get(selectionKey(link)) ?? []);
  for (const [domain, codes] of byDomain) {
    for (let start = 0; start < codes.length; start += CODES_PER_CALL) {
      const body = { ...choice, codes: codes.slice(start, start + CODES_PER_CALL) } as BulkBody;
      const answer = await call(() => api.POST('/v2/links/bulk', { params: { query: { domain } }, body }));
      if ('problem' in answer) return { results: inOrder(), problem: answer.problem };
      for (const result of answer.data.results) answered.set(`${domain}/${result.code}`, result);
    }
  }
  return { results: inOrder() };
}

/**
 * Every link the filters pick, a call at a time (each changes up to 10,000 and hands back a cursor to go on);
 * `progress` hears the count after each call.
 */
export async function changeMatching(api: Api, filter: BulkFilter, choice: BulkChoice, progress: (changed: number) => void): Promise<BulkRun> {
  const results: BulkResult[] = [];
  let cursor: string | undefined;
  do {
    const body = { ...choice, filter, ...(cursor ? { cursor } : {}) } as BulkBody;
    const answer = await call(() => api.POST('/v2/links/bulk', { body }));
    if ('problem' in answer) return { results, problem: answer.problem };
    results.push(...answer.data.results);
    cursor = answer.data.cursor;
    progress(results.length);
  } while (cursor);
  return { results };
}
