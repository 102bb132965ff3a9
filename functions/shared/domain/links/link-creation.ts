import { isReservedAlias } from './aliases';
import { planOf, ownerOf, type Caller } from '../accounts/caller';
import { mapWithConcurrency } from '../concurrency';
import { AliasTaken, DomainError, InvalidRequest } from '../errors';
import { assertShorteningEnabled, type Flags } from '../limits/flags';
import { linkKey, toCreatedLinkView, type CreatedLinkView, type LinkRecord } from './link';
import { creationDomains, type LinkDomains, type LinkPlace } from '../domains/link-domains';
import { assertFeaturesAllowed } from './link-features';
import { parseLinkRequest, type LinkRequest } from './link-request';
import { Messages } from '../messages';
import { destinationsOf, findUnsafe, unsafeDestinationMessage } from './destination-safety';
import { hashPassword } from './password';
import type { AliasOverrides, LinkStore, SafetyChecker, SmartFieldsLoader } from '../ports';
import { carriesSmartFields } from '../destinations/smart-link';
import { generateShortCode } from './short-code';
import { auditStamp, type ChangeAuthor } from '../audit/audit-stamp';

export interface CreationDeps {
  links: LinkStore;
  safety: SafetyChecker;
  aliasOverrides: AliasOverrides;
  domains: LinkDomains;
  smartFields: SmartFieldsLoader;
}

export interface CreationContext {
  caller: Caller;
  /** A workspace's creations are recorded as by it (the audit log); v1's anonymous ones are nobody's. */
  author?: ChangeAuthor;
  flags: Flags;
  nowMs: number;
  shortBaseUrl: string;
}

export type CreationOutcome = { ok: true; link: CreatedLinkView } | { ok: false; error: DomainError };

/** DynamoDB handles far more, but a batch should not starve the container's sockets (default pool: 50). */
const WRITE_CONCURRENCY = 25;
/** A generated code collides about once in 3.5e12 / links-stored tries; five in a row means something is broken. */
const GENERATED_CODE_ATTEMPTS = 5;

/** `place`: the custom domain the link goes on, decided (undefined: the shared domain). */
type Pending = { ok: true; request: LinkRequest; place?: LinkPlace } | { ok: false; error: DomainError };

function rejectWith(error: unknown): Pending {
  if (error instanceof DomainError) return { ok: false, error };
  throw error;
}

/**
 * Creates each requested link independently: the same rules for one link (POST /v2/shorten) and for fifty
 * (the batch), with constant work per call where it can: one safety call for all URLs, writes in parallel.
 * Checks run in the spec's order: validation, flags, plan, then the domain, URL safety, alias availability.
 */
export async function createLinks(items: readonly unknown[], context: CreationContext, deps: CreationDeps): Promise<CreationOutcome[]> {
  assertShorteningEnabled(context.flags);
  const plan = planOf(context.caller);

  const smart = items.some((item) => carriesSmartFields(item, false)) ? await deps.smartFields() : undefined;
  const validated = items.map((item): Pending => {
    try {
      const request = parseLinkRequest(item, smart);
      assertFeaturesAllowed(request, context.flags, plan);
      return { ok: true, request };
    } catch (error) {
      return rejectWith(error);
    }
  });

  const domainOf = creationDomains(context.caller, context.flags, context.shortBaseUrl, deps.domains);
  const placed = await Promise.all(
    validated.map(async (entry): Promise<Pending> => {
      if (!entry.ok) return entry;
      try {
        const place = await domainOf(entry.request.domain);
        return place === undefined ? entry : { ...entry, place };
      } catch (error) {
        return rejectWith(error);
      }
    }),
  );

  const unsafe = await findUnsafe(placed.flatMap((entry) => (entry.ok ? destinationsOf(entry.request).map(({ url }) => url) : [])), deps.safety);
  const checked = placed.map((entry): Pending => {
    const refusal = entry.ok ? unsafeDestinationMessage(entry.request, unsafe) : undefined;
    return refusal === undefined ? entry : { ok: false, error: new InvalidRequest(refusal) };
  });

  const claimed = await checkAliases(checked, context.caller, deps.aliasOverrides);
  return mapWithConcurrency(claimed, WRITE_CONCURRENCY, async (entry): Promise<CreationOutcome> => {
    if (!entry.ok) return entry;
    try {
      const link = await store(entry.request, entry.place, context, deps.links);
      return { ok: true, link: toCreatedLinkView(link, context.shortBaseUrl) };
    } catch (error) {
      return rejectWith(error) as CreationOutcome;
    }
  });
}

/**
 * Reserved aliases need an operator's override, on every domain; within one call the first request for an alias
 * on a domain wins.
 */
async function checkAliases(entries: Pending[], caller: Caller, overrides: AliasOverrides): Promise<Pending[]> {
  const seen = new Set<string>();
  const results: Pending[] = [];
  for (const entry of entries) {
    const alias = entry.ok ? entry.request.alias : undefined;
    if (!entry.ok || alias === undefined) {
      results.push(entry);
    } else if (seen.has(linkKey(entry.place?.domain, alias))) {
      results.push({ ok: false, error: new AliasTaken(Messages.aliasTaken) });
    } else if (isReservedAlias(alias) && !(caller.kind === 'apiKey' && (await overrides.allows(alias, caller.keyId)))) {
      results.push({ ok: false, error: new InvalidRequest(Messages.aliasReserved) });
    } else {
      seen.add(linkKey(entry.place?.domain, alias));
      results.push(entry);
    }
  }
  return results;
}

async function store(request: LinkRequest, place: LinkPlace | undefined, context: CreationContext, links: LinkStore): Promise<LinkRecord & { url: string }> {
  const base = {
    // The domain's claim goes with the link: a later claim of the name neither serves nor shows it (issue 27).
    ...(place === undefined ? {} : { domain: place.domain, ...(place.claimId === undefined ? {} : { claimId: place.claimId }) }),
    url: request.url,
    createdAt: new Date(context.nowMs).toISOString(),
    clicks: 0,
    owner: ownerOf(context.caller),
    ...(request.password !== undefined ? { passwordHash: await hashPassword(request.password) } : {}),
    ...(request.expiresIn !== undefined ? { expiresAt: new Date(context.nowMs + request.expiresIn * 1000).toISOString() } : {}),
    ...(request.maxClicks !== undefined ? { maxClicks: request.maxClicks } : {}),
    ...(request.tags?.length ? { tags: request.tags } : {}),
    ...(request.rules !== undefined ? { rules: request.rules } : {}),
    ...(request.variants !== undefined ? { variants: request.variants } : {}),
    ...(request.forwardQuery ? { forwardQuery: true } : {}),
    ...(request.utm !== undefined ? { utm: request.utm } : {}),
    ...(request.expiredUrl !== undefined ? { expiredUrl: request.expiredUrl } : {}),
  };
  // One more attribute on the item, no second write: the audit log reads it off the table's stream.
  const stamp = context.author === undefined ? undefined : auditStamp('link.created', context.author, context.nowMs);
  if (request.alias !== undefined) {
    const link = { ...base, code: request.alias, isAlias: true };
    if (!(await links.createIfAbsent(link, stamp))) throw new AliasTaken(Messages.aliasTaken);
    return link;
  }
  for (let attempt = 0; attempt < GENERATED_CODE_ATTEMPTS; attempt += 1) {
    const link = { ...base, code: generateShortCode(), isAlias: false };
    if (await links.createIfAbsent(link, stamp)) return link;
  }
  throw new Error(`no free short code after ${GENERATED_CODE_ATTEMPTS} attempts`);
}
