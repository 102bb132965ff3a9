import type { LiveHour, WorkspaceDay } from './analytics/rollups';
import type { DayCounts, LinkCounts } from './analytics/click-counts';
import type { AnalyticsSwitches } from './analytics/analytics-switches';
import type { DeliveryAttempt, WebhookRecord } from './webhooks/webhook';
import type { DeliveryTask } from './webhooks/delivery';
import type { Flags } from './limits/flags';
import type { DnsRecord, DomainRecord, DomainStatus, StatusChange } from './domains/custom-domain';
import type { LinkRecord } from './links/link';
import type { Rule, Utm, Variant } from './destinations/smart-link';
import type { SmartFieldParsers } from './destinations/smart-link-request';
import type { Role } from './accounts/permissions';
import type { AuditStamp } from './audit/audit-stamp';
import type { AuditRecord } from './audit/audit-record';
import type { Invitation } from './workspaces/invitation';
import type { SeatCount } from './workspaces/seats';
import type { ApiKeyRecord } from './accounts/api-keys';
import type { SsoConnection, SsoProtocol } from './sso/sso-connection';
import type { LinkHealthRecord, Observation, ProbeAnswer } from './health/link-health';

/**
 * What the domain needs from storage and third parties; adapters in ../adapters implement these. Links are named
 * by their key (links/link.ts `linkKey`): the short code, prefixed `<domain>/` on a custom domain.
 */

export interface LinkStore {
  /**
   * Writes the link unless its code is taken; false when it was, by another link (a retried write that finds its own
   * item made it: true). A workspace's link carries its audit stamp (audit-stamp.ts).
   */
  createIfAbsent(link: LinkRecord, stamp?: AuditStamp): Promise<boolean>;
  find(key: string): Promise<LinkRecord | undefined>;
  /**
   * One atomic conditional click; see ClickOutcome. `passwordless`: refused (`missing`) when the link has a
   * password, for a click counted before anything was read (see `countsClicks`).
   */
  consumeClick(code: string, nowMs: number, options?: { passwordless: boolean }): Promise<ClickOutcome>;
  /**
   * Whether the link was last seen with a click limit and no password (a container's memory, CachedLinkStore): its
   * visit then starts with the click, whose conditional update also reads the link. Absent where nothing is remembered.
   */
  countsClicks?(key: string): boolean;
  /**
   * A password link's copy read in the last few seconds (CachedLinkStore), for the answers that reveal nothing
   * of it: its form and a preview card. Absent where nothing is remembered.
   */
  recentPasswordLink?(key: string): LinkRecord | undefined;
  /** Strips a used-up link to a tombstone that keeps its code taken. */
  retire(code: string): Promise<void>;
  /**
   * Extends the link's cache lease to `untilMs` if it may still be copied (leasable and not sealed): `leased`
   * with the link as now stored, or not, with the link as it is (absent when it is gone).
   */
  renewCacheLease(code: string, untilMs: number, nowMs: number): Promise<{ leased: boolean; link?: LinkRecord }>;
}

/**
 * One visit's click, decided by storage: counted, or why not. A copy of the link cached before an owner's edit may
 * still say maxClicks after the limit was removed (`unlimited`: redirect without counting) or after a delete.
 */
export type ClickOutcome =
  | { kind: 'counted'; link: LinkRecord }
  | { kind: 'unlimited'; link: LinkRecord }
  | { kind: 'missing' }
  /** `expiredUrl`: where the link sends visitors once it ran out (read from the item as it was), when it has one. */
  | { kind: 'expired'; expiredUrl?: string }
  | { kind: 'usedUp'; expiredUrl?: string }
  | { kind: 'deleted'; expiredUrl?: string }
  | { kind: 'disabled' };

/** Where a page of an account's links ends: the index position of the last link examined. */
export interface LinkPosition {
  code: string;
  createdAt: string;
}

/** An owner's edit: a value sets a field, null removes it, undefined leaves it as it is. */
/** An edit: each field set, or removed by null. */
export interface LinkChanges {
  url?: string;
  expiresAt?: string | null;
  maxClicks?: number | null;
  passwordHash?: string | null;
  tags?: string[] | null;
  rules?: Rule[] | null;
  variants?: Variant[] | null;
  forwardQuery?: true | null;
  utm?: Utm | null;
  expiredUrl?: string | null;
}

