/** A stored link. Dates are ISO 8601 UTC with milliseconds, as the spec returns them. */
export interface LinkRecord {
  code: string;
  /** Absent once the link is a tombstone. */
  url?: string;
  isAlias: boolean;
  passwordHash?: string;
  createdAt: string;
  expiresAt?: string;
  maxClicks?: number;
  clicks: number;
  owner: string;
  /** Set when maxClicks was reached: the code stays taken and answers 410 forever. */
  retired?: boolean;
}

/** The 201 body of spec 2.2; optional fields appear only when the request set them. */
export interface CreatedLinkView {
  shortUrl: string;
  shortCode: string;
  url: string;
  alias?: string;
  expiresAt?: string;
  maxClicks?: number;
  createdAt: string;
}

export function toCreatedLinkView(link: LinkRecord & { url: string }, shortBaseUrl: string): CreatedLinkView {
  return {
    shortUrl: `${shortBaseUrl.replace(/\/+$/, '')}/${link.code}`,
    shortCode: link.code,
    url: link.url,
    ...(link.isAlias ? { alias: link.code } : {}),
    ...(link.expiresAt ? { expiresAt: link.expiresAt } : {}),
    ...(link.maxClicks !== undefined ? { maxClicks: link.maxClicks } : {}),
    createdAt: link.createdAt,
  };
}

export function isExpired(link: LinkRecord, nowMs: number): boolean {
  return link.expiresAt !== undefined && Date.parse(link.expiresAt) <= nowMs;
}

/** Links whose answer can change between two visits must never be cached by anyone. */
export function isVolatile(link: LinkRecord): boolean {
  return link.expiresAt !== undefined || link.maxClicks !== undefined || link.passwordHash !== undefined;
}
