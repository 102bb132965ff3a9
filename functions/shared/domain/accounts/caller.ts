import type { Plan } from '../limits/plans';

/** Who is calling: a v2 API key (vouched for by the authorizer) or an anonymous v1 client. */
export type Caller =
  | { kind: 'apiKey'; keyId: string; plan: Plan; monthlyLimitOverride?: number }
  | { kind: 'anonymous'; clientIp: string };

/** v1 keeps its historical behaviour: anonymous callers get the FREE plan's features. */
export function planOf(caller: Caller): Plan {
  return caller.kind === 'apiKey' ? caller.plan : 'FREE';
}

export function ownerOf(caller: Caller): string {
  return caller.kind === 'apiKey' ? `key:${caller.keyId}` : 'anonymous';
}