/** A write that checks the link's state: done, or refused with the link as it was (absent when there is none). */
export type GuardedWrite = { done: true; link: LinkRecord } | { done: false; current?: LinkRecord };

/**
 * The claim of a custom domain a write requires the link to have been made under (issue 27): its id, or undefined for
 * a claim made before ids existed. A link made before ids (none of its own) passes either way: its owner, checked
 * beside, holds the name.
 */
export interface ClaimCondition {
  claimId: string | undefined;
}

/** What the link-management API and the ops CLI need beyond visits. */
/**
 * The version of a link a bulk action read (issue 31): a write given it is refused when the link changed since, so
 * a change made meanwhile is kept. Every owner's or operator's change sets `updatedAt`; clicks and cache leases do not.
 */
export interface LinkVersion {
  /** Absent: the link was never changed since it was created. */
  updatedAt?: string;
}

/** Several links read in one call (a bulk action's codes), by key; keys without a link are absent from the answer. */
export interface LinkBatchReader {
  findMany(keys: readonly string[]): Promise<Map<string, LinkRecord>>;
}

export interface ManagedLinkStore {
  find(key: string): Promise<LinkRecord | undefined>;
  /** A page of the owner's links, newest first, starting after `after`; `more` when the index holds further ones. */
  listByOwner(owner: string, page: { limit: number; after?: LinkPosition }): Promise<{ links: LinkRecord[]; more: boolean }>;
  /**
   * Applies the changes if the link is the owner's (made under `claim`, when given) and can still change (not used
   * up, deleted or disabled). `stamp`: the audited change's (audit-stamp.ts), written with it.
   */
  update(code: string, owner: string, changes: LinkChanges, nowMs: number, claim?: ClaimCondition, stamp?: AuditStamp, seen?: LinkVersion): Promise<GuardedWrite>;
  /** Turns the owner's link (made under `claim`, when given) into a tombstone, unless it already is one or is disabled. */
  markDeleted(code: string, owner: string, nowMs: number, claim?: ClaimCondition, stamp?: AuditStamp, seen?: LinkVersion): Promise<GuardedWrite>;
  /** Stops new cache leases on the link until `untilMs`, so the copies taken under the current one run out. */
  sealCache(code: string, untilMs: number): Promise<void>;
  /** An operator's takedown (with a reason) or its reversal (undefined); false when no link has the code. */
  setDisabled(key: string, reason: string | undefined, nowMs: number, stamp?: AuditStamp): Promise<boolean>;
  /**
   * Keys of the owner's links on a domain created at or before `createdUpTo`, a page at a time (a removed domain's
   * cleanup): at most `limit` links examined (other owners' included), `examined` says how many were; `next` is
   * where the next page starts, absent after the last.
   */
  keysOnDomain(domain: string, owner: string, createdUpTo: string, page: { limit: number; after?: string }): Promise<{ keys: string[]; examined: number; next?: string }>;
  /**
   * A removed domain's link becomes a bare tombstone: deleted, with nothing of its destinations, password or
   * expiredUrl (the name's next holder's own URLs apply); false when there was nothing left to clear, or it is not
   * the owner's, or an operator took it down (kept as the operator left it).
   */
  clearOfRemovedDomain(key: string, owner: string, nowMs: number): Promise<boolean>;
}

export interface UsageCounter {
  /** Adds one to the counter unless it already reached `limit`; `count` is the value after the call. */
  tryConsume(counterId: string, limit: number, expiresAtEpochSeconds: number): Promise<{ consumed: boolean; count: number }>;
  /** Takes back one unit an earlier tryConsume counted (never below zero). */
  release(counterId: string): Promise<void>;
  /** The counter's value now (0 when it does not exist). */
  current(counterId: string): Promise<number>;
}

export interface FlagSource {
  current(): Promise<Flags>;
}

export interface SafetyChecker {
  /** The subset of `urls` that the check flags; throws SafetyCheckUnavailable when it cannot tell. */
  findUnsafe(urls: readonly string[]): Promise<ReadonlySet<string>>;
}

