import type { DestinationLabel } from '../destinations/smart-link';
import { dimensionValue } from './dimension-value';
import type { RegisterUpdate } from './visitor-sketch';

/**
 * One counted click, as the redirect reports it: the link, the time, classified values and the destination it was
 * sent to, nothing else. No address, user agent, full referring URL, cookie or visitor identifier is ever part of it.
 */
export interface Click {
  /** The link's key (links/link.ts `linkKey`): its code, prefixed `<domain>/` on a custom domain. */
  code: string;
  /** ISO 8601 UTC. */
  at: string;
  /** ISO 3166 alpha-2 from CloudFront, or "unknown". */
  country: string;
  /** The referring page's host, or "direct". */
  referrer: string;
  device: DeviceClass;
  /**
   * The link's own counter must not count this click: the redirect counted it already (a maxClicks link's
   * conditional click), or the link had ended and the visitor went to its expiredUrl.
   */
  counted: boolean;
  /** Which of the link's destinations the visitor was sent to (smart links, issue 18); absent: its url. */
  destination?: DestinationLabel;
  /** A bot (isbot, a link-preview fetcher, a HEAD request): counted apart from people (issue 30). Absent: a person. */
  bot?: true;
  /** ua-parser-js's family names only (issue 30; absent on older lines: "unknown"). */
  browser?: string;
  os?: string;
  /** CloudFront's subdivision, prefixed with the country (`US-CA`), and city, both "unknown" when not vouched for. */
  region?: string;
  city?: string;
  /** The visit's own `utm_source`, `utm_medium`, `utm_campaign`, when given. */
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  /**
   * A person's unique-visitor sketch update (visitor-sketch.ts): a register and a rank derived from the day's salted
   * hash, never the hash, the address or the agent. Absent for bots and when the day's salt could not be read.
   */
  visitor?: RegisterUpdate;
}

export const DEVICE_CLASSES = ['desktop', 'mobile', 'tablet', 'bot', 'other'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

/**
 * The device rules, in order, on the User-Agent alone (a few rules, not a parser; the first that matches wins):
 * 1. bot: no User-Agent, or one naming a crawler, a script or an HTTP library (bot, crawl, spider, curl, wget,
 *    python, Go's, Java's and Node's clients, headless browsers...);
 * 2. tablet: iPad, Android without "Mobile", Kindle/Silk, "Tablet";
 * 3. mobile: "Mobi", iPhone/iPod, Android, Windows Phone, BlackBerry, Opera Mini;
 * 4. desktop: Windows, Macintosh, X11/Linux, ChromeOS;
 * 5. other: anything else (smart TVs, consoles, watches...).
 */
const DEVICE_RULES: ReadonlyArray<readonly [DeviceClass, RegExp]> = [
  ['bot', /bot\b|bot\/|crawl|spider|slurp|curl\/|wget\/|python|go-http-client|java\/|okhttp|node-fetch|undici|axios|libwww|httpclient|scrapy|headless|phantomjs|postman|insomnia|httpie|powershell/i],
  ['tablet', /ipad|tablet|kindle|silk\/|playbook|android(?!.*mobile)/i],
  ['mobile', /mobi|iphone|ipod|android|windows phone|blackberry|bb10|opera mini/i],
  ['desktop', /windows nt|macintosh|mac os x|x11|linux|cros/i],
];

export function deviceClass(userAgent: string | undefined): DeviceClass {
  if (!userAgent?.trim()) return 'bot';
  return DEVICE_RULES.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? 'other';
}

/** The host of an http(s) Referer, lower case, without "www."; "direct" when there is none or it is not a web page. */
export function referrerHost(referer: string | undefined): string {
  if (!referer) return 'direct';
  try {
    const url = new URL(referer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:' || !url.hostname) return 'direct';
    return url.hostname.toLowerCase().replace(/^www\./, '').slice(0, 253);
  } catch {
    return 'direct';
  }
}

/** CloudFront's two-letter country code; anything else (absent, forged into nonsense) is "unknown". */
export function viewerCountry(header: string | undefined): string {
  const code = header?.trim().toUpperCase();
  return code && /^[A-Z]{2}$/.test(code) ? code : 'unknown';
}

/** CloudFront's subdivision code (ISO 3166-2, up to three letters or digits) under its country: `US-CA`, else "unknown". */
export function viewerRegion(country: string, header: string | undefined): string {
  const code = header?.trim().toUpperCase();
  return country !== 'unknown' && code && /^[A-Z0-9]{1,3}$/.test(code) ? `${country}-${code}` : 'unknown';
}

/** CloudFront's city name, stored as given (bounded, control characters dropped), or "unknown". */
export const viewerCity = (header: string | undefined): string => dimensionValue(header, 'unknown');

/** The campaign parameters of the visit's own query (the first of each), bounded like every dimension value. */
export function campaignOf(query: ReadonlyArray<readonly [string, string]>): Pick<Click, 'utmSource' | 'utmMedium' | 'utmCampaign'> {
  const first = (name: string) => {
    const value = dimensionValue(query.find(([key]) => key === name)?.[1], '');
    return value === '' ? undefined : value;
  };
  const [utmSource, utmMedium, utmCampaign] = [first('utm_source'), first('utm_medium'), first('utm_campaign')];
  return { ...(utmSource === undefined ? {} : { utmSource }), ...(utmMedium === undefined ? {} : { utmMedium }), ...(utmCampaign === undefined ? {} : { utmCampaign }) };
}
