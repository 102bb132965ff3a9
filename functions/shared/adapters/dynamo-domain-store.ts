import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DOMAIN_WORK_INDEX, DOMAINS_BY_OWNER_INDEX } from '../config';
import type { DomainRecord } from '../domain/domains/custom-domain';
import type { CleanupProgress, DomainCleanup, DomainClaim, DomainHold, DomainSettings, DomainStore, DomainTransition } from '../domain/ports';
import { scanAll } from './scan-all';
import { auditPut } from './audit-items';
import type { AuditRecord } from '../domain/audit/audit-record';

/**
 * One table, keyed by `domain`, holds four kinds of item; `#` never occurs in a host name, so they cannot meet:
 * - a domain (`go.acme.com`), with `work: 'verify'` and `dueAt` while its checks are scheduled, and `manualCheckAt`
 *   (epoch ms) once its owner asked for a check;
 * - a removed domain's hold (`go.acme.com` too, in its place: `heldFor` the former owner, `heldUntil` epoch ms), with
 *   no `status` or `owner`, so reads, listings and the work index never see it as a domain;
 * - an account's summary (`account#<owner>`): how many domains it holds and which is its default;
 * - a removed domain's cleanup (`cleanup#<domain>#<ms>`), deleted once its links are deleted and its tenant gone.
 */
const summaryKey = (owner: string) => `account#${owner}`;
const VERIFY = 'verify';
const CLEANUP = 'cleanup';

type DomainItem = DomainRecord & { work?: string; dueAt?: number; manualCheckAt?: number };

function toRecord(item: Record<string, unknown>): DomainRecord {
  const { work: _work, dueAt, manualCheckAt: _manualCheckAt, ...record } = item as unknown as DomainItem;
  return dueAt === undefined ? record : { ...record, nextCheckAt: dueAt };
}

const isHold = (item: Record<string, unknown>) => typeof item.status !== 'string' && typeof item.heldFor === 'string';

function cleanupItem(record: Pick<DomainRecord, 'domain' | 'owner' | 'claimId'>, nowMs: number): Record<string, unknown> {
  const { domain, owner, claimId } = record;
  return { domain: `${CLEANUP}#${domain}#${nowMs}`, work: CLEANUP, dueAt: nowMs, name: domain, formerOwner: owner, deletedAt: new Date(nowMs).toISOString(), ...(claimId ? { claimId } : {}) };
}

function toItem(record: DomainRecord): DomainItem {
  const { nextCheckAt, ...rest } = record;
  return nextCheckAt === undefined ? rest : { ...rest, work: VERIFY, dueAt: nextCheckAt };
}

function refused(error: unknown): undefined {
  if (error instanceof ConditionalCheckFailedException || error instanceof TransactionCanceledException) return undefined;
  throw error;
}