export interface AliasOverrides {
  /** Whether an operator let this key use this reserved alias. */
  allows(alias: string, keyId: string): Promise<boolean>;
}

/** Click aggregates: written by the aggregator, read by the stats endpoint. */
export interface ClickStatsStore {
  /**
   * Adds a delivered batch's counts exactly once, however often the batch is delivered: `batchId` marks it as
   * applied in the same transaction as its counts. Counts of links that no longer exist are dropped.
   */
  apply(batchId: string, counts: readonly LinkCounts[], nowMs: number, rollups?: { workspaces: readonly WorkspaceDay[]; live: readonly LiveHour[] }): Promise<void>;
  /** The link's (or workspace item's) counted days from `fromDay` to `toDay` (inclusive, YYYY-MM-DD). */
  days(code: string, fromDay: string, toDay: string): Promise<DayCounts[]>;
  /** A live item's hours from `fromHour` to `toHour` (inclusive, YYYY-MM-DDTHH). */
  hours(code: string, fromHour: string, toHour: string): Promise<LiveHour[]>;
}

/** Claiming a name: done, someone (the caller included) holds it, or the caller's plan allows no more. */
export type DomainClaim = 'claimed' | 'taken' | 'overLimit';

/** A name kept for the account that removed it (issue 27): nobody else may claim it before `heldUntilMs`. */
export interface DomainHold {
  domain: string;
  heldFor: string;
  heldUntilMs: number;
}

/** A removed domain whose links are still to be marked deleted and whose CloudFront tenant is still to go. */
export interface DomainCleanup extends CleanupProgress {
  id: string;
  domain: string;
  formerOwner: string;
  deletedAt: string;
  /** The removed claim's id: its tenant is that claim's alone (absent for claims made before claim ids). */
  claimId?: string;
}

/** How far a cleanup got, kept between the scheduler's runs. */
export interface CleanupProgress {
  /** Where the next page of its links starts; absent before the first page and once all were read. */
  cursor?: string;
  /** Every link was read and cleared: only the tenant is left. */
  linksCleared?: boolean;
  /** Runs in a row that failed on the links: each waits longer (domain-work.ts). */
  failures?: number;
}

/** A status change, applied only while the domain is in one of `from` (so a race with an operator or a delete loses). */
export interface DomainTransition {
  from: readonly DomainStatus[];
  change: StatusChange;
  verifiedAt?: string;
  /** Epoch ms of the next scheduled check, or null to stop checking. */
  nextCheckAt: number | null;
  checksStartedAt?: string;
}

export interface DomainSettings {
  rootUrl?: string | null;
  notFoundUrl?: string | null;
  expiredUrl?: string | null;
}

/**
 * Custom domains, their owners' counts and defaults, and the work the scheduler does on them. `audit`: the change's
 * record, written in the change's own transaction (both or neither).
 */
