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
const encoded = (text: string) => encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

const encodedPair = ([name, value]: readonly [string, string]) => `${encoded(name)}=${encoded(value)}`;

/**
 * The destination with the link's UTM tags set (replacing its own `utm_*` of the same name) and, with forwardQuery,
 * the visitor's parameters appended where the destination has none of that name (its own win on a clash). The
 * destination's own query keeps its exact bytes and its fragment stays last; added parts are percent-encoded, so
 * the result stays a valid ASCII Location.
 */
export function decoratedDestination(url: string, forwarded: QueryPairs, utm: Utm | undefined): string {
  const tags = UTM_FIELDS.flatMap((field): Array<[string, string]> => (utm?.[field] === undefined ? [] : [[`utm_${field}`, utm[field]]]));
  if (forwarded.length === 0 && tags.length === 0) return url;
  const hashAt = url.indexOf('#');
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const withoutFragment = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = withoutFragment.indexOf('?');
  const base = queryAt === -1 ? withoutFragment : withoutFragment.slice(0, queryAt);
  const tagged = new Set(tags.map(([name]) => name));
  const own = (queryAt === -1 ? [] : withoutFragment.slice(queryAt + 1).split('&')).filter((part) => part !== '' && !tagged.has(decodedName(part)));
  const ownNames = new Set(own.map(decodedName));
  const visitors = forwarded.filter(([name]) => !ownNames.has(name) && !tagged.has(name)).map(encodedPair);
  const compose = (parts: readonly string[]) => `${base}${parts.length > 0 ? `?${parts.join('&')}` : ''}${fragment}`;
  const tagsEncoded = tags.map(encodedPair);
  const full = compose([...own, ...visitors, ...tagsEncoded]);
  return full.length <= MAX_LOCATION_LENGTH ? full : compose([...own, ...tagsEncoded]);
}
