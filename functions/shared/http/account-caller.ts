import type { ApiKeyCaller } from '../domain/accounts/caller';
import type { ManagementContext } from '../domain/links/link-viewing';
import type { Admission } from './api-guard';

/** The authorizer guards every account route; a caller without a key there is a wiring bug (500). */
export function accountCaller(admission: Admission): ApiKeyCaller {
  if (admission.caller.kind !== 'apiKey') throw new Error('an account route reached without an API key');
  return admission.caller;
}

/** What an account's request on its links is decided with: who, the flags it was admitted under, now, the base URL. */
export async function managementContext(admission: Admission, shortBaseUrl: () => Promise<string>): Promise<ManagementContext> {
  return { caller: accountCaller(admission), flags: admission.flags, nowMs: Date.now(), shortBaseUrl: await shortBaseUrl() };
}
