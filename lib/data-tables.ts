import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, type TableProps } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

export interface DataTablesProps {
  /** Production tables refuse deletion; every stage retains its data when the stack goes. */
  deletionProtection: boolean;
}

/** The service's state: links, API keys, usage counters and reserved-alias overrides. */
export class DataTables extends Construct {
  /** Keyed by short code; TTL `ttl` removes expired links (reads also check expiry, TTL can lag). */
  readonly links: Table;
  /** Keyed by the SHA-256 of the key: the key itself is never stored. */
  readonly apiKeys: Table;
  /** Rate windows, monthly quotas and password attempts, each removing itself through TTL. */
  readonly usage: Table;
  /** (alias, keyId) pairs an operator allowed to use a reserved alias. */
  readonly aliasOverrides: Table;

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
    });
    this.apiKeys = new Table(this, 'ApiKeys', { ...common, partitionKey: { name: 'keyHash', type: AttributeType.STRING } });
    this.usage = new Table(this, 'Usage', {
      ...common,
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
    });
    this.aliasOverrides = new Table(this, 'AliasOverrides', {
      ...common,
      partitionKey: { name: 'alias', type: AttributeType.STRING },
      sortKey: { name: 'keyId', type: AttributeType.STRING },
    });
  }
}
