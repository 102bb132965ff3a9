import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { EnvNames } from '../functions/shared/config';
import { WEBHOOK_DELIVERER_MAX_CONCURRENCY } from './capacity';
import type { DataTables } from './data-tables';
import { ServiceFunction } from './service-function';

export interface WebhooksProps {
  tables: Pick<DataTables, 'webhooks' | 'links' | 'usage' | 'accounts'>;
  /** What the API function needs to be an API function (flags, upgrade URL, safety check). */
  apiEnvironment: Record<string, string>;
  /** Where link views get their short URLs (read by name: see parameter-grants.ts). */
  shortBaseUrlEnvironment: Record<string, string>;
  /** The router's reserved concurrency, its ceiling (capacity.ts); undefined leaves it unreserved (small accounts). */
  routerConcurrency?: number | undefined;
  removalPolicy: RemovalPolicy;
}

/** Receives a task again this many times when the deliverer itself fails on it, then keeps it in the dead-letter queue. */
export const DELIVERY_RECEIVES = 5;
/** The deliverer's limit: attempts started within 12 s, the last one's 10 s and bookkeeping (webhook-delivery.ts). */
const DELIVERER_TIMEOUT_SECONDS = 30;

/**
 * Webhooks (issue 19). Events come from committed changes only: the links table's stream (created, updated, deleted,
 * disabled, enabled, used-up, expiry scheduled, TTL removal), the usage table's stream (quota crossings, monthly
 * counters only) and the aggregator (clicks). The router turns them into one task per subscribed webhook on the
 * delivery queue; the deliverer signs and sends each, and sends failures back with the retry schedule's delay.
 * Waits longer than SQS's 15-minute maximum are hops: a task that surfaces early goes back with the rest of its wait,
 * so the 24-hour steps hold on SQS alone, and each hop is a new message (the 14-day retention never runs out).
 */
export class Webhooks extends Construct {
  readonly api: ServiceFunction;
  readonly router: ServiceFunction;
  readonly deliverer: ServiceFunction;
  readonly queue: Queue;
  readonly deliveryDeadLetters: Queue;
  readonly streamDeadLetters: Queue;
  /** Seals the signing secrets (envelope encryption, kms-secret-sealer.ts): the table keeps only ciphertext. */
  readonly secretsKey: Key;
  /** What a producer of events (the aggregator) needs in its environment. */
  readonly producerEnvironment: Record<string, string>;

