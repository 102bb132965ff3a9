/*
 * Short.io's CSV export of links. Learned from the Short.io API's link fields as dubinc/dub's importer reads them
 * (`apps/web/app/(ee)/api/cron/import/short/utils.ts`: originalURL, path, title, tags, createdAt; a link with an
 * empty path is the domain's root, not a short link), the export's headers being those fields or their labels.
 */
import { slugAndDomainExport, type SlugAndDomainColumns } from './slug-and-domain-export';

const COLUMNS = {
  id: ['idString', 'id', 'link id'],
  slug: ['path', 'slug'],
  domain: ['domain'],
  shortUrl: ['shortURL', 'short url', 'secureShortURL', 'short link'],
  url: ['originalURL', 'original url', 'long url', 'destination'],
  title: ['title'],
  tags: ['tags'],
  createdAt: ['createdAt', 'created at', 'created'],
  expiresAt: ['expiresAt', 'expires at', 'expiration date'],
  clicks: ['clicks', 'total clicks'],
} satisfies SlugAndDomainColumns;

export const parseShortio = slugAndDomainExport('shortio', COLUMNS, 'originalURL');
