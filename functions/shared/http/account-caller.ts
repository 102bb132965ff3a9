import type { ApiKeyCaller } from '../domain/accounts/caller';
import type { Admission } from './api-guard';

/** The authorizer guards every account route; a caller without a key there is a wiring bug (500). */
export function accountCaller(admission: Admission): ApiKeyCaller {
  if (admission.caller.kind !== 'apiKey') throw new Error('an account route reached without an API key');
  return admission.caller;
}
