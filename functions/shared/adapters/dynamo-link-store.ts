import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { isExpired, keyOf, removableAt, type LinkRecord } from '../domain/links/link';
import type { LinkPlace } from '../domain/analytics/rollups';
import { HEALTH_DUE_ATTRIBUTE, HEALTH_SHARD_ATTRIBUTE, LINKS_BY_DOMAIN_INDEX, LINKS_BY_OWNER_INDEX } from '../config';
import type { ClaimCondition, ClickOutcome, GuardedWrite, LinkBatchReader, LinkChanges, LinkPosition, LinkStore, LinkVersion, ManagedLinkStore } from '../domain/ports';
import { AUDIT_STAMP_ATTRIBUTE } from '../domain/audit/link-audit';
import type { AuditStamp } from '../domain/audit/audit-stamp';
import { UNSTAMPING } from './audit-items';

/** DynamoDB's TTL attribute: epoch seconds, when DynamoDB may remove the link (see link.ts `removableAt`). */
export const TTL_ATTRIBUTE = 'ttl';

/** What a tombstone drops: its destinations and password (it keeps its expiredUrl, for its visitors). */
const DESTINATION_ATTRIBUTES = '#url, passwordHash, #rules, #variants, #forwardQuery, #utm';
/** Placeholders for them: `url` and `rules` are among DynamoDB's reserved words. */
const DESTINATION_NAMES = { '#url': 'url', '#rules': 'rules', '#variants': 'variants', '#forwardQuery': 'forwardQuery', '#utm': 'utm' };

/** Fields an edit sets or (null) removes as they are; expiresAt goes with the TTL. */
const EDITABLE_ATTRIBUTES = ['url', 'maxClicks', 'passwordHash', 'tags', 'rules', 'variants', 'forwardQuery', 'utm', 'expiredUrl'] as const;

type LinkItem = LinkRecord & { [TTL_ATTRIBUTE]?: number; [AUDIT_STAMP_ATTRIBUTE]?: AuditStamp };

/** The item's `code` attribute is the link's key (link.ts `linkKey`); the record holds the bare code and the domain. */
function toItem(link: LinkRecord): LinkItem {
  const item = { ...link, code: keyOf(link) };
  return link.expiresAt ? { ...item, [TTL_ATTRIBUTE]: removableAt(link.expiresAt) } : item;
}

/** A stored item as the domain's record (the stream's images too): the audit stamp is the audit log's alone. */
export function toRecord(item: Record<string, unknown>): LinkRecord {
  // The due index's keys are the health worker's bookkeeping (dynamo-health-links.ts), not the link's.
  const { [TTL_ATTRIBUTE]: _ttl, [AUDIT_STAMP_ATTRIBUTE]: _stamp, [HEALTH_DUE_ATTRIBUTE]: _due, [HEALTH_SHARD_ATTRIBUTE]: _shard, ...record } = item as unknown as LinkItem & Record<string, unknown>;
  return record.domain === undefined ? record : { ...record, code: record.code.slice(record.domain.length + 1) };
}

/** Values as DynamoDB hands them back (no undefined fields, numbers as numbers), with keys in one order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) =>
    field !== null && typeof field === 'object' && !Array.isArray(field) ? Object.fromEntries(Object.entries(field).filter(([, inner]) => inner !== undefined).sort(([a], [b]) => (a < b ? -1 : 1))) : field,
  );
}

/**
 * The stored item is the one this put wrote: every attribute as sent. A new link's item is unique to its write
 * (its creation time to the millisecond, its audit stamp's random id, a salted password hash), so another request
 * never passes for this one; at worst two identical anonymous requests in one millisecond share one link.
 */
function isItself(stored: Record<string, unknown>, written: object): boolean {
  // Only the attributes written are compared: others may have been added since (a cache lease).
  return canonical(Object.fromEntries(Object.keys(written).map((name) => [name, stored[name]]))) === canonical(written);
}

