import type { DestinationLabel } from '../destinations/smart-link';

/**
 * One counted click, as the redirect reports it: the link, the time, three classified values and the destination
 * it was sent to, nothing else. No address, user agent, full referring URL, cookie or visitor identifier is ever part of it.
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
