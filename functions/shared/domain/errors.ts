import type { Plan, PlanGate } from './limits/plans';
import type { RateLimitStatus } from './limits/rate-limits';

/**
 * Typed outcomes that stop a request. They carry facts, not HTTP: `http/error-responses.ts` is the one place
 * that turns each into the spec's status and body.
 */
export abstract class DomainError extends Error {}

/** Any 400 of section 7.2: the message is the spec's string. */
export class InvalidRequest extends DomainError {}

export class AliasTaken extends InvalidRequest {}

export class PlanRequired extends DomainError {
  constructor(
    readonly feature: PlanGate,
    readonly currentPlan: Plan,
    readonly requiredPlan: Plan,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The caller is who they say, but this request is outside what they may do: a key without the route's scope, or a
 * person whose role does not allow it (403, the message naming what is missing).
 */
export class NotPermitted extends DomainError {
  constructor(readonly permission: string, message: string) {
    super(message);
  }
}

/**
 * The workspace requires multi-factor authentication and this person's sign-in did not use it (or, switching the
 * requirement on, the owner's own sign-in did not): 403, the message saying what to do. Keys are never refused so.
 */
export class MfaRequired extends DomainError {}

export class RateLimited extends DomainError {
  constructor(readonly status: RateLimitStatus, readonly retryAfterSeconds: number) {
    super('rate limited');
  }
}

export class QuotaExceeded extends DomainError {
  constructor(readonly limit: number, readonly resetDate: string, readonly status: RateLimitStatus) {
    super(`Monthly API call limit of ${limit} reached. It resets on ${resetDate}; upgrade your plan for more.`);
  }
}

export class UnderMaintenance extends DomainError {}

/** The third-party safety check could not answer and the fail mode says refuse. */
export class SafetyCheckUnavailable extends DomainError {}

/** The code does not exist or belongs to another account: the two look the same, never revealing the other's link. */
export class LinkNotFound extends DomainError {}

/** The link is used up or deleted: it can no longer change (410). */
export class LinkGone extends DomainError {}

/** The platform took the link down: its owner cannot change it (409). */
export class LinkDisabled extends DomainError {}

/** A bulk action's link changed after the action read it: the newer change is kept, the action is not applied (409). */
export class LinkChangedMeanwhile extends DomainError {}

/** Copies of the plain link may still be served: a click limit or password can be added after them (409, Retry-After). */
export class LinkStillCached extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** A dependency (DynamoDB, SSM) timed out, refused or failed: 503 with Retry-After, the request itself was fine. */
export class DependencyUnavailable extends DomainError {}

/** The body is bigger than the endpoint accepts (413, in the 400 body shape). */
export class BodyTooLarge extends DomainError {}

/** The Idempotency-Key was used before with a different body (422). */
export class IdempotencyKeyReused extends DomainError {}

/** The first request with this Idempotency-Key has not finished yet (409). */
export class IdempotencyKeyInProgress extends DomainError {}

/** The name belongs to an account already, the caller's included (409, never saying whose). */
export class DomainInUse extends DomainError {}

/** Not one of the caller's domains, or none at all: the same answer, never revealing another account's (404). */
export class DomainNotFound extends DomainError {}

/** The platform took the domain down: its owner can neither remove nor re-claim it (409). */
export class DomainDisabled extends DomainError {}

/** The domain was checked on request less than a minute ago (429 in the per-minute limit's shape, Retry-After). */
export class DomainCheckedRecently extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('domain checked recently');
  }
}

/** Not one of the caller's webhooks, or none at all: the same answer (404). */
export class WebhookNotFound extends DomainError {}

/** Not a member of the caller's workspace, or nobody at all: the same answer (404). */
export class MemberNotFound extends DomainError {}

/** Unknown, another workspace's, accepted, revoked or expired: the same answer, whatever an attacker tries (404). */
export class InvitationNotFound extends DomainError {}

/** The change would break a rule of the workspace's people: its last owner, a second membership, a second invitation (409). */
export class MembershipConflict extends DomainError {}

/** Not one of the workspace's live keys, or none at all: the same answer (404). */
export class KeyNotFound extends DomainError {}

/** Not one of the workspace's SSO connections, or none at all: the same answer (404). */
export class SsoConnectionNotFound extends DomainError {}

/** The email domain is connected already, by this workspace or another (409, never saying whose). */
export class SsoDomainInUse extends DomainError {}

/** The domain's TXT record is not there (yet): the connection stays pending (409). */
export class SsoChallengeMissing extends DomainError {}

/** No import of that id in the caller's workspace (another's looks the same). */
export class ImportNotFound extends DomainError {}
