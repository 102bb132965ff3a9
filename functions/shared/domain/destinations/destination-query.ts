import { UTM_FIELDS, type Utm } from './smart-link';

/** A query string's parameters in order, decoded: what the visitor sent (forwardQuery) or a rule matches on. */
export type QueryPairs = ReadonlyArray<readonly [name: string, value: string]>;

/** Past this the forwarded query is dropped rather than sent: some browsers and servers refuse longer URLs. */
const MAX_LOCATION_LENGTH = 8192;

function decodedName(part: string): string {
  const name = part.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** encodeURIComponent throws on a lone surrogate, which no UTF-8 can carry: it becomes U+FFFD, as a decoder makes it. */
const encoded = (text: string) =>
  encodeURIComponent(/[\uD800-\uDFFF]/.test(text) ? text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD') : text);

const encodedPair = ([name, value]: readonly [string, string]) => `${encoded(name)}=${encoded(value)}`;

/** Pairs as a query string (no `?`), each part percent-encoded, a lone surrogate as U+FFFD. */
export const queryString = (pairs: QueryPairs): string => pairs.map(encodedPair).join('&');

/**
 * A destination taken apart once per cached link, so a visit only appends: the URL with the link's UTM tags set
 * (replacing its own `utm_*` of the same name), and what a forwarded query must not repeat.
 */
export interface PreparedDestination {
  /** The destination with its UTM tags: what a visitor gets without forwarding. */
  tagged: string;
  /** Before the query, the destination's own parameters (exact bytes, tags replaced), the tags, the fragment. */
  base: string;
  own: readonly string[];
  tags: readonly string[];
  fragment: string;
  /** Parameter names a visitor's parameter may not take: the destination's own and the tags'. */
  taken: ReadonlySet<string>;
}

export function prepareDestination(url: string, utm: Utm | undefined): PreparedDestination {
  const tags = UTM_FIELDS.flatMap((field): Array<[string, string]> => (utm?.[field] === undefined ? [] : [[`utm_${field}`, utm[field]]]));
  const hashAt = url.indexOf('#');
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const withoutFragment = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = withoutFragment.indexOf('?');
  const base = queryAt === -1 ? withoutFragment : withoutFragment.slice(0, queryAt);
  const tagNames = new Set(tags.map(([name]) => name));
  const own = (queryAt === -1 ? [] : withoutFragment.slice(queryAt + 1).split('&')).filter((part) => part !== '' && !tagNames.has(decodedName(part)));
  const prepared = { base, own, tags: tags.map(encodedPair), fragment, taken: new Set([...own.map(decodedName), ...tagNames]) };
  return { ...prepared, tagged: tags.length === 0 ? url : compose(prepared, []) };
}

function compose(destination: Omit<PreparedDestination, 'tagged' | 'taken'>, visitors: readonly string[]): string {
  const parts = [...destination.own, ...visitors, ...destination.tags];
  return `${destination.base}${parts.length > 0 ? `?${parts.join('&')}` : ''}${destination.fragment}`;
}

/**
 * The destination with the visitor's parameters appended where it has none of that name (its own and the UTM tags
 * win on a clash). The destination's own query keeps its exact bytes and its fragment stays last; added parts are
 * percent-encoded, so the result stays a valid ASCII Location.
 */
export function withVisitorQuery(destination: PreparedDestination, forwarded: QueryPairs): string {
  const visitors: string[] = [];
  for (const pair of forwarded) if (!destination.taken.has(pair[0])) visitors.push(encodedPair(pair));
  if (visitors.length === 0) return destination.tagged;
  const full = compose(destination, visitors);
  return full.length <= MAX_LOCATION_LENGTH ? full : destination.tagged;
}
