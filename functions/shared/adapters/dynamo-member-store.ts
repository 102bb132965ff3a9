import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { MEMBERS_BY_USER_INDEX } from '../config';
import type { AuditRecord } from '../domain/audit/audit-record';
import { DependencyUnavailable } from '../domain/errors';
import { DEPENDENCY_UNAVAILABLE_MESSAGE } from '../domain/messages';
import type { Membership, MembershipReader } from '../domain/ports';
import { EMPTY_WORKSPACE, hasFreeSeat, withoutExpired, type SeatCount } from '../domain/workspaces/seats';
import { auditPut } from './audit-items';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What `addMember` did: the person joined, was a member already, or the plan's seats are all taken. */
export type MemberAdded = 'added' | 'alreadyMember' | 'noSeat';

const workspaceKey = (workspaceId: string) => `ws#${workspaceId}`;
const memberKey = (userId: string) => `member#${userId}`;
const userKey = (userId: string) => `user#${userId}`;
const SEATS = 'seats';

interface SeatsItem extends SeatCount {
  version: number;
}

/** One write of a seat change: its item, and what the change answers when that item's own condition fails. */
interface GuardedWrite<R> {
  item: TransactItem;
  refusal?: R;
}

/** A change decided from the workspace's current count: refused outright, or the new count and the writes beside it. */
type SeatChange<R> = { refused: R } | { next: SeatCount; writes: GuardedWrite<R>[]; result: R };

/**
 * Under contention every round lets one writer through, so this bounds the concurrent changes to one workspace that
 * can all succeed; past it the caller gets a 503 to retry.
 */
const MAX_SEAT_ATTEMPTS = 32;

function toMembership(item: Record<string, unknown>): Membership {
  const { workspaceId, userId, email, role, joinedAt } = item as unknown as Membership;
  return { workspaceId, userId, email, role, joinedAt };
}

/**
 * Workspaces' people in the members table (layout in lib/data-tables.ts): memberships, invitations, and each
 * workspace's seat count. Every change that adds or removes a person, or an owner, goes through the count item with
 * a version condition in the same transaction as the change and its audit record: two concurrent changes can never
 * both read the same count and overrun a plan's seats or leave a workspace without an owner.
 */
export class DynamoMemberStore implements MembershipReader {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Needed by the changes that are audited (all but a workspace's first owner, added by its creator). */
    private readonly auditTableName?: string,
  ) {}

  /** Strongly consistent: a member removed or demoted a moment ago is refused or limited on their very next request. */
  async membership(workspaceId: string, userId: string): Promise<Membership | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: workspaceKey(workspaceId), sk: memberKey(userId) }, ConsistentRead: true }),
    );
    return Item ? toMembership(Item) : undefined;
  }

  /** A workspace's members, oldest key first (by user id), read consistently. */
  async members(workspaceId: string): Promise<Membership[]> {
    const members: Membership[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :member)',
          ExpressionAttributeValues: { ':pk': workspaceKey(workspaceId), ':member': memberKey('') },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      members.push(...(page.Items ?? []).map(toMembership));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return members;
  }

  /** A person's memberships, through the byUser index (eventually consistent: for `GET /v2/me` and the switcher). */
  async workspacesOf(userId: string): Promise<Membership[]> {
    const memberships: Membership[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: MEMBERS_BY_USER_INDEX,
          KeyConditionExpression: 'userPk = :user',
          ExpressionAttributeValues: { ':user': userKey(userId) },
          ExclusiveStartKey: startKey,
        }),
      );
      memberships.push(...(page.Items ?? []).map(toMembership));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return memberships;
  }

  /**
   * Adds a person to a workspace, taking a seat if the plan has one free (`seatLimit` null or absent: no cap), with
   * its audit record when given.
   */
  async addMember(member: Membership, options: { seatLimit?: number | null; audit?: AuditRecord } = {}): Promise<MemberAdded> {
    const nowMs = Date.parse(member.joinedAt);
    return this.changeSeats<MemberAdded>(member.workspaceId, nowMs, (count) => {
      if (!hasFreeSeat(count, options.seatLimit ?? null, nowMs)) return { refused: 'noSeat' };
      return {
        next: { ...count, members: count.members + 1, owners: count.owners + (member.role === 'owner' ? 1 : 0) },
        writes: [{ item: this.putMember(member), refusal: 'alreadyMember' }, ...this.audited(options.audit)],
        result: 'added',
      };
    });
  }

  private putMember(member: Membership): TransactItem {
    return {
      Put: {
        TableName: this.tableName,
        Item: { pk: workspaceKey(member.workspaceId), sk: memberKey(member.userId), userPk: userKey(member.userId), ...member },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  private audited(record: AuditRecord | undefined): GuardedWrite<never>[] {
    if (!record) return [];
    if (!this.auditTableName) throw new Error('an audited change needs the audit table');
    return [{ item: auditPut(this.auditTableName, record) }];
  }

  /**
   * Reads the workspace's count, lets `decide` plan the change from it (expired invitations already dropped), and
   * writes the new count under the version it read, beside the change's own writes, in one transaction. A count
   * that moved meanwhile cancels the transaction and the change is decided again from the new count.
   */
  private async changeSeats<R>(workspaceId: string, nowMs: number, decide: (count: SeatCount) => SeatChange<R>): Promise<R> {
    for (let attempt = 0; attempt < MAX_SEAT_ATTEMPTS; attempt += 1) {
      const { Item } = await this.client.send(
        new GetCommand({ TableName: this.tableName, Key: { pk: workspaceKey(workspaceId), sk: SEATS }, ConsistentRead: true }),
      );
      const read = Item as (SeatsItem & Record<string, unknown>) | undefined;
      const change = decide(withoutExpired(read ? { members: read.members, owners: read.owners, pending: read.pending } : EMPTY_WORKSPACE, nowMs));
      if ('refused' in change) return change.refused;
      const version = read?.version ?? 0;
      const countItem: TransactItem = {
        Put: {
          TableName: this.tableName,
          Item: { pk: workspaceKey(workspaceId), sk: SEATS, ...change.next, version: version + 1 },
          ...(read
            ? { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': version } }
            : { ConditionExpression: 'attribute_not_exists(pk)' }),
        },
      };
      try {
        await this.client.send(new TransactWriteCommand({ TransactItems: [countItem, ...change.writes.map((write) => write.item)] }));
        return change.result;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const [countReason, ...reasons] = error.CancellationReasons ?? [];
        const failed = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
        const refusal = failed >= 0 ? change.writes[failed]?.refusal : undefined;
        if (refusal !== undefined) return refusal;
        const raced = countReason?.Code === 'ConditionalCheckFailed' || [countReason, ...reasons].some((reason) => reason?.Code === 'TransactionConflict');
        if (!raced) throw error;
      }
    }
    throw new DependencyUnavailable(DEPENDENCY_UNAVAILABLE_MESSAGE);
  }
}
