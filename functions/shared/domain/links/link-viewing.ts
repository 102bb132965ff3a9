/**
 * Reading an account's link, apart from editing it (link-management.ts): the QR and stats routes only read, and
 * so carry none of the request schemas and destination rules in their bundles.
 */
import type { ApiKeyCaller } from '../accounts/caller';
import type { ChangeAuthor } from '../audit/audit-stamp';
import { LinkNotFound } from '../errors';
import type { Flags } from '../limits/flags';
import { OwnMessages } from '../messages';
import type { ManagedLinkStore, SafetyChecker, SmartFieldsLoader } from '../ports';
import type { DomainHolder } from '../domains/link-domains';
import { linkKey, madeUnderClaim, toLinkView, type LinkRecord, type LinkView } from './link';
import { looksLikeShortCode } from './short-code';

/** An account managing its links through the API (GET, PATCH, DELETE /v2/links/{code}). */
export interface ManagementContext {
  caller: ApiKeyCaller;
  /** Who the request's changes are recorded as by (the audit log). */
  author: ChangeAuthor;
  flags: Flags;
  nowMs: number;
  shortBaseUrl: string;
  /** The custom domain the request's link is on; absent for the shared domain. */
  domain?: string;
  /** Who holds `domain` now; absent when nobody does (its former owner still reaches its links) or on the shared domain. */
  holder?: DomainHolder;
}

export interface ManagementDeps {
  links: ManagedLinkStore;
  safety: SafetyChecker;
  smartFields: SmartFieldsLoader;
}

/** The caller's link, made under the claim that holds its domain now (a reclaimed name shows nothing of before). */
export function isManagedBy(link: LinkRecord, context: ManagementContext): boolean {
  return link.owner === context.caller.owner && (context.holder === undefined || madeUnderClaim(link, context.holder));
}

/** Another account's link and no link at all answer the same: the other account's link is never revealed. */
async function ownedLink(code: string, context: ManagementContext, links: ManagedLinkStore): Promise<LinkRecord> {
  const link = looksLikeShortCode(code) ? await links.find(linkKey(context.domain, code)) : undefined;
  if (!link || !isManagedBy(link, context)) throw new LinkNotFound(OwnMessages.linkNotFound);
  return link;
}

export async function viewLink(code: string, context: ManagementContext, deps: Pick<ManagementDeps, 'links'>): Promise<LinkView> {
  return toLinkView(await ownedLink(code, context, deps.links), context.shortBaseUrl, context.nowMs);
}
