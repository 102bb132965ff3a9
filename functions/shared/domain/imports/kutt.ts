/*
 * Kutt's links listing, `GET /api/v2/links` (pages of `{total, limit, skip, data}`). Learned from
 * thedevs-network/kutt `server/handlers/links.handler.js` (the page), `server/queries/link.queries.js` (the fields:
 * address, target, description, created_at, expire_in, visit_count, domain, null on the default domain) and
 * `server/utils/utils.js` `sanitize.link` (`id` is the link's uuid, `link` its short URL), and from
 * shlinkio/shlink-importer `src/Sources/Kutt/KuttImporter.php`. Kutt has no tags.
 */
import { optionalText, readCount, readDate } from './field-readers';
import { collectRows, firstRefusal, hostOf, isObject, jsonText, parseJsonFile, recordOf, requiredText, valueOf, type RowOutcome } from './import-rows';
import { linksOfPages } from './json-pages';
import type { ImportParser } from './import-record';
import { ImportMessages } from '../messages';

function kuttLink(item: unknown): RowOutcome {
  if (!isObject(item)) return { reason: ImportMessages.notALink };
  const id = jsonText(item, 'id');
  const address = jsonText(item, 'address');
  const domain = jsonText(item, 'domain');
  const link = jsonText(item, 'link');
  const target = jsonText(item, 'target');
  const description = jsonText(item, 'description');
  const created = jsonText(item, 'created_at');
  const expires = jsonText(item, 'expire_in');
  const shape = firstRefusal(id, address, domain, link, target, description, created, expires);
  if (shape) return shape;
  const slug = requiredText('address', valueOf(address));
  const url = requiredText('target', valueOf(target));
  const createdAt = readDate('created_at', valueOf(created));
  const expiresAt = readDate('expire_in', valueOf(expires));
  const visits = item.visit_count;
  const clicks = readCount('visit_count', typeof visits === 'number' ? visits : visits === undefined || visits === null ? '' : Number.NaN);
  const refusal = firstRefusal(slug, url, createdAt, expiresAt, clicks);
  if (refusal) return refusal;
  const host = valueOf(domain) ?? hostOf(valueOf(link));
  return recordOf({
    sourceId: optionalText(valueOf(id)) ?? `${host ?? ''}/${valueOf(slug)}`,
    domain: host,
    slug: valueOf(slug),
    url: valueOf(url).trim(),
    title: optionalText(valueOf(description)),
    tags: [],
    createdAt: valueOf(createdAt),
    expiresAt: valueOf(expiresAt),
    clicks: valueOf(clicks),
  });
}

export const parseKutt: ImportParser = (text, { maxRows }) => {
  const items = linksOfPages(parseJsonFile(text, 'kutt'), 'kutt', 'links listing ({"data": [...], "total": …})', (page) => (Array.isArray(page.data) ? page.data : undefined), maxRows);
  return collectRows(items, ({ item }) => kuttLink(item));
};
