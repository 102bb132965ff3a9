import type { Plan } from '../limits/plans';

/**
 * Who is calling: a v2 API key of an account (vouched for by the authorizer) or an anonymous v1 client. The
 * per-minute limit counts per key, the monthly quota per account; links belong to the account's `owner`.
 */
export type ApiKeyCaller = { kind: 'apiKey'; keyId: string; accountId: string; owner: string; plan: Plan; monthlyLimitOverride?: number };
/** `client` is a keyed hash of the anonymous caller's address (see http/client-key.ts): the address itself is never stored. */
export type Caller = ApiKeyCaller | { kind: 'anonymous'; client: string };

/** v1 keeps its historical behaviour: anonymous callers get the FREE plan's features. */
export function planOf(caller: Caller): Plan {
  return caller.kind === 'apiKey' ? caller.plan : 'FREE';
}

/** Links made through v1 belong to nobody: no account's owner is ever "anonymous". */
export function ownerOf(caller: Caller): string {
  return caller.kind === 'apiKey' ? caller.owner : 'anonymous';
}
