import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, type TableProps } from 'aws-cdk-lib/aws-dynamodb';
import { DOMAIN_WORK_INDEX, DOMAINS_BY_OWNER_INDEX, HEALTH_DUE_ATTRIBUTE, HEALTH_SHARD_ATTRIBUTE, KEYS_BY_ACCOUNT_INDEX, LINKS_BY_DOMAIN_INDEX, LINKS_BY_HEALTH_DUE_INDEX, LINKS_BY_OWNER_INDEX, MEMBERS_BY_USER_INDEX } from '../functions/shared/config';
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
  /**
   * The unique-visitor sketches' salts (issue 30): one random value per UTC day, removed once its day is over. No
   * stream and no backups, unlike the usage table: a salt must outlive its day nowhere.
   */
  readonly visitorSalts: Table;
  /**
   * Imports (issue 31, adapters/dynamo-import-store.ts): each job (`job#<id>` / `job`, its chunks `chunk#<n>` and their
   * results `result#<n>`, TTL 90 days), each workspace's jobs newest last (`ws#<id>` / `<ISO time>#<jobId>`), and the
   * marker of every imported link (`mark#<workspace>` / `<source>#<id hash>`, kept as long as the link may be).
   */
  readonly imports: Table;
  /**
   * Link health (issue 31, adapters/dynamo-url-checks.ts): each checked URL's latest observation and the claim on its
   * next check (`url#<sha256>`, TTL 3 days), and each host's seconds taken (`slot#<host>#<second>`, TTL a minute).
   */
  readonly linkHealth: Table;

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
    // Health checks by due time (issue 31): sparse (only checked, active links), keys only, spread over shards.
    this.links.addGlobalSecondaryIndex({
      indexName: LINKS_BY_HEALTH_DUE_INDEX,
      partitionKey: { name: HEALTH_SHARD_ATTRIBUTE, type: AttributeType.STRING },
      sortKey: { name: HEALTH_DUE_ATTRIBUTE, type: AttributeType.NUMBER },
      projectionType: ProjectionType.KEYS_ONLY,
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
    this.visitorSalts = new Table(this, 'VisitorSalts', {
      ...common,
      partitionKey: { name: 'day', type: AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.visitorSalts).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason: 'Daily salts must be unrecoverable once their day is over: a backup would keep them for 35 days.',
    });
    this.imports = new Table(this, 'Imports', {
      ...common,
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
    });
    this.linkHealth = new Table(this, 'LinkHealth', {
      ...common,
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.linkHealth).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason: 'A day of URL checks and a minute of host slots: losing them costs one more check of each URL, which the links keep the result of.',
    });
    this.accounts = new Table(this, 'Accounts', { ...common, partitionKey: { name: 'accountId', type: AttributeType.STRING } });
    this.aliasOverrides = new Table(this, 'AliasOverrides', {
      ...common,
      partitionKey: { name: 'alias', type: AttributeType.STRING },
      sortKey: { name: 'keyId', type: AttributeType.STRING },
    });
  }
}
