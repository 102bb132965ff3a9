/** What a refused call shows the user: the API's own words, and where to upgrade when the plan is the reason. */
export interface Problem {
  status: number;
  message: string;
  upgradeUrl?: string;
  retryAfter?: number;
}

let lastUpgradeUrl: string | undefined;

/** The upgrade address of the last 403 or 429 the API sent this tab (the usage page offers it). */
export const knownUpgradeUrl = () => lastUpgradeUrl;

/** Only a web address is offered as a link: never `javascript:` or anything else a body might carry. */
const webAddress = (value: unknown): string | undefined => (typeof value === 'string' && /^https?:\/\//i.test(value) ? value : undefined);

/**
 * A refusal's body as a Problem (status 0: no answer at all); a body that is not the API's (a proxy's page,
 * nothing) still gets words.
 */
export function problemOf(body: unknown, status: number): Problem {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as { message?: unknown; upgradeUrl?: unknown; retryAfter?: unknown };
  const message = typeof fields.message === 'string' ? fields.message : status === 0 ? 'The service could not be reached. Check your connection and try again.' : `The service answered ${status}.`;
  const upgradeUrl = webAddress(fields.upgradeUrl);
  if (upgradeUrl) lastUpgradeUrl = upgradeUrl;
  return { status, message, ...(upgradeUrl ? { upgradeUrl } : {}), ...(typeof fields.retryAfter === 'number' ? { retryAfter: fields.retryAfter } : {}) };
}
