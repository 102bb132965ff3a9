import { InvalidRequest, LinkChangedMeanwhile, LinkDisabled, LinkGone, LinkNotFound, LinkStillCached } from '../errors';
import { CACHE_SEAL_MS, secondsUntilLeaseEnds } from './cache-lease';
import { assertShorteningEnabled } from '../limits/flags';
import { BulkMessages, OwnMessages } from '../messages';
import type { ClaimCondition, LinkChanges, LinkVersion, ManagedLinkStore } from '../ports';
import { destinationsOf, findUnsafe, unsafeDestinationMessage } from './destination-safety';
import { linkKey, toLinkView, statusOf, type LinkRecord, type LinkView } from './link';
import { assertFeaturesAllowed } from './link-features';
import { parseLinkPatch } from './link-request';
import { carriesSmartFields } from '../destinations/smart-link';
import { hashPassword } from './password';
import { auditStamp } from '../audit/audit-stamp';
import { looksLikeShortCode } from './short-code';
import { isManagedBy, type ManagementContext, type ManagementDeps } from './link-viewing';

/**
 * Why a guarded write was refused, read from the link as it was: not the caller's or made under an earlier claim of
 * its domain (404), taken down (409), used up or deleted (410), changed since a bulk action read it (`seen`), or a
 * click limit below the clicks a visit had just used (400).
 */
function refusal(current: LinkRecord | undefined, context: ManagementContext, changes: LinkChanges = {}, seen?: LinkVersion): Error {
  if (!current || !isManagedBy(current, context)) return new LinkNotFound(OwnMessages.linkNotFound);
  if (current.disabled) return new LinkDisabled(OwnMessages.linkDisabled);
  const status = statusOf(current, context.nowMs);
  if (status === 'used-up' || status === 'deleted') return new LinkGone(OwnMessages.linkGone);
  if (seen !== undefined && current.updatedAt !== seen.updatedAt) return new LinkChangedMeanwhile(BulkMessages.changedMeanwhile);
  if (typeof changes.maxClicks === 'number' && current.clicks > changes.maxClicks) {
    return new InvalidRequest(OwnMessages.maxClicksBelowClicks(current.clicks));
  }
  return new UnexplainedRefusal('link write refused for no known reason');
}

/** None of the link's states explains the refusal: only a condition the caller cannot see (a cache lease) can. */
class UnexplainedRefusal extends Error {}

/**
 * The claim the write must find on the link, checked in the same step as its owner (isManagedBy's rule): on a name
 * another account holds now, none of the caller's links can be managed, so nothing is written.
 */
function claimCondition(context: ManagementContext): ClaimCondition | undefined {
  const { holder } = context;
  if (holder === undefined) return undefined;
  if (holder.owner !== context.caller.owner) throw new LinkNotFound(OwnMessages.linkNotFound);
  return { claimId: holder.claimId };
}

/**
 * A click limit or a password cannot be added while copies of the plain link may be served (cache-lease.ts): the
 * link is sealed so no new copies are taken, and the owner is told when the last one is gone.
 */
async function refuseWhileCached(key: string, current: LinkRecord | undefined, context: ManagementContext, links: ManagedLinkStore): Promise<void> {
  if (!current || !isManagedBy(current, context)) return;
  const seconds = secondsUntilLeaseEnds(current, context.nowMs);
  if (seconds === 0) return;
  await links.sealCache(key, context.nowMs + CACHE_SEAL_MS);
  throw new LinkStillCached(OwnMessages.linkStillCached, seconds);
}

/**
 * PATCH: the creation rules and order of checks (body, flags, plan, safety), then one conditional write
 * (writeChanges). Removing a feature (null) needs neither its flag nor the plan that sells it.
 */
export async function editLink(code: string, body: object, context: ManagementContext, deps: ManagementDeps): Promise<LinkView> {
  const changes = await changesOfPatch(body, context, deps);
  return toLinkView(await writeChanges(code, changes, context, deps), context.shortBaseUrl, context.nowMs);
}

