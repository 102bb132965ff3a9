import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, type TableProps } from 'aws-cdk-lib/aws-dynamodb';
import { DOMAIN_WORK_INDEX, DOMAINS_BY_OWNER_INDEX, KEYS_BY_ACCOUNT_INDEX, LINKS_BY_DOMAIN_INDEX, LINKS_BY_OWNER_INDEX, MEMBERS_BY_USER_INDEX } from '../functions/shared/config';
import { Construct } from 'constructs';

export interface DataTablesProps {
  /** Production tables refuse deletion; every stage retains its data when the stack goes. */
  deletionProtection: boolean;
}

/** The service's state: links, accounts, API keys, usage counters, reserved-alias overrides, click counts, idempotency records. */
export class DataTables extends Construct {
  /** Keyed by short code; TTL `ttl` removes expired links (reads also check expiry, TTL can lag). */
  readonly links: Table;
  /** Keyed by the SHA-256 of the key: the key itself is never stored. Indexed by account (byAccount) for listing. */
  readonly apiKeys: Table;
  /**
   * Rate windows, monthly quotas and password attempts, each removing itself through TTL. Anonymous callers and
   * visitors are counted under keyed hashes of their addresses, never the addresses.
   */
  readonly usage: Table;
  /** (alias, keyId) pairs an operator allowed to use a reserved alias. */
  readonly aliasOverrides: Table;
  /** Accounts by id: plan, monthly limit, links owner. Their keys carry copies, so requests never read this. */
  readonly accounts: Table;
  /** Click aggregates per (link, UTC day), and the aggregator's delivery markers; both expire through TTL. */
  readonly clickStats: Table;
  /** First answers to creations sent with an Idempotency-Key (Powertools' layout), removed by TTL after 24 h. */
  readonly idempotency: Table;
  /** Customer domains by name, each account's domain count and default, and the scheduler's work (dynamo-domain-store.ts). */
  readonly domains: Table;
  /** Accounts' webhooks, their delivery logs (TTL 30 days) and in-flight places (webhooks/dynamo-webhook-store.ts). */
  readonly webhooks: Table;
  /**
   * Workspaces' people: memberships (`ws#<id>` / `member#<userId>`, in the byUser index by `userPk` = `user#<sub>`),
   * invitations (`ws#<id>` / `invite#<id>`, found by their token's hash under `invtoken#<sha256>` / `token`, TTL
   * `ttl`) and each workspace's seat count (`ws#<id>` / `seats`).
   */
  readonly members: Table;
  /** Every change to a workspace (`ws#<id>` / `<ISO time>#<id>`, newest last in the key so a reverse query pages newest first), TTL 365 days. */
  readonly auditLog: Table;

  constructor(scope: Construct, id: string, props: DataTablesProps) {
    super(scope, id);
    const common: Partial<TableProps> = {
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: props.deletionProtection,
    };
    this.links = new Table(this, 'Links', {
      ...common,
      partitionKey: { name: 'code', type: AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
      // Webhook events come from this stream: every committed change, TTL removals included.
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
    });
    // An account's links, newest first: listing is a Query on the owner, never a Scan.
    this.links.addGlobalSecondaryIndex({
      indexName: LINKS_BY_OWNER_INDEX,
      partitionKey: { name: 'owner', type: AttributeType.STRING },
      sortKey: { name: 'createdAt', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    // A removed domain's links, for its cleanup: sparse, since links on the shared domain have no `domain`.
    this.links.addGlobalSecondaryIndex({
      indexName: LINKS_BY_DOMAIN_INDEX,
      partitionKey: { name: 'domain', type: AttributeType.STRING },
      sortKey: { name: 'createdAt', type: AttributeType.STRING },
      projectionType: ProjectionType.INCLUDE,
      nonKeyAttributes: ['owner'],
    });
    this.domains = new Table(this, 'Domains', { ...common, partitionKey: { name: 'domain', type: AttributeType.STRING } });
    this.domains.addGlobalSecondaryIndex({
      indexName: DOMAINS_BY_OWNER_INDEX,
      partitionKey: { name: 'owner', type: AttributeType.STRING },
      sortKey: { name: 'createdAt', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    // Pending checks and cleanups by due time: the scheduler queries what is due, never scans.
    this.domains.addGlobalSecondaryIndex({
      indexName: DOMAIN_WORK_INDEX,
      partitionKey: { name: 'work', type: AttributeType.STRING },
      sortKey: { name: 'dueAt', type: AttributeType.NUMBER },
      projectionType: ProjectionType.ALL,
    });
    this.apiKeys = new Table(this, 'ApiKeys', { ...common, partitionKey: { name: 'keyHash', type: AttributeType.STRING } });
    // A workspace's keys, oldest first, for GET /v2/keys: sparse, since keys issued before accounts carry no accountId.
    // Whole items (a key is a few hundred bytes): the listing shows most of them, and DELETE needs the key's hash.
    this.apiKeys.addGlobalSecondaryIndex({
      indexName: KEYS_BY_ACCOUNT_INDEX,
      partitionKey: { name: 'accountId', type: AttributeType.STRING },
      sortKey: { name: 'createdAt', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    this.usage = new Table(this, 'Usage', {
      ...common,
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
      // Quota crossings (webhook events) are read off this stream.
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      // Counters of the current minute, quarter-hour and month: a 35-day backup would only keep them past their use.
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false },
    });
    Validations.of(this.usage).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason: 'Short-lived counters: losing them resets a minute window or a month\'s count, and backups would keep them for 35 days.',
    });
    this.clickStats = new Table(this, 'ClickStats', {
      ...common,
      partitionKey: { name: 'code', type: AttributeType.STRING },
      sortKey: { name: 'day', type: AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
    });
    this.idempotency = new Table(this, 'Idempotency', {
      ...common,
      partitionKey: { name: 'id', type: AttributeType.STRING },
      timeToLiveAttribute: 'expiration',
      // Records live a day and can be lost without harm: a retry after a loss creates again, as without a key.
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.idempotency).acknowledge({ id: 'AwsSolutions-DDB3', reason: 'Day-long retry records: restoring them is worth nothing.' });
    this.webhooks = new Table(this, 'Webhooks', {
      ...common,
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
    });
    this.members = new Table(this, 'Members', {
      ...common,
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
    });
    this.members.addGlobalSecondaryIndex({
      indexName: MEMBERS_BY_USER_INDEX,
      partitionKey: { name: 'userPk', type: AttributeType.STRING },
      sortKey: { name: 'pk', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    this.auditLog = new Table(this, 'AuditLog', {
      ...common,
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
    });
    this.accounts = new Table(this, 'Accounts', { ...common, partitionKey: { name: 'accountId', type: AttributeType.STRING } });
    this.aliasOverrides = new Table(this, 'AliasOverrides', {
      ...common,
      partitionKey: { name: 'alias', type: AttributeType.STRING },
      sortKey: { name: 'keyId', type: AttributeType.STRING },
    });
  }
}
