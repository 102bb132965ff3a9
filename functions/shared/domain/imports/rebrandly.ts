/*
 * Rebrandly's CSV export of links. Learned from the Rebrandly API's link fields as dubinc/dub's importer reads them
 * (`apps/web/app/(ee)/api/cron/import/rebrandly/utils.ts`: id, slashtag, destination, title, tags, createdAt, clicks,
 * domain), the export's headers being those fields or their dashboard labels.
 */
import { slugAndDomainExport, type SlugAndDomainColumns } from './slug-and-domain-export';

const COLUMNS = {
  id: ['id', 'link id'],
  slug: ['slashtag', 'slash tag', 'slug'],
  domain: ['domain', 'domain name', 'domain.fullName'],
  shortUrl: ['short url', 'shortUrl', 'branded link', 'short link'],
  url: ['destination', 'destination url', 'long url'],
  title: ['title'],
  tags: ['tags'],
  createdAt: ['createdAt', 'created', 'creation date'],
  expiresAt: ['expiresAt', 'expiration date'],
  clicks: ['clicks', 'total clicks'],
} satisfies SlugAndDomainColumns;

export const parseRebrandly = slugAndDomainExport('rebrandly', COLUMNS, 'destination');