/** A write's condition failed: DynamoDB handed back the item as it was, or there was none. */
function refusedWith(error: unknown): GuardedWrite {
  if (!(error instanceof ConditionalCheckFailedException)) throw error;
  return error.Item ? { done: false, current: toRecord(unmarshall(error.Item)) } : { done: false };
}

/** `SET …` of an audited change's stamp (see audit-stamp.ts), with its value; nothing for an unaudited write. */
function stamped(stamp: AuditStamp | undefined): { set: string; values: Record<string, unknown> } {
  return stamp === undefined ? { set: '', values: {} } : { set: `, ${AUDIT_STAMP_ATTRIBUTE} = :auditStamp`, values: { ':auditStamp': stamp } };
}

/** The link belongs to the caller and can still change: not used up, deleted or disabled. */
const CHANGEABLE_BY_OWNER =
  '#owner = :owner AND attribute_not_exists(deleted) AND attribute_not_exists(disabled) AND attribute_not_exists(retired) AND (attribute_not_exists(maxClicks) OR clicks < maxClicks)';

/** The link was made under the claim (ports.ts ClaimCondition): ` AND …` to add to a write's condition, and its value. */
function underClaim(claim: ClaimCondition | undefined): { condition: string; values: Record<string, unknown> } {
  if (claim === undefined) return { condition: '', values: {} };
  if (claim.claimId === undefined) return { condition: ' AND attribute_not_exists(claimId)', values: {} };
  return { condition: ' AND (claimId = :claimId OR attribute_not_exists(claimId))', values: { ':claimId': claim.claimId } };
}

/** The link is still as a bulk action read it (ports.ts LinkVersion): ` AND …` to add to a write's condition, and its value. */
function unchangedSince(seen: LinkVersion | undefined): { condition: string; values: Record<string, unknown> } {
  if (seen === undefined) return { condition: '', values: {} };
  if (seen.updatedAt === undefined) return { condition: ' AND attribute_not_exists(updatedAt)', values: {} };
  return { condition: ' AND updatedAt = :seenUpdatedAt', values: { ':seenUpdatedAt': seen.updatedAt } };
}

/** BatchGetItem reads at most 100 keys a call, and may hand some back unread under load: those are asked again. */
const BATCH_GET_KEYS = 100;
const BATCH_GET_ATTEMPTS = 5;

/** The edit gives the link a click limit or a password: copies of it as a plain link must be gone first. */
const guardsAdded = (changes: LinkChanges) => typeof changes.maxClicks === 'number' || typeof changes.passwordHash === 'string';

export class DynamoLinkStore implements LinkStore, ManagedLinkStore, LinkBatchReader {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createIfAbsent(link: LinkRecord, stamp?: AuditStamp): Promise<boolean> {
    // The stamp rides on the item: the audit log reads it off the stream, no second write (audit-stamp.ts).
    const item = stamp === undefined ? toItem(link) : { ...toItem(link), [AUDIT_STAMP_ATTRIBUTE]: stamp };
    try {
      await this.client.send(
        new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(code)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // The SDK sends a put again when the first answer was late (TRANSPORT_LIMITS): when that first put landed, the
      // code is "taken" by this very item, and calling it taken would make the caller write the link a second time
      // under another code (issue 31: 913-928 links from a 909-link import on a loaded machine).
      return error.Item !== undefined && isItself(unmarshall(error.Item), item);
    }
  }

