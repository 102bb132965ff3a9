import { randomUUID } from 'node:crypto';
import type { Actor } from '../accounts/caller';

/** Who asks for a change: the actor the authorizer vouched for (or an operator) and the API request, when there is one. */
export interface ChangeAuthor {
  actor: Actor;
  requestId?: string;
}

/** An operator through `npm run ops`: no request id, no key, no person. */
export const OPERATOR: ChangeAuthor = { actor: { kind: 'operator' } };

/**
 * What a change to a link carries on the item itself (the `auditStamp` attribute), for the audit log's stream
 * consumer (functions/audit-events): who, which action, when, in which request. The record is then read from the
 * committed change, so creating a link costs one attribute and no second write. `id` is the change's own: a later
 * write that leaves the stamp as it was (a cache lease) or removes it (a click) is no audited change.
 */
export interface AuditStamp {
  id: string;
  action: string;
  actor: Actor;
  at: string;
  requestId?: string;
}

export function auditStamp(action: string, author: ChangeAuthor, nowMs: number): AuditStamp {
  return {
    id: randomUUID(),
    action,
    actor: author.actor,
    at: new Date(nowMs).toISOString(),
    ...(author.requestId === undefined ? {} : { requestId: author.requestId }),
  };
}