export class DynamoDomainStore implements DomainStore {
  /** `auditTable`: where the audited changes' records go, each in its change's own transaction (audit-items.ts). */
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly auditTable?: string,
  ) {}

  /** The record's put, to end the change's transaction with; none for a change nobody asked to record. */
  private audited(audit: AuditRecord | undefined): ReturnType<typeof auditPut>[] {
    if (audit === undefined) return [];
    if (this.auditTable === undefined) throw new Error('an audited domain change reached a store with no audit table');
    return [auditPut(this.auditTable, audit)];
  }

  /** One update alone, or with its record in one transaction (which returns no item: it is read back after). */
  private async updateItem(update: Record<string, unknown>, audit: AuditRecord | undefined): Promise<DomainRecord | undefined> {
    try {
      if (audit === undefined) {
        const { Attributes } = await this.client.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' } as never));
        return toRecord(Attributes ?? {});
      }
      await this.client.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...this.audited(audit)] as never }));
    } catch (error) {
      return refused(error);
    }
    return this.find(String((update.Key as { domain: string }).domain));
  }

  async claim(record: DomainRecord, allowance: number | null, audit?: AuditRecord): Promise<DomainClaim> {
    const nowMs = Date.parse(record.createdAt);
    const { Item: existing } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { domain: record.domain }, ConsistentRead: true }));
    const over = existing ? this.replaceable(existing, record.owner, nowMs) : { condition: 'attribute_not_exists(#domain)', names: { '#domain': 'domain' }, values: {} };
    if (!over) return 'taken';
    const failed = existing && !isHold(existing) ? (existing as unknown as DomainRecord) : undefined;
    const count = (owner: string, by: number, cap: number | null) => ({
      Update: {
        TableName: this.tableName,
        Key: { domain: summaryKey(owner) },
        UpdateExpression: 'ADD domainCount :by',
        ...(cap === null
          ? { ExpressionAttributeValues: { ':by': by } }
          : { ConditionExpression: 'attribute_not_exists(domainCount) OR domainCount < :allowance', ExpressionAttributeValues: { ':by': by, ':allowance': cap } }),
      },
    });
    // Replacing one's own failed claim keeps the count; replacing another's gives theirs back and queues its tenant's removal.
    const counted = failed?.owner !== record.owner;
    const items = [
      {
        Put: {
          TableName: this.tableName,
          Item: toItem(record),
          ConditionExpression: over.condition,
          // DynamoDB refuses empty maps of names or values.
          ...(Object.keys(over.names).length > 0 ? { ExpressionAttributeNames: over.names } : {}),
          ...(Object.keys(over.values).length > 0 ? { ExpressionAttributeValues: over.values } : {}),
        },
      },
      ...(counted ? [count(record.owner, 1, allowance)] : []),
      ...(failed && counted ? [count(failed.owner, -1, null)] : []),
      ...(failed ? [{ Put: { TableName: this.tableName, Item: cleanupItem(failed, nowMs) } }] : []),
      ...this.audited(audit),
    ];
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items as never }));
      return 'claimed';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [name, ownCount] = error.CancellationReasons ?? [];
      if (name?.Code === 'ConditionalCheckFailed') return 'taken';
      if (counted && ownCount?.Code === 'ConditionalCheckFailed') return 'overLimit';
      throw error;
    }
  }

  /**
   * The condition under which a claim may overwrite what holds the name now, as read (so a change meanwhile cancels
   * the claim): a hold that ended or is the claimant's, or a failed claim; undefined when the name is taken.
   */
  private replaceable(item: Record<string, unknown>, owner: string, nowMs: number): { condition: string; names: Record<string, string>; values: Record<string, unknown> } | undefined {
    if (isHold(item)) {
      if (item.heldFor !== owner && Number(item.heldUntil) > nowMs) return undefined;
      return { condition: 'heldFor = :heldFor AND heldUntil = :heldUntil', names: {}, values: { ':heldFor': item.heldFor, ':heldUntil': item.heldUntil } };
    }
    if (item.status !== 'failed') return undefined;
    return {
      condition: '#status = :failed AND #owner = :formerOwner AND createdAt = :formerCreatedAt',
      names: { '#status': 'status', '#owner': 'owner' },
      values: { ':failed': 'failed', ':formerOwner': item.owner, ':formerCreatedAt': item.createdAt },
    };
  }

  async find(domain: string): Promise<DomainRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { domain }, ConsistentRead: true }));
    return Item && typeof Item.status === 'string' ? toRecord(Item) : undefined;
  }

  async listByOwner(owner: string): Promise<DomainRecord[]> {
    const records: DomainRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: DOMAINS_BY_OWNER_INDEX,
          KeyConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': owner },
          ExclusiveStartKey: startKey,
        }),
      );
      records.push(...(page.Items ?? []).map(toRecord));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return records;
  }

  async listAll(): Promise<DomainRecord[]> {
    const items = await scanAll<Record<string, unknown>>(this.client, this.tableName);
    return items.filter((item) => typeof item.status === 'string').map(toRecord);
  }

  async defaultOf(owner: string): Promise<string | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { domain: summaryKey(owner) }, ConsistentRead: true }));
    return typeof Item?.defaultDomain === 'string' ? Item.defaultDomain : undefined;
  }

  async updateSettings(domain: string, owner: string, settings: DomainSettings, audit?: AuditRecord): Promise<DomainRecord | undefined> {
    const sets: string[] = [];
    const removes: string[] = [];
    const values: Record<string, unknown> = { ':owner': owner };
    for (const [field, value] of Object.entries(settings) as Array<[keyof DomainSettings, string | null | undefined]>) {
      if (value === null) removes.push(field);
      else if (value !== undefined) {
        sets.push(`${field} = :${field}`);
        values[`:${field}`] = value;
      }
    }
    if (sets.length === 0 && removes.length === 0) return this.owned(domain, owner);
    return this.updateItem(
      {
        TableName: this.tableName,
        Key: { domain },
        UpdateExpression: `${sets.length > 0 ? `SET ${sets.join(', ')}` : ''}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: values,
      },
      audit,
    );
  }

  /** The summary names the default; the flag on each domain follows it in the same transaction. */
  async setDefault(domain: string, owner: string, isDefault: boolean, audit?: AuditRecord): Promise<DomainRecord | undefined> {
    const previous = await this.defaultOf(owner);
    const owned = { ConditionExpression: '#owner = :owner', ExpressionAttributeNames: { '#owner': 'owner' } };
    const flag = (name: string, value: boolean) => ({
      Update: { TableName: this.tableName, Key: { domain: name }, UpdateExpression: 'SET isDefault = :value', ...owned, ExpressionAttributeValues: { ':value': value, ':owner': owner } },
    });
    const summary = {
      TableName: this.tableName,
      Key: { domain: summaryKey(owner) },
      // Optimistic: a concurrent change of the default cancels this one rather than leaving two defaults.
      ConditionExpression: previous === undefined ? 'attribute_not_exists(defaultDomain)' : 'defaultDomain = :previous',
      ...(isDefault
        ? { UpdateExpression: 'SET defaultDomain = :domain', ExpressionAttributeValues: { ':domain': domain, ...(previous === undefined ? {} : { ':previous': previous }) } }
        : { UpdateExpression: 'REMOVE defaultDomain', ...(previous === undefined ? {} : { ExpressionAttributeValues: { ':previous': previous } }) }),
    };
    if ((previous === domain) === isDefault) return this.owned(domain, owner);
    const items = [
      flag(domain, isDefault),
      { Update: summary },
      ...(isDefault && previous !== undefined ? [flag(previous, false)] : []),
      ...this.audited(audit),
    ];
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items as never }));
    } catch (error) {
      return refused(error);
    }
    return this.owned(domain, owner);
  }

  async transition(domain: string, transition: DomainTransition, audit?: AuditRecord): Promise<DomainRecord | undefined> {
    const { change } = transition;
    // History records changes of status; a check that leaves a domain pending updates its reason only.
    const changed = !transition.from.includes(change.status);
    const sets = ['#status = :status', ...(changed ? ['history = list_append(history, :change)'] : [])];
    const removes: string[] = [];
    const values: Record<string, unknown> = { ':status': change.status, ...(changed ? { ':change': [change] } : {}) };
    if (change.reason === undefined) removes.push('statusReason');
    else {
      sets.push('statusReason = :reason');
      values[':reason'] = change.reason;
    }
    if (transition.verifiedAt !== undefined) {
      sets.push('verifiedAt = :verifiedAt');
      values[':verifiedAt'] = transition.verifiedAt;
    }
    if (transition.checksStartedAt !== undefined) {
      sets.push('checksStartedAt = :checksStartedAt');
      values[':checksStartedAt'] = transition.checksStartedAt;
    }
    if (transition.nextCheckAt === null) removes.push('#work', 'dueAt');
    else {
      sets.push('#work = :work', 'dueAt = :dueAt');
      values[':work'] = VERIFY;
      values[':dueAt'] = transition.nextCheckAt;
    }
    const from = transition.from.map((_, index) => `:from${index}`);
    transition.from.forEach((status, index) => (values[`:from${index}`] = status));
    return this.updateItem(
      {
        TableName: this.tableName,
        Key: { domain },
        UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: `#status IN (${from.join(', ')})`,
        // `status` and `work` are reserved words of DynamoDB's expressions.
        ExpressionAttributeNames: { '#status': 'status', '#work': 'work' },
        ExpressionAttributeValues: values,
      },
      audit,
    );
  }

  async remove(record: DomainRecord, nowMs: number, heldUntilMs?: number, audit?: AuditRecord): Promise<boolean> {
    const { domain, owner } = record;
    const asRead = {
      TableName: this.tableName,
      ConditionExpression: '#owner = :owner AND #status = :status',
      ExpressionAttributeNames: { '#owner': 'owner', '#status': 'status' },
      ExpressionAttributeValues: { ':owner': owner, ':status': record.status },
    };
    // The hold takes the domain's place, so the name is never free in between.
    const name =
      heldUntilMs === undefined
        ? { Delete: { ...asRead, Key: { domain } } }
        : { Put: { ...asRead, Item: { domain, heldFor: owner, heldUntil: heldUntilMs } } };
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            name,
            {
              Update: {
                TableName: this.tableName,
                Key: { domain: summaryKey(owner) },
                // The default goes with the domain, if it was this one.
                UpdateExpression: `ADD domainCount :minusOne${record.isDefault ? ' REMOVE defaultDomain' : ''}`,
                ExpressionAttributeValues: { ':minusOne': -1 },
              },
            },
            { Put: { TableName: this.tableName, Item: cleanupItem(record, nowMs) } },
            ...this.audited(audit),
          ],
        }),
      );
      return true;
    } catch (error) {
      return refused(error) ?? false;
    }
  }

  async holdOf(domain: string): Promise<DomainHold | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { domain }, ConsistentRead: true }));
    return Item && isHold(Item) ? { domain, heldFor: String(Item.heldFor), heldUntilMs: Number(Item.heldUntil) } : undefined;
  }

  async endHold(domain: string): Promise<boolean> {
    try {
      await this.client.send(
        new DeleteCommand({ TableName: this.tableName, Key: { domain }, ConditionExpression: 'attribute_exists(heldFor) AND attribute_not_exists(#status)', ExpressionAttributeNames: { '#status': 'status' } }),
      );
      return true;
    } catch (error) {
      return refused(error) ?? false;
    }
  }

  async reserveManualCheck(domain: string, owner: string, nowMs: number, everyMs: number): Promise<number | undefined> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { domain },
          UpdateExpression: 'SET manualCheckAt = :now',
          ConditionExpression: '#owner = :owner AND (attribute_not_exists(manualCheckAt) OR manualCheckAt <= :earliest)',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':now': nowMs, ':owner': owner, ':earliest': nowMs - everyMs },
        }),
      );
      return undefined;
    } catch (error) {
      refused(error);
    }
    // Refused: checked too recently, or no longer the owner's (the check that follows finds nothing to change).
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { domain }, ConsistentRead: true }));
    return Item?.owner === owner && typeof Item.manualCheckAt === 'number' ? Math.max(1, Item.manualCheckAt + everyMs - nowMs) : undefined;
  }

  async dueChecks(nowMs: number, limit: number): Promise<string[]> {
    return (await this.due(VERIFY, nowMs, limit)).map((item) => String(item.domain));
  }

  async dueCleanups(nowMs: number, limit: number): Promise<DomainCleanup[]> {
    return (await this.due(CLEANUP, nowMs, limit)).map((item) => ({
      id: String(item.domain),
      domain: String(item.name),
      formerOwner: String(item.formerOwner),
      deletedAt: String(item.deletedAt),
      ...(typeof item.claimId === 'string' ? { claimId: item.claimId } : {}),
      ...(typeof item.cursor === 'string' ? { cursor: item.cursor } : {}),
      ...(item.linksCleared === true ? { linksCleared: true } : {}),
      ...(typeof item.failures === 'number' ? { failures: item.failures } : {}),
    }));
  }

  async postponeCleanup(id: string, untilMs: number, progress?: CleanupProgress): Promise<void> {
    const sets = ['dueAt = :until'];
    const removes: string[] = [];
    // By placeholder: `cursor` is among DynamoDB's reserved words.
    const names: Record<string, string> = { '#work': 'work' };
    const values: Record<string, unknown> = { ':until': untilMs };
    for (const field of progress ? (['cursor', 'linksCleared', 'failures'] as const) : []) {
      const value = progress?.[field];
      names[`#${field}`] = field;
      if (value === undefined) removes.push(`#${field}`);
      else {
        sets.push(`#${field} = :${field}`);
        values[`:${field}`] = value;
      }
    }
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { domain: id },
        UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: 'attribute_exists(#work)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ).catch(refused);
  }

  async finishCleanup(id: string): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { domain: id } }));
  }

  private async due(work: string, nowMs: number, limit: number): Promise<Array<Record<string, unknown>>> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: DOMAIN_WORK_INDEX,
        KeyConditionExpression: '#work = :work AND dueAt <= :now',
        ExpressionAttributeNames: { '#work': 'work' },
        ExpressionAttributeValues: { ':work': work, ':now': nowMs },
        Limit: limit,
      }),
    );
    return Items;
  }

  private async owned(domain: string, owner: string): Promise<DomainRecord | undefined> {
    const record = await this.find(domain);
    return record?.owner === owner ? record : undefined;
  }
}