  async find(key: string): Promise<LinkRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { code: key } }));
    return Item ? toRecord(Item) : undefined;
  }

  async findMany(keys: readonly string[]): Promise<Map<string, LinkRecord>> {
    const found = new Map<string, LinkRecord>();
    const unique = [...new Set(keys)];
    for (let start = 0; start < unique.length; start += BATCH_GET_KEYS) {
      let pending: Array<Record<string, unknown>> = unique.slice(start, start + BATCH_GET_KEYS).map((code) => ({ code }));
      for (let attempt = 1; pending.length > 0; attempt += 1) {
        if (attempt > BATCH_GET_ATTEMPTS) throw new Error(`BatchGetItem left ${pending.length} keys unread after ${BATCH_GET_ATTEMPTS} attempts`);
        const { Responses, UnprocessedKeys } = await this.client.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }));
        for (const item of Responses?.[this.tableName] ?? []) found.set(String(item.code), toRecord(item));
        pending = UnprocessedKeys?.[this.tableName]?.Keys ?? [];
      }
    }
    return found;
  }

  /**
   * The click and every rule that can refuse it sit in one conditional update, so 200 concurrent visitors of a
   * maxClicks=10 link get exactly 10 redirects. On refusal DynamoDB returns the old item to tell 404 from 410.
   * The click drops the audit stamp (see `UNSTAMPING`).
   */
  async consumeClick(key: string, nowMs: number, options?: { passwordless: boolean }): Promise<ClickOutcome> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { code: key },
          UpdateExpression: `SET clicks = clicks + :one ${UNSTAMPING}`,
          ConditionExpression: `attribute_exists(code) AND attribute_exists(#url) AND attribute_not_exists(disabled) AND clicks < maxClicks AND (attribute_not_exists(expiresAt) OR expiresAt > :now)${options?.passwordless ? ' AND attribute_not_exists(passwordHash)' : ''}`,
          ExpressionAttributeNames: { '#url': 'url' },
          ExpressionAttributeValues: { ':one': 1, ':now': new Date(nowMs).toISOString() },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'counted', link: toRecord(Attributes ?? {}) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      if (!error.Item) return { kind: 'missing' };
      const old = toRecord(unmarshall(error.Item));
      if (old.disabled) return { kind: 'disabled' };
      const ran = old.expiredUrl === undefined ? {} : { expiredUrl: old.expiredUrl };
      if (old.deleted) return { kind: 'deleted', ...ran };
      const usedUp = old.retired === true || (old.maxClicks !== undefined && old.clicks >= old.maxClicks);
      if (usedUp) return { kind: 'usedUp', ...ran };
      if (isExpired(old, nowMs)) return { kind: 'expired', ...ran };
      // The owner removed the limit since the visitor's copy of the link was cached.
      if (old.url !== undefined && old.maxClicks === undefined) return { kind: 'unlimited', link: old };
      // The owner gave it a password since (a passwordless click): the visit must ask for it first.
      return { kind: 'missing' };
    }
  }

  async renewCacheLease(key: string, untilMs: number, nowMs: number): Promise<{ leased: boolean; link?: LinkRecord }> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { code: key },
          UpdateExpression: 'SET cacheLeaseUntil = :until',
          // Only a link no visit can change, and no edit is waiting for: the write that decides is this one.
          ConditionExpression:
            'attribute_exists(code) AND attribute_not_exists(maxClicks) AND attribute_not_exists(passwordHash) AND attribute_not_exists(deleted) AND attribute_not_exists(disabled) AND attribute_not_exists(retired) AND (attribute_not_exists(cacheSealedUntil) OR cacheSealedUntil <= :now)',
          ExpressionAttributeValues: { ':until': untilMs, ':now': nowMs },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { leased: true, link: toRecord(Attributes ?? {}) };
    } catch (error) {
      const refused = refusedWith(error);
      return refused.done ? { leased: false } : { leased: false, ...(refused.current ? { link: refused.current } : {}) };
    }
  }

  async sealCache(key: string, untilMs: number): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { code: key },
        UpdateExpression: 'SET cacheSealedUntil = :until',
        ConditionExpression: 'attribute_exists(code)',
        ExpressionAttributeValues: { ':until': untilMs },
      }),
    );
  }

  async listByOwner(owner: string, page: { limit: number; after?: LinkPosition }): Promise<{ links: LinkRecord[]; more: boolean }> {
    // One more than asked, so that "more" is exact and a full last page does not lead to an empty one.
    const { Items = [], LastEvaluatedKey } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: LINKS_BY_OWNER_INDEX,
        KeyConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': owner },
        ScanIndexForward: false,
        Limit: page.limit + 1,
        ...(page.after ? { ExclusiveStartKey: { owner, createdAt: page.after.createdAt, code: page.after.code } } : {}),
      }),
    );
    return { links: Items.slice(0, page.limit).map(toRecord), more: Items.length > page.limit || LastEvaluatedKey !== undefined };
  }

  async update(key: string, owner: string, changes: LinkChanges, nowMs: number, claim?: ClaimCondition, stamp?: AuditStamp, seen?: LinkVersion): Promise<GuardedWrite> {
    const audit = stamped(stamp);
    const unchanged = unchangedSince(seen);
    const sets = [`updatedAt = :now${audit.set}`];
    const removes: string[] = [];
    const names: Record<string, string> = { '#owner': 'owner' };
    const claimed = underClaim(claim);
    const values: Record<string, unknown> = { ':now': new Date(nowMs).toISOString(), ':owner': owner, ...claimed.values, ...unchanged.values, ...audit.values, ...(guardsAdded(changes) ? { ':nowMs': nowMs } : {}) };
    // Attribute names by placeholder: `url` and `rules` are among DynamoDB's reserved words.
    for (const attribute of EDITABLE_ATTRIBUTES) {
      const change = changes[attribute];
      if (change === undefined) continue;
      names[`#${attribute}`] = attribute;
      if (change === null) removes.push(`#${attribute}`);
      else {
        sets.push(`#${attribute} = :${attribute}`);
        values[`:${attribute}`] = change;
      }
    }
    if (changes.expiresAt !== undefined) names['#ttl'] = TTL_ATTRIBUTE;
    if (changes.expiresAt === null) removes.push('expiresAt', '#ttl');
    else if (changes.expiresAt !== undefined) {
      sets.push('expiresAt = :expiresAt', '#ttl = :ttl');
      values[':expiresAt'] = changes.expiresAt;
      values[':ttl'] = removableAt(changes.expiresAt);
    }
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { code: key },
          UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
          // A new click limit below the clicks already used is refused in the same step, whatever visits race it;
          // so is a new limit or password while copies of the plain link may still be served (cache-lease.ts).
          ConditionExpression: `${CHANGEABLE_BY_OWNER}${claimed.condition}${unchanged.condition}${typeof changes.maxClicks === 'number' ? ' AND clicks <= :maxClicks' : ''}${guardsAdded(changes) ? ' AND (attribute_not_exists(cacheLeaseUntil) OR cacheLeaseUntil <= :nowMs)' : ''}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { done: true, link: toRecord(Attributes ?? {}) };
    } catch (error) {
      return refusedWith(error);
    }
  }

  async markDeleted(key: string, owner: string, nowMs: number, claim?: ClaimCondition, stamp?: AuditStamp, seen?: LinkVersion): Promise<GuardedWrite> {
    const claimed = underClaim(claim);
    const unchanged = unchangedSince(seen);
    const audit = stamped(stamp);
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { code: key },
          // The TTL goes too: the code stays taken, and visitors get 410 (or its expiredUrl), forever.
          UpdateExpression: `SET deleted = :yes, updatedAt = :now${audit.set} REMOVE ${DESTINATION_ATTRIBUTES}, #ttl`,
          ConditionExpression: `${CHANGEABLE_BY_OWNER}${claimed.condition}${unchanged.condition}`,
          ExpressionAttributeNames: { '#owner': 'owner', ...DESTINATION_NAMES, '#ttl': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':yes': true, ':now': new Date(nowMs).toISOString(), ':owner': owner, ...claimed.values, ...unchanged.values, ...audit.values },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { done: true, link: toRecord(Attributes ?? {}) };
    } catch (error) {
      return refusedWith(error);
    }
  }

  async setDisabled(key: string, reason: string | undefined, nowMs: number, stamp?: AuditStamp): Promise<boolean> {
    const audit = stamped(stamp);
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { code: key },
          UpdateExpression:
            reason === undefined ? `SET updatedAt = :now${audit.set} REMOVE disabled, disabledReason` : `SET disabled = :yes, disabledReason = :reason, updatedAt = :now${audit.set}`,
          ConditionExpression: 'attribute_exists(code)',
          ExpressionAttributeValues: { ':now': new Date(nowMs).toISOString(), ...audit.values, ...(reason === undefined ? {} : { ':yes': true, ':reason': reason }) },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async keysOnDomain(domain: string, owner: string, createdUpTo: string, page: { limit: number; after?: string }): Promise<{ keys: string[]; examined: number; next?: string }> {
    // Limit bounds the items DynamoDB reads, before the filter: the page's cost, whatever share is the owner's.
    const { Items = [], ScannedCount = 0, LastEvaluatedKey } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: LINKS_BY_DOMAIN_INDEX,
        KeyConditionExpression: '#domain = :domain AND createdAt <= :upTo',
        FilterExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#domain': 'domain', '#owner': 'owner' },
        ExpressionAttributeValues: { ':domain': domain, ':upTo': createdUpTo, ':owner': owner },
        Limit: page.limit,
        ...(page.after ? { ExclusiveStartKey: JSON.parse(page.after) as Record<string, unknown> } : {}),
      }),
    );
    return { keys: Items.map((item) => String(item.code)), examined: ScannedCount, ...(LastEvaluatedKey ? { next: JSON.stringify(LastEvaluatedKey) } : {}) };
  }

  async clearOfRemovedDomain(key: string, owner: string, nowMs: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { code: key },
          UpdateExpression: `SET deleted = :yes, updatedAt = :now REMOVE ${DESTINATION_ATTRIBUTES}, expiredUrl, #ttl`,
          // Anything left to clear: a live or used-up link, or a tombstone that kept its expiredUrl.
          ConditionExpression: '#owner = :owner AND attribute_not_exists(disabled) AND (attribute_not_exists(deleted) OR attribute_exists(expiredUrl))',
          ExpressionAttributeNames: { '#owner': 'owner', ...DESTINATION_NAMES, '#ttl': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':yes': true, ':now': new Date(nowMs).toISOString(), ':owner': owner },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** The link's owner only (the aggregator's grant names no other attribute); undefined when the link is gone. */
  async ownerOf(key: string): Promise<string | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { code: key }, ProjectionExpression: '#code, #owner', ExpressionAttributeNames: { '#code': 'code', '#owner': 'owner' } }),
    );
    return typeof Item?.owner === 'string' ? Item.owner : undefined;
  }

  /** The link's owner and tags only (the aggregator's grant names no other attribute); undefined when the link is gone. */
  async placeOf(key: string): Promise<LinkPlace | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { code: key }, ProjectionExpression: '#code, #owner, tags', ExpressionAttributeNames: { '#code': 'code', '#owner': 'owner' } }),
    );
    if (typeof Item?.owner !== 'string') return undefined;
    return { owner: Item.owner, tags: Array.isArray(Item.tags) ? Item.tags.filter((tag): tag is string => typeof tag === 'string') : [] };
  }

  async retire(key: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { code: key },
        // The TTL goes too: a used-up link must answer 410 forever, not turn into a 404 when it would have expired.
        UpdateExpression: `SET retired = :yes REMOVE ${DESTINATION_ATTRIBUTES}, #ttl`,
        ConditionExpression: 'attribute_exists(code)',
        ExpressionAttributeNames: { ...DESTINATION_NAMES, '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':yes': true },
      }),
    );
  }
}