export interface DomainStore {
  /**
   * Writes the new domain and counts it against `allowance` in one transaction: exactly one claim of a name wins. A
   * free name, a hold that ended or is the claimant's own, and a `failed` claim (whose count goes back to its owner
   * and whose tenant is queued for removal) can be claimed; any other domain, disabled ones included, is taken.
   */
  claim(record: DomainRecord, allowance: number | null, audit?: AuditRecord): Promise<DomainClaim>;
  find(domain: string): Promise<DomainRecord | undefined>;
  listByOwner(owner: string): Promise<DomainRecord[]>;
  /** Every domain of every account (operators). */
  listAll(): Promise<DomainRecord[]>;
  defaultOf(owner: string): Promise<string | undefined>;
  /** Sets or clears the owner's domain's URLs; undefined when it is not the owner's. */
  updateSettings(domain: string, owner: string, settings: DomainSettings, audit?: AuditRecord): Promise<DomainRecord | undefined>;
  /** Makes the owner's domain the default (unsetting the one before) or stops it being the default. */
  setDefault(domain: string, owner: string, isDefault: boolean, audit?: AuditRecord): Promise<DomainRecord | undefined>;
  transition(domain: string, transition: DomainTransition, audit?: AuditRecord): Promise<DomainRecord | undefined>;
  /**
   * Deletes the domain as read (its owner and status unchanged; the account's default if it says so), gives back its
   * count and queues its cleanup, in one transaction; with `heldUntilMs` the name stays held for the former owner
   * until then, else it is free at once. False when the domain is no longer as read.
   */
  remove(record: DomainRecord, nowMs: number, heldUntilMs?: number, audit?: AuditRecord): Promise<boolean>;
  /** The hold on a removed name, if one is there (ended or not). */
  holdOf(domain: string): Promise<DomainHold | undefined>;
  /** Ends a hold at once (an operator's release); false when there was none. */
  endHold(domain: string): Promise<boolean>;
  /**
   * Records an on-request check of the owner's domain unless one was recorded less than `everyMs` ago: undefined
   * when recorded, else the milliseconds until the next one may be.
   */
  reserveManualCheck(domain: string, owner: string, nowMs: number, everyMs: number): Promise<number | undefined>;
  /** Pending domains whose next check is due. */
  dueChecks(nowMs: number, limit: number): Promise<string[]>;
  dueCleanups(nowMs: number, limit: number): Promise<DomainCleanup[]>;
  /** Due again at `untilMs`; with `progress`, that replaces what was recorded (fields left out are cleared). */
  postponeCleanup(id: string, untilMs: number, progress?: CleanupProgress): Promise<void>;
  finishCleanup(id: string): Promise<void>;
}

/** What a check of a domain found: it serves (DNS and, on AWS, the certificate), or why not yet. */
export type AttachmentCheck = { serving: true } | { serving: false; reason: string };

/**
 * Connecting a customer's name to the service. On AWS a CloudFront distribution tenant with a managed certificate;
 * locally a resolver lookup. `check` also (re)creates whatever the name needs, so a failed first attempt heals.
 */
export interface DomainAttachments {
  dnsRecordsFor(domain: string): DnsRecord[];
  /** Checks the claim's attachment, making it first if needed; what it makes is the claim's own (`claimId`). */
  check(domain: string, claimId: string | undefined): Promise<AttachmentCheck>;
  /** Removes what `check` made for that claim; false while that is still under way (try again later). */
  detach(domain: string, claimId: string | undefined): Promise<boolean>;
}

/** DNS TXT lookups: the values under a name, each record's strings joined; none when it has none or cannot be read. */
export interface TxtRecords {
  lookup(name: string): Promise<string[]>;
}

/** The smart-link fields' parsers, loaded on first use (a bundle beside the function's: see smart-link-request.ts). */
export type SmartFieldsLoader = () => Promise<SmartFieldParsers>;

/** Changes an owner or the deliverer makes to a webhook; `null` removes the field. */
export interface WebhookChanges {
  url?: string;
  events?: WebhookRecord['events'];
  description?: string;
  enabled?: boolean;
  disabledReason?: string | null;
  failingSince?: null;
  secret?: string;
  previousSecret?: WebhookRecord['previousSecret'] | null;
  updatedAt?: string;
}

/** `audit`: an owner's change's record, written in the change's own transaction (both or neither). */
export interface WebhookStore {
  /** Adds it unless the owner already has `limit` webhooks (kept exact by a counter in the same transaction). */
  add(record: WebhookRecord, limit: number, audit?: AuditRecord): Promise<'added' | 'overLimit'>;
  list(owner: string): Promise<WebhookRecord[]>;
  find(owner: string, id: string): Promise<WebhookRecord | undefined>;
  /** The record after the change, or undefined when it does not exist (any more). */
  update(owner: string, id: string, changes: WebhookChanges, audit?: AuditRecord): Promise<WebhookRecord | undefined>;
  remove(owner: string, id: string, audit?: AuditRecord): Promise<boolean>;
  /** Newest first; `cursor` is a previous page's `next`, undefined when it is not one. */
  deliveries(webhookId: string, limit: number, cursor?: string): Promise<{ items: DeliveryAttempt[]; next?: string } | undefined>;
  recordAttempt(webhookId: string, attempt: DeliveryAttempt): Promise<void>;
  /** Adds `count` to the clicks queued for the webhook; the new total, or undefined when the webhook is gone. */
  countQueuedClicks(owner: string, id: string, count: number): Promise<number | undefined>;
  /** Adds `count` to the clicks its backlog dropped (nothing when the webhook is gone). */
  countDropped(owner: string, id: string, count: number): Promise<void>;
  /** Starts a failure streak unless one runs; returns its start (epoch ms). */
  markFailing(owner: string, id: string, nowMs: number): Promise<number | undefined>;
  /**
   * One of the webhook's `slots` in-flight places, leased until `leaseUntilMs` to a holder of its own; when all are
   * taken, the earliest instant one of their leases ends (epoch ms).
   */
  acquireSlot(webhookId: string, slots: number, nowMs: number, leaseUntilMs: number): Promise<SlotLease | { busyUntil: number }>;
  /** Frees the place if this lease still holds it: one that ran out and went to another holder stays theirs. */
  releaseSlot(webhookId: string, lease: SlotLease): Promise<void>;
}