/** A PATCH body as the changes it asks for, after every check that needs no link (body, flags, plan, safety). */
export async function changesOfPatch(body: object, context: ManagementContext, deps: ManagementDeps): Promise<LinkChanges> {
  const patch = parseLinkPatch(body, carriesSmartFields(body, true) ? await deps.smartFields() : undefined);
  // A new destination is a shortening in all but name: it follows creation's switch.
  if (patch.url !== undefined) assertShorteningEnabled(context.flags);
  assertFeaturesAllowed(
    {
      ...(typeof patch.password === 'string' ? { password: patch.password } : {}),
      ...(typeof patch.expiresIn === 'number' ? { expiresIn: patch.expiresIn } : {}),
      ...(typeof patch.maxClicks === 'number' ? { maxClicks: patch.maxClicks } : {}),
      ...(patch.rules ? { rules: patch.rules } : {}),
      ...(patch.variants ? { variants: patch.variants } : {}),
    },
    context.flags,
    context.caller.plan,
  );
  const requested = destinationsOf(patch);
  if (requested.length > 0) {
    const refusal = unsafeDestinationMessage(patch, await findUnsafe(requested.map(({ url }) => url), deps.safety));
    if (refusal !== undefined) throw new InvalidRequest(refusal);
  }
  return {
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.expiresIn !== undefined ? { expiresAt: patch.expiresIn === null ? null : new Date(context.nowMs + patch.expiresIn * 1000).toISOString() } : {}),
    ...(patch.maxClicks !== undefined ? { maxClicks: patch.maxClicks } : {}),
    ...(patch.password !== undefined ? { passwordHash: patch.password === null ? null : await hashPassword(patch.password) } : {}),
    ...(patch.tags !== undefined ? { tags: patch.tags === null || patch.tags.length === 0 ? null : patch.tags } : {}),
    ...(patch.rules !== undefined ? { rules: patch.rules } : {}),
    ...(patch.variants !== undefined ? { variants: patch.variants } : {}),
    ...(patch.forwardQuery !== undefined ? { forwardQuery: patch.forwardQuery === true ? true : null } : {}),
    ...(patch.utm !== undefined ? { utm: patch.utm } : {}),
    ...(patch.expiredUrl !== undefined ? { expiredUrl: patch.expiredUrl } : {}),
  };
}

/**
 * One conditional write of the changes (audited as `link.updated`), checking ownership, state and clicks together, so
 * no visit or second edit can race it; given `seen`, also that the link is still the version a bulk action read.
 */
export async function writeChanges(code: string, changes: LinkChanges, context: ManagementContext, deps: Pick<ManagementDeps, 'links'>, seen?: LinkVersion): Promise<LinkRecord> {
  if (!looksLikeShortCode(code)) throw new LinkNotFound(OwnMessages.linkNotFound);
  const key = linkKey(context.domain, code);
  const stamp = auditStamp('link.updated', context.author, context.nowMs);
  const result = await deps.links.update(key, context.caller.owner, changes, context.nowMs, claimCondition(context), stamp, seen);
  if (result.done) return result.link;
  const error = refusal(result.current, context, changes, seen);
  if (error instanceof UnexplainedRefusal) await refuseWhileCached(key, result.current, context, deps.links);
  throw error;
}

/** DELETE: a tombstone that keeps the code taken; visitors get 410 from the next read of DynamoDB on. */
export async function deleteLink(code: string, context: ManagementContext, deps: Pick<ManagementDeps, 'links'>, seen?: LinkVersion): Promise<void> {
  if (!looksLikeShortCode(code)) throw new LinkNotFound(OwnMessages.linkNotFound);
  const stamp = auditStamp('link.deleted', context.author, context.nowMs);
  const result = await deps.links.markDeleted(linkKey(context.domain, code), context.caller.owner, context.nowMs, claimCondition(context), stamp, seen);
  if (!result.done) throw refusal(result.current, context, {}, seen);
}
