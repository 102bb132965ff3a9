import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EnvNames } from '../functions/shared/config';
import { AUDIT_STAMP_ATTRIBUTE } from '../functions/shared/domain/audit/link-audit';
import type { DataTables } from './data-tables';
import { ServiceFunction } from './service-function';

export interface AuditLogProps {
  tables: Pick<DataTables, 'auditLog' | 'links' | 'usage'>;
  /** What a guarded API function needs (flags, upgrade URL). */
  guardEnvironment: Record<string, string>;
  removalPolicy: RemovalPolicy;
}

/**
 * The audit log (issue 29): every change to a workspace, kept 365 days. Two ways in, one per kind of change:
 * - links: the change carries a stamp (who, what, which request) on the item itself, and this construct's stream
 *   consumer writes the record from the committed change; creating a link costs one attribute, no second write;
 * - everything else (domains, webhooks, keys, people): the record is one more item of the change's own transaction,
 *   granted to those functions by `grantAppend`.
 * The reader only queries; no function has a grant to update or delete a record.
 */
export class AuditLog extends Construct {
  readonly reader: ServiceFunction;
  readonly linkRecorder: ServiceFunction;
  readonly streamDeadLetters: Queue;
  private readonly tables: AuditLogProps['tables'];

  constructor(scope: Construct, id: string, props: AuditLogProps) {
    super(scope, id);
    const { tables } = props;
    this.tables = tables;
    this.reader = new ServiceFunction(scope, 'AuditFunction', {
      name: 'audit',
      description: 'GET /v2/audit-log: a workspace\'s record of every change',
      environment: props.guardEnvironment,
      removalPolicy: props.removalPolicy,
    });
    this.reader.bindTable(tables.auditLog, EnvNames.auditTable, ['Query']).bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem']);

    this.streamDeadLetters = new Queue(this, 'StreamDeadLetters', { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
    Validations.of(this.streamDeadLetters).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'Stream batches the audit recorder failed on: their positions, for replay.' });
    this.linkRecorder = new ServiceFunction(scope, 'AuditEventsFunction', {
      name: 'audit-events',
      description: 'The links table\'s stream, turned into audit records of the changes stamped on its items',
      removalPolicy: props.removalPolicy,
    });
    // Conditional puts only: a record is written once and never changed.
    this.linkRecorder.bindTable(tables.auditLog, EnvNames.auditTable, ['PutItem']);
    this.linkRecorder.addEventSource(
      new DynamoEventSource(tables.links, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.millis(0),
        bisectBatchOnError: true,
        retryAttempts: 10,
        onFailure: new SqsDlq(this.streamDeadLetters),
        // Only changes whose new image carries a stamp can be recorded (link-audit.ts): clicks remove it, so a limited
        // link's visits and the aggregator's counts never invoke the recorder (adapters/audit-items.ts UNSTAMPING).
        filters: [FilterCriteria.filter({ dynamodb: { NewImage: { [AUDIT_STAMP_ATTRIBUTE]: { M: { id: { S: FilterRule.exists() } } } } } })],
      }),
    );
    Validations.of(this.linkRecorder.role ?? this.linkRecorder).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'dynamodb:ListStreams, which the stream event source adds, has no resource-level permissions; the stream reads themselves name the links stream.',
    });
  }

  /** A writer of records in its changes' transactions: puts (conditional, never overwriting) and nothing else. */
  grantAppend(fn: ServiceFunction): void {
    fn.bindTable(this.tables.auditLog, EnvNames.auditTable, ['PutItem']);
  }
}