/** An in-flight place held: which one, and the holder's token that alone may release it. */
export interface SlotLease {
  slot: number;
  holder: string;
}

/** Webhook signing secrets at rest: sealed before they are stored, opened only to sign a delivery. */
export interface SecretSealer {
  seal(secret: string, webhookId: string): Promise<string>;
  /** The secret a stored value holds; a value stored before secrets were sealed is the secret itself. */
  open(stored: string, webhookId: string): Promise<string>;
}

/** The delivery queue: tasks wait there until due, however far off (see sqs-delivery-queue.ts). */
export interface DeliveryQueue {
  send(tasks: readonly DeliveryTask[], nowMs: number): Promise<void>;
}

/** A person's place in a workspace (an account, by its id): what the authorizer reads on each of their requests. */
export interface Membership {
  workspaceId: string;
  userId: string;
  email: string;
  role: Role;
  joinedAt: string;
}

/** A person a verified access token names: their user pool `sub`, and their email when the token carries it. */
export interface PersonIdentity {
  sub: string;
  email?: string;
  /**
   * Whether the token's sign-in used multi-factor authentication: its `mfa` claim is `true`, which the pool's
   * pre-token-generation trigger writes on AWS (functions/pre-token-generation) and the local provider writes after
   * its authenticator step. A claim inside a verified signature: nobody can add it to a token they hold.
   */
  mfa: boolean;
}

/**
 * People's access tokens, checked against the user pool's issuer, keys and app client, `token_use: access`, expiry.
 * Undefined for any token that is not one (forged, expired, another issuer's or client's, `alg: none`, an HMAC
 * signed with the public key); throws only when the pool's keys cannot be fetched (the gateway answers 500).
 */
export interface AccessTokenVerifier {
  verify(token: string): Promise<PersonIdentity | undefined>;
}

/** Read consistently: a member removed or demoted a moment ago is refused or limited on their very next request. */
export interface MembershipReader {
  membership(workspaceId: string, userId: string): Promise<Membership | undefined>;
}

/**
 * A workspace's people: memberships, pending invitations and the seat count they share. Every change is written
 * with its audit record in one transaction, and under the count's version, so seats and the last owner hold under
 * concurrency. `stale`: the member's role moved or they left since they were read (decide again); `gone`: the
 * invitation was accepted, revoked or expired meanwhile.
 */
export interface MemberStore extends MembershipReader {
  members(workspaceId: string): Promise<Membership[]>;
  workspacesOf(userId: string): Promise<Membership[]>;
  seatCount(workspaceId: string, nowMs: number): Promise<SeatCount>;
  addMember(member: Membership, options?: { seatLimit?: number | null; audit?: AuditRecord }): Promise<'added' | 'alreadyMember' | 'noSeat'>;
  changeRole(member: Membership, role: Role, audit: AuditRecord): Promise<'changed' | 'lastOwner' | 'stale'>;
  removeMember(member: Membership, audit: AuditRecord): Promise<'removed' | 'lastOwner' | 'stale'>;
  invite(invitation: Invitation, tokenHash: string, seatLimit: number | null, audit: AuditRecord): Promise<'invited' | 'noSeat'>;
  /** Pending and unexpired, oldest first. */
  invitations(workspaceId: string, nowMs: number): Promise<Invitation[]>;
  invitation(workspaceId: string, invitationId: string): Promise<Invitation | undefined>;
  /** Read consistently: an invitation accepted or revoked a moment ago is not found. */
  invitationByToken(tokenHash: string): Promise<Invitation | undefined>;
  revokeInvitation(invitation: Invitation, audit: AuditRecord): Promise<'revoked' | 'gone'>;
  acceptInvitation(invitation: Invitation, member: Membership, audits: readonly AuditRecord[]): Promise<'accepted' | 'gone' | 'alreadyMember'>;
}