  private readonly webhooksTableArn: string;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    const { tables } = props;
    this.webhooksTableArn = tables.webhooks.tableArn;
    const deadLetterQueue = (name: string, reason: string) => {
      const queue = new Queue(this, name, { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
      Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason });
      return queue;
    };
    this.deliveryDeadLetters = deadLetterQueue('DeliveryDeadLetters', 'This queue is the dead-letter queue of the webhook delivery queue.');
    this.streamDeadLetters = deadLetterQueue('StreamDeadLetters', 'Stream batches the event router failed on: their positions, for replay.');
    this.queue = new Queue(this, 'Deliveries', {
      retentionPeriod: Duration.days(14),
      visibilityTimeout: Duration.seconds(DELIVERER_TIMEOUT_SECONDS * 6),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deliveryDeadLetters, maxReceiveCount: DELIVERY_RECEIVES },
    });
    this.producerEnvironment = { [EnvNames.deliveryQueueUrl]: this.queue.queueUrl };
    this.secretsKey = new Key(this, 'SecretsKey', {
      description: 'Webhook signing secrets: the data keys that seal them in the webhooks table',
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
    });
    const secretsEnvironment = { [EnvNames.webhookSecretsKey]: this.secretsKey.keyArn };

    this.api = new ServiceFunction(scope, 'WebhooksFunction', {
      name: 'webhooks',
      description: '/v2/webhooks...: accounts adding, testing and reading their webhooks',
      environment: { ...props.apiEnvironment, ...this.producerEnvironment, ...secretsEnvironment },
      removalPolicy: props.removalPolicy,
    });
    this.api.bindTable(tables.webhooks, EnvNames.webhooksTable, ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query']);
    // The API seals new secrets and never opens one; the deliverer opens them and never seals.
    this.grantSecrets(this.api, 'kms:GenerateDataKey');

    this.router = new ServiceFunction(scope, 'WebhookEventsFunction', {
      name: 'webhook-events',
      description: 'The links and usage tables\' streams, turned into webhook deliveries',
      environment: { ...this.producerEnvironment, ...props.shortBaseUrlEnvironment, [EnvNames.flagsPrefix]: props.apiEnvironment[EnvNames.flagsPrefix] as string },
      reservedConcurrentExecutions: props.routerConcurrency,
      removalPolicy: props.removalPolicy,
    });
    this.router
      .bindTable(tables.webhooks, EnvNames.webhooksTable, ['Query'])
      .bindTable(tables.accounts, EnvNames.accountsTable, ['GetItem'])
      // Only its name: the stream's records carry the items, nothing is read from the table.
      .addEnvironment(EnvNames.linksTable, tables.links.tableName);
    const streamOptions = {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      maxBatchingWindow: Duration.millis(0),
      bisectBatchOnError: true,
      retryAttempts: 10,
      onFailure: new SqsDlq(this.streamDeadLetters),
    };
    this.router.addEventSource(new DynamoEventSource(tables.links, streamOptions));
    // Every API call writes a usage counter: only the monthly quota counters reach the router.
    this.router.addEventSource(
      new DynamoEventSource(tables.usage, { ...streamOptions, filters: [FilterCriteria.filter({ dynamodb: { Keys: { pk: { S: FilterRule.beginsWith('quota#') } } } })] }),
    );

    Validations.of(this.router.role ?? this.router).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'dynamodb:ListStreams, which the stream event source adds, has no resource-level permissions; the stream reads themselves name the two streams.',
    });

    this.deliverer = new ServiceFunction(scope, 'WebhookDelivererFunction', {
      name: 'webhook-deliverer',
      description: 'Signs and sends webhook deliveries, retried on the Standard Webhooks schedule',
      timeoutSeconds: DELIVERER_TIMEOUT_SECONDS,
      environment: { ...this.producerEnvironment, ...props.shortBaseUrlEnvironment, ...secretsEnvironment },
      removalPolicy: props.removalPolicy,
    });
    this.grantSecrets(this.deliverer, 'kms:Decrypt');
    this.deliverer
      .bindTable(tables.webhooks, EnvNames.webhooksTable, ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'])
      .bindTable(tables.links, EnvNames.linksTable, ['GetItem']);
    // Its ceiling: however many webhooks are slow and however many clicks arrive, at most this many batches at once.
    this.deliverer.addEventSource(new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: WEBHOOK_DELIVERER_MAX_CONCURRENCY }));
    for (const fn of [this.api, this.router, this.deliverer]) this.queue.grantSendMessages(fn);
  }

  /** One KMS action on the secrets' key, only with a webhook's id as the encryption context (nothing else sealed with it). */
  private grantSecrets(fn: ServiceFunction, action: 'kms:GenerateDataKey' | 'kms:Decrypt'): void {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [action],
        resources: [this.secretsKey.keyArn],
        conditions: { 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['webhookId'] }, Null: { 'kms:EncryptionContextKeys': 'false' } },
      }),
    );
  }

  /**
   * What the producer of `link.clicked` (the aggregator; the router's events are never clicks) needs to number a
   * webhook's clicks in its backlog (event-fanout.ts): one attribute added to, its new value read back, nothing else
   * of the webhook's item named or returned.
   */
  grantClickCounting(fn: ServiceFunction): void {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [this.webhooksTableArn],
        conditions: {
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'clickSeq'] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': 'UPDATED_NEW' },
        },
      }),
    );
  }
}
