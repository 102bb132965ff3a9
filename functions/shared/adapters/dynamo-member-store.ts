import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { MEMBERS_BY_USER_INDEX } from '../config';
import type { AuditRecord } from '../domain/audit/audit-record';
import { DependencyUnavailable } from '../domain/errors';
import { DEPENDENCY_UNAVAILABLE_MESSAGE } from '../domain/messages';
import type { Role } from '../domain/accounts/permissions';
import type { Membership, MemberStore } from '../domain/ports';
import type { Invitation } from '../domain/workspaces/invitation';
import { EMPTY_WORKSPACE, hasFreeSeat, withoutExpired, type SeatCount } from '../domain/workspaces/seats';
import { auditPut } from './audit-items';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What `addMember` did: the person joined, was a member already, or the plan's seats are all taken. */
export type MemberAdded = 'added' | 'alreadyMember' | 'noSeat';

const workspaceKey = (workspaceId: string) => `ws#${workspaceId}`;
const memberKey = (userId: string) => `member#${userId}`;
const userKey = (userId: string) => `user#${userId}`;
const invitationKey = (invitationId: string) => `invite#${invitationId}`;
const tokenKey = (tokenHash: string) => `invtoken#${tokenHash}`;
const SEATS = 'seats';
const TOKEN = 'token';

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

function toInvitation(item: Record<string, unknown>): Invitation {
  const { id, workspaceId, email, emailKey, role, invitedBy, createdAt, expiresAt } = item as unknown as Invitation;
  return { id, workspaceId, email, emailKey, role, invitedBy, createdAt, expiresAt };
}

const ttlOf = (invitation: Invitation) => Math.ceil(Date.parse(invitation.expiresAt) / 1000);

function without(pending: Record<string, number>, invitationId: string): Record<string, number> {
  return Object.fromEntries(Object.entries(pending).filter(([id]) => id !== invitationId));
}

/**
 * Workspaces' people in the members table (layout in lib/data-tables.ts): memberships, invitations, and each
 * workspace's seat count. Every change that adds or removes a person, or an owner, goes through the count item with
 * a version condition in the same transaction as the change and its audit record: two concurrent changes can never
 * both read the same count and overrun a plan's seats or leave a workspace without an owner.
 */
export class DynamoMemberStore implements MemberStore {
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