/** What PATCH /v2/workspace may set. */
export interface WorkspaceChanges {
  name?: string;
  analytics?: AnalyticsSwitches;
  mfaRequired?: boolean;
}

/** What a workspace's account record says of its settings (a workspace whose key predates records has none). */
export interface StoredWorkspaceSettings {
  name?: string;
  createdAt?: string;
  /** As stored, each switch named (analytics-switches.ts): a record without them records everything. */
  analytics: AnalyticsSwitches;
  mfaRequired?: boolean;
}

/** A workspace's own settings, kept on its account record (the same id). */
export interface WorkspaceSettings {
  /** Read consistently: a change a moment ago is seen. */
  find(workspaceId: string): Promise<StoredWorkspaceSettings | undefined>;
  /** Sets what changed (the name, the analytics switches, the MFA requirement; the others untouched) with its audit record in one transaction. */
  update(workspace: { workspaceId: string; owner: string; plan: string }, changes: WorkspaceChanges, audit: AuditRecord): Promise<void>;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * People's sign-in records (the user pool): an invitation is accepted by the email the pool has verified for the
 * person, since Cognito's access tokens carry no email. Undefined: no such person, or no verified email.
 */
export interface PeopleDirectory {
  verifiedEmailOf(userId: string): Promise<string | undefined>;
  /**
   * Revokes every refresh token the person holds (Cognito's AdminUserGlobalSignOut): their sessions end at the
   * next renewal, in every workspace, as access tokens are not renewed. Nobody known: nothing to do.
   */
  signOutEverywhere(userId: string): Promise<void>;
}

/** The MFA methods a person of a user pool has turned on (Cognito: AdminGetUser's UserMFASettingList). */
export interface MfaSettings {
  methodsOf(userPoolId: string, userName: string): Promise<string[]>;
}

/** Sends mail (SES v2 on AWS, the local stand-in's mailbox in a local run). */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** What the audit log's reader may narrow a page to (audit-listing.ts validates each). */
export interface AuditFilter {
  /** A key's id, a person's user id, or `operator`. */
  actor?: string;
  action?: string;
  /** The target's id: a link's key, a domain name, a webhook id… */
  target?: string;
  /** ISO times, both inclusive. */
  from?: string;
  to?: string;
}

/** A workspace's audit records: appended by the writers only, read newest first by the audit-log API. */
export interface AuditLog {
  /** Writes the record unless one with its time and id is there (a redelivered stream record): false then. */
  append(record: AuditRecord): Promise<boolean>;
  /**
   * Up to `limit` matching records older than `after` (a record's position, see audit-listing.ts), newest first;
   * `next` is where the next page starts, absent when no older record is left to examine. At most `maxExamined`
   * records are read per page, so a narrow filter over a long log answers with fewer records and a `next`.
   */
  page(workspaceId: string, filter: AuditFilter, page: { limit: number; after?: string; maxExamined: number }): Promise<{ records: AuditRecord[]; next?: string }>;
}

/** A workspace's keys as its people manage them (/v2/keys); each change is written with its audit record, or neither is. */
export interface WorkspaceKeyStore {
  /** The workspace's keys that are not revoked, oldest first. */
  keysOf(accountId: string): Promise<ApiKeyRecord[]>;
  add(record: ApiKeyRecord, audit: AuditRecord): Promise<void>;
  /** False when the key is no longer a live key of that workspace (revoked meanwhile). */
  revoke(record: ApiKeyRecord, audit: AuditRecord): Promise<boolean>;
}

/** Workspaces' SSO connections, each email domain connected once service-wide; every change with its audit record. */
export interface SsoStore {
  list(workspaceId: string): Promise<SsoConnection[]>;
  find(workspaceId: string, domain: string): Promise<SsoConnection | undefined>;
  /** Claims the domain for the workspace (pending), within `max` connections a workspace. */
  add(connection: SsoConnection, max: number, audit: AuditRecord): Promise<'added' | 'taken' | 'overLimit'>;
  /** Undefined when the connection is gone meanwhile. */
  activate(workspaceId: string, domain: string, verifiedAt: string, audit: AuditRecord): Promise<SsoConnection | undefined>;
  /** False when it was gone already. */
  remove(workspaceId: string, domain: string, audit: AuditRecord): Promise<boolean>;
}

/** What registering a provider needs: the secret goes to the user pool and is never stored by the service. */
export interface ProviderRegistration {
  providerName: string;
  protocol: SsoProtocol;
  oidc?: { issuer: string; clientId: string; clientSecret: string };
  saml?: { metadataUrl: string };
}

/** The user pool's identity providers (Cognito; locally the stand-in provider's federation list). */
export interface IdentityProviders {
  /** Creates the provider, or leaves one of this name as it is (a retry): nobody signs in through it yet. */
  register(registration: ProviderRegistration): Promise<void>;
  /** From now on the domain's people are sent to this provider when they sign in. */
  enable(providerName: string, domain: string): Promise<void>;
  /** Gone from the pool and the app client; a provider already gone is fine. */
  remove(providerName: string): Promise<void>;
}

/** The unique-visitor sketches' daily salts (issue 30): random, one per UTC day, removed once the day is over. */
export interface VisitorSaltStore {
  /** The day's salt, made now if nobody made it yet (every container of the day gets the same one). */
  saltOf(day: string): Promise<string>;
  /** Removes the day's salt for good; a day without one is left as it is. */
  forget(day: string): Promise<void>;
}

/** Link health (issue 31): the links' side of the checks, read and written by the health worker only. */
export interface HealthLinks {
  find(key: string): Promise<LinkRecord | undefined>;
  /** Writes the link's health and when it is next due (in the due index); a link gone meanwhile is left gone. */
  saveHealth(key: string, health: LinkHealthRecord, dueAtMs: number): Promise<void>;
  /** Takes the link out of the due index (it ended: deleted, disabled, used up, expired, or nothing to check). */
  stopChecking(key: string): Promise<void>;
  /** Keys of links due by `nowMs` in one partition of the due index, with the due time each was seen at. */
  due(shard: string, nowMs: number, limit: number): Promise<Array<{ key: string; dueAtMs: number }>>;
  /** Moves a due link's time to `untilMs` if it is still `seenDueAtMs`: false when another run took it. */
  lease(key: string, seenDueAtMs: number, untilMs: number): Promise<boolean>;
}

/** Each URL's latest check, shared by every link that points at it. */
export interface UrlChecks {
  latest(url: string): Promise<Observation | undefined>;
  /** Claims the URL's next check: false when it was checked after `freshAfterMs` or another checker holds it. */
  claim(url: string, nowMs: number, freshAfterMs: number, leaseMs: number): Promise<boolean>;
  record(url: string, observation: Observation): Promise<void>;
  release(url: string): Promise<void>;
}

/** One request per destination host per second, across every worker. */
export interface HostSlots {
  /** The first free second from `fromSecond` on, within `ahead` seconds, now taken; undefined when all are taken. */
  reserve(host: string, fromSecond: number, ahead: number): Promise<number | undefined>;
}

/** The health worker's queue: links to check, now or after a delay. */
export interface HealthQueue {
  send(keys: readonly string[], delaySeconds?: number): Promise<void>;
}

/** One request to a destination (guarded: public addresses only, no redirect followed, 64 KiB at most). */
export type DestinationRequest = (url: string, method: 'HEAD' | 'GET') => Promise<ProbeAnswer>;

/** Workspaces' analytics switches (issue 30), as the aggregator reads them: eventually consistent, cached a few seconds. */
export interface AnalyticsSwitchesSource {
  /** Every id asked for is in the answer (a workspace without a record records everything). */
  switchesOf(workspaceIds: readonly string[]): Promise<ReadonlyMap<string, AnalyticsSwitches>>;
}
