import * as z from 'zod/mini';
import type { ApiKeyCaller } from '../accounts/caller';
import { DomainCheckedRecently, DomainDisabled, DomainInUse, DomainNotFound, InvalidRequest } from '../errors';
import { assertCustomDomainsEnabled, type Flags } from '../limits/flags';
import { assertPlanIncludes, customDomainAllowance, domainLimitReached } from '../limits/plans';
import { findUnsafe } from '../links/destination-safety';
import { normaliseDestination } from '../links/url-policy';
import { OwnMessages } from '../messages';
import type { DomainAttachments, DomainSettings, DomainStore, SafetyChecker, TxtRecords } from '../ports';
import { builtOnFirstUse, parseOrRefuse } from '../request-parsing';
import { toDomainView, type DomainRecord, type DomainView } from './custom-domain';
import type { ClaimableDomain } from './domain-name';
import { asciiDomain } from './host-name';
import { checkNow, type CheckDeps } from './domain-verification';
import { challengeRecord, newClaimId } from './dns-challenge';
import { MANUAL_CHECK_EVERY_MS } from './verification-schedule';
import type { ChangeAuthor } from '../audit/audit-stamp';
import { domainChangeRecord, type DomainChangeAuthor } from './domain-audit';

export interface DomainContext {
  caller: ApiKeyCaller;
  /** Who the request's changes are recorded as by (the audit log). */
  author: ChangeAuthor;
  flags: Flags;
  nowMs: number;
  /** This deployment's own hosts (short and API domains): nobody may claim them or names under them. */
  ownHosts: readonly string[];
}

export interface DomainDeps {
  domains: DomainStore;
  attachments: DomainAttachments;
  txt: TxtRecords;
  safety: SafetyChecker;
  checkFailed?: CheckDeps['checkFailed'];
  /** The claim rules of names (domain-name.ts), loaded on first use. */
  claimable: () => Promise<ClaimableDomain>;
}

const recordedAs = (context: DomainContext): DomainChangeAuthor => ({ author: context.author, workspaceId: context.caller.accountId });

const WAITING_FOR_FIRST_CHECK = 'Waiting for the first check of its DNS records';
/** How long a removed, verified name stays its former owner's to claim again (issue 27): nobody else may meanwhile. */
export const HOLD_AFTER_REMOVAL_MS = 7 * 24 * 60 * 60_000;

export const domainRequestSchema = builtOnFirstUse(() => z.object({ domain: z.string({ error: OwnMessages.domainInvalid }) }));

/**
 * POST /v2/domains: claims the name for the account with a new claim id (its TXT record's value); its first check
 * runs on the schedule's next turn. A name held for its former owner, or taken down, is in use for everyone else.
 */
export async function addDomain(body: object, context: DomainContext, deps: DomainDeps): Promise<DomainView> {
  assertCustomDomainsEnabled(context.flags);
  const domain = (await deps.claimable())(parseOrRefuse(domainRequestSchema(), body).domain, context.ownHosts);
  if (!domain) throw new InvalidRequest(OwnMessages.domainInvalid);
  const { plan } = context.caller;
  assertPlanIncludes(plan, 'customDomains');
  const createdAt = new Date(context.nowMs).toISOString();
  const claimId = newClaimId();
  const record: DomainRecord = {
    domain,
    owner: context.caller.owner,
    claimId,
    status: 'pending',
    isDefault: false,
    dnsRecords: [challengeRecord(domain, claimId), ...deps.attachments.dnsRecordsFor(domain)],
    createdAt,
    statusReason: WAITING_FOR_FIRST_CHECK,
    history: [{ status: 'pending', at: createdAt, reason: WAITING_FOR_FIRST_CHECK }],
    nextCheckAt: context.nowMs,
    checksStartedAt: createdAt,
  };
  const claim = await deps.domains.claim(record, customDomainAllowance(plan), domainChangeRecord('domain.claimed', recordedAs(context), undefined, record, context.nowMs));
  if (claim === 'taken') throw new DomainInUse(OwnMessages.domainInUse);
  if (claim === 'overLimit') throw domainLimitReached(plan);
  return toDomainView(record);
}

export async function listDomains(context: DomainContext, deps: Pick<DomainDeps, 'domains'>): Promise<{ domains: DomainView[] }> {
  assertCustomDomainsEnabled(context.flags);
  const records = await deps.domains.listByOwner(context.caller.owner);
  return { domains: records.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.domain.localeCompare(b.domain)).map(toDomainView) };
}

/** Another account's domain and no domain at all answer the same. */
async function ownedDomain(name: string, context: DomainContext, domains: DomainStore): Promise<DomainRecord> {
  assertCustomDomainsEnabled(context.flags);
  const domain = asciiDomain(name);
  const record = domain ? await domains.find(domain) : undefined;
  if (!record || record.owner !== context.caller.owner) throw new DomainNotFound(OwnMessages.domainNotFound);
  return record;
}