  async seatCount(workspaceId: string, nowMs: number): Promise<SeatCount> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: workspaceKey(workspaceId), sk: SEATS }, ConsistentRead: true }));
    return withoutExpired(Item ? { members: Item.members as number, owners: Item.owners as number, pending: Item.pending as Record<string, number> } : EMPTY_WORKSPACE, nowMs);
  }

  /** Sets a member's role if it is still the one read (`stale` otherwise), never taking a workspace's last owner. */
  async changeRole(member: Membership, role: Role, audit: AuditRecord): Promise<'changed' | 'lastOwner' | 'stale'> {
    const ownersBy = (role === 'owner' ? 1 : 0) - (member.role === 'owner' ? 1 : 0);
    return this.changeSeats<'changed' | 'lastOwner' | 'stale'>(member.workspaceId, Date.parse(audit.at), (count) => {
      if (count.owners + ownersBy < 1) return { refused: 'lastOwner' };
      const update: TransactItem = {
        Update: {
          TableName: this.tableName,
          Key: { pk: workspaceKey(member.workspaceId), sk: memberKey(member.userId) },
          UpdateExpression: 'SET #role = :role',
          ConditionExpression: '#role = :expected',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': role, ':expected': member.role },
        },
      };
      return { next: { ...count, owners: count.owners + ownersBy }, writes: [{ item: update, refusal: 'stale' }, ...this.audited(audit)], result: 'changed' };
    });
  }

  /** Removes a member if their role is still the one read (`stale` otherwise), never a workspace's last owner. */
  async removeMember(member: Membership, audit: AuditRecord): Promise<'removed' | 'lastOwner' | 'stale'> {
    const owner = member.role === 'owner' ? 1 : 0;
    return this.changeSeats<'removed' | 'lastOwner' | 'stale'>(member.workspaceId, Date.parse(audit.at), (count) => {
      if (owner && count.owners <= 1) return { refused: 'lastOwner' };
      const remove: TransactItem = {
        Delete: {
          TableName: this.tableName,
          Key: { pk: workspaceKey(member.workspaceId), sk: memberKey(member.userId) },
          ConditionExpression: '#role = :expected',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':expected': member.role },
        },
      };
      return { next: { ...count, members: Math.max(0, count.members - 1), owners: count.owners - owner }, writes: [{ item: remove, refusal: 'stale' }, ...this.audited(audit)], result: 'removed' };
    });
  }

  /**
   * Stores an invitation holding a seat until it expires, and its token's hash pointing at it (both removed by TTL
   * at expiry). The hash never leaves this table: the audit record and every answer go without it.
   */
  async invite(invitation: Invitation, tokenHash: string, seatLimit: number | null, audit: AuditRecord): Promise<'invited' | 'noSeat'> {
    const nowMs = Date.parse(invitation.createdAt);
    const ttl = ttlOf(invitation);
    return this.changeSeats<'invited' | 'noSeat'>(invitation.workspaceId, nowMs, (count) => {
      if (!hasFreeSeat(count, seatLimit, nowMs)) return { refused: 'noSeat' };
      const put = (Item: Record<string, unknown>): GuardedWrite<never> => ({ item: { Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } } });
      return {
        next: { ...count, pending: { ...count.pending, [invitation.id]: Date.parse(invitation.expiresAt) } },
        writes: [
          put({ pk: workspaceKey(invitation.workspaceId), sk: invitationKey(invitation.id), ...invitation, ttl }),
          put({ pk: tokenKey(tokenHash), sk: TOKEN, workspaceId: invitation.workspaceId, invitationId: invitation.id, ttl }),
          ...this.audited(audit),
        ],
        result: 'invited',
      };
    });
  }

  async invitations(workspaceId: string, nowMs: number): Promise<Invitation[]> {
    const invitations: Invitation[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :invite)',
          ExpressionAttributeValues: { ':pk': workspaceKey(workspaceId), ':invite': invitationKey('') },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      invitations.push(...(page.Items ?? []).map(toInvitation));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    // TTL lags by up to days: an expired invitation still stored is gone all the same.
    return invitations.filter((invitation) => Date.parse(invitation.expiresAt) > nowMs).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async invitation(workspaceId: string, invitationId: string): Promise<Invitation | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: workspaceKey(workspaceId), sk: invitationKey(invitationId) }, ConsistentRead: true }),
    );
    return Item ? toInvitation(Item) : undefined;
  }

  /** Through the token's item to the invitation, both read consistently: one accepted or revoked is gone at once. */
  async invitationByToken(tokenHash: string): Promise<Invitation | undefined> {
    const { Item: pointer } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: tokenKey(tokenHash), sk: TOKEN }, ConsistentRead: true }));
    if (!pointer) return undefined;
    return this.invitation(String(pointer.workspaceId), String(pointer.invitationId));
  }

  /** Deletes the invitation (its token then finds nothing) and gives its seat back. */
  async revokeInvitation(invitation: Invitation, audit: AuditRecord): Promise<'revoked' | 'gone'> {
    return this.changeSeats<'revoked' | 'gone'>(invitation.workspaceId, Date.parse(audit.at), (count) => ({
      next: { ...count, pending: without(count.pending, invitation.id) },
      writes: [
        {
          item: { Delete: { TableName: this.tableName, Key: { pk: workspaceKey(invitation.workspaceId), sk: invitationKey(invitation.id) }, ConditionExpression: 'attribute_exists(pk)' } },
          refusal: 'gone',
        },
        ...this.audited(audit),
      ],
      result: 'revoked',
    }));
  }

  /**
   * The invitation's seat becomes the member's: the invitation is deleted on condition that it is still there and
   * unexpired, so a token is used once, however many acceptances race.
   */
  async acceptInvitation(invitation: Invitation, member: Membership, audits: readonly AuditRecord[]): Promise<'accepted' | 'gone' | 'alreadyMember'> {
    const nowMs = Date.parse(member.joinedAt);
    return this.changeSeats<'accepted' | 'gone' | 'alreadyMember'>(invitation.workspaceId, nowMs, (count) => ({
      next: { members: count.members + 1, owners: count.owners + (member.role === 'owner' ? 1 : 0), pending: without(count.pending, invitation.id) },
      writes: [
        {
          item: {
            Delete: {
              TableName: this.tableName,
              Key: { pk: workspaceKey(invitation.workspaceId), sk: invitationKey(invitation.id) },
              ConditionExpression: 'attribute_exists(pk) AND expiresAt > :now',
              ExpressionAttributeValues: { ':now': new Date(nowMs).toISOString() },
            },
          },
          refusal: 'gone',
        },
        { item: this.putMember(member), refusal: 'alreadyMember' },
        ...audits.flatMap((audit) => this.audited(audit)),
      ],
      result: 'accepted',
    }));
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