export async function viewDomain(name: string, context: DomainContext, deps: Pick<DomainDeps, 'domains'>): Promise<DomainView> {
  return toDomainView(await ownedDomain(name, context, deps.domains));
}

const SETTINGS = ['rootUrl', 'notFoundUrl', 'expiredUrl'] as const;

export const domainPatchSchema = builtOnFirstUse(() => {
  const settingUrl = (field: string) =>
    z.optional(
      z.nullable(
        z.pipe(
          z.string({ error: OwnMessages.domainUrl(field) }).check(z.refine((url) => normaliseDestination(url.trim()) !== undefined, OwnMessages.domainUrl(field))),
          z.transform((url: string) => normaliseDestination(url.trim()) as string),
        ),
      ),
    );

  return z.object({
    isDefault: z.optional(z.boolean({ error: OwnMessages.domainFieldType('isDefault') })),
    rootUrl: settingUrl('rootUrl'),
    notFoundUrl: settingUrl('notFoundUrl'),
    expiredUrl: settingUrl('expiredUrl'),
  });
});

/** The domain as the settings leave it: a value sets a URL, null removes it. */
function withSettings(record: DomainRecord, settings: DomainSettings): DomainRecord {
  const after: DomainRecord = { ...record };
  for (const field of SETTINGS) {
    const value = settings[field];
    if (value === null) delete after[field];
    else if (value !== undefined) after[field] = value;
  }
  return after;
}

/**
 * PATCH: the URLs go through a destination's rules and its safety check (one call for all three); a domain can be
 * the default only while it is active, since new links go there.
 */
export async function editDomain(name: string, body: object, context: DomainContext, deps: DomainDeps): Promise<DomainView> {
  const record = await ownedDomain(name, context, deps.domains);
  const patch = parseOrRefuse(domainPatchSchema(), body);
  if (Object.values(patch).every((value) => value === undefined)) throw new InvalidRequest(OwnMessages.domainPatchEmpty);
  const urls = SETTINGS.flatMap((field) => (typeof patch[field] === 'string' ? [[field, patch[field]] as const] : []));
  const unsafe = await findUnsafe(urls.map(([, url]) => url), deps.safety);
  const flagged = urls.find(([, url]) => unsafe.has(url));
  if (flagged) throw new InvalidRequest(OwnMessages.domainUrlUnsafe(flagged[0]));
  if (patch.isDefault === true && record.status !== 'active') throw new InvalidRequest(OwnMessages.domainNotUsable(record.domain));

  const settings: DomainSettings = Object.fromEntries(SETTINGS.filter((field) => patch[field] !== undefined).map((field) => [field, patch[field]]));
  const by = recordedAs(context);
  let updated: DomainRecord | undefined = record;
  if (Object.keys(settings).length > 0) {
    const audit = domainChangeRecord('domain.updated', by, record, withSettings(record, settings), context.nowMs);
    updated = await deps.domains.updateSettings(record.domain, record.owner, settings, audit);
  }
  if (updated && patch.isDefault !== undefined) {
    const audit = domainChangeRecord('domain.updated', by, updated, { ...updated, isDefault: patch.isDefault }, context.nowMs);
    updated = await deps.domains.setDefault(record.domain, record.owner, patch.isDefault, audit);
  }
  if (!updated) throw new DomainNotFound(OwnMessages.domainNotFound);
  return toDomainView(updated);
}

/**
 * DELETE: the name stops serving at once; its links are deleted and its tenant removed in the background. A name
 * that was verified stays held for its former owner for 7 days (a dangling CNAME of theirs serves nobody else); a
 * claim never verified frees it at once. An operator's takedown cannot be undone this way (409).
 */
export async function removeDomain(name: string, context: DomainContext, deps: Pick<DomainDeps, 'domains'>): Promise<void> {
  const record = await ownedDomain(name, context, deps.domains);
  if (record.status === 'disabled') throw new DomainDisabled(OwnMessages.domainDisabled);
  const heldUntilMs = record.verifiedAt ? context.nowMs + HOLD_AFTER_REMOVAL_MS : undefined;
  const audit = domainChangeRecord('domain.removed', recordedAs(context), record, undefined, context.nowMs);
  if (!(await deps.domains.remove(record, context.nowMs, heldUntilMs, audit))) throw new DomainNotFound(OwnMessages.domainNotFound);
}

/** POST …/verify: checks now, whatever the schedule says, at most once a minute per domain; a failed domain starts a new round of 7 days. */
export async function verifyDomain(name: string, context: DomainContext, deps: DomainDeps): Promise<DomainView> {
  const record = await ownedDomain(name, context, deps.domains);
  const waitMs = await deps.domains.reserveManualCheck(record.domain, record.owner, context.nowMs, MANUAL_CHECK_EVERY_MS);
  if (waitMs !== undefined) throw new DomainCheckedRecently(Math.max(1, Math.ceil(waitMs / 1000)));
  return toDomainView(await checkNow(record, context.nowMs, deps, recordedAs(context)));
}
