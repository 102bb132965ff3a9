import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EnvNames, HEALTH_DUE_ATTRIBUTE, HEALTH_SHARD_ATTRIBUTE, LINKS_BY_HEALTH_DUE_INDEX } from '../functions/shared/config';
import type { DataTables } from './data-tables';
import { ServiceFunction } from './service-function';

export interface LinkHealthProps {
  tables: Pick<DataTables, 'links' | 'linkHealth'>;
  removalPolicy: RemovalPolicy;
}

/** How often the schedule queues the links due: each is due 24 hours after its check, so an hour late at most. */
export const HEALTH_SCHEDULE_MINUTES = 60;
/** A link is offered this many times when the worker itself fails on it, then kept in the dead-letter queue. */
export const HEALTH_CHECK_RECEIVES = 5;
/** Waits for a host's second (10 s at most, twice) and two 10 s requests per destination, destinations side by side. */
const WORKER_TIMEOUT_SECONDS = 90;
/** At most this many batches at once across the service: the checks are background work. */
const WORKER_MAX_CONCURRENCY = 5;

/**
 * Link health (issue 31). One function, two ways in: the hourly schedule queues the links whose check is due (the
 * links table's sparse due index), and the queue's links are checked (each destination once a day, whichever link
 * asks first, one request per host per second through the link health table's slots). New links and changed
 * destinations are queued by the links stream's router (webhooks.ts: a table stream serves two readers well, a
 * third would be throttled). The worker writes `health` on the link; the same router turns a flip of it into
 * link.broken or link.recovered.
 */
export class LinkHealth extends Construct {
  readonly worker: ServiceFunction;
  readonly queue: Queue;
  readonly deadLetters: Queue;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: LinkHealthProps) {
    super(scope, id);
    const { tables } = props;
    this.deadLetters = new Queue(this, 'CheckDeadLetters', { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
    Validations.of(this.deadLetters).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is the dead-letter queue of the link health queue.' });
    this.queue = new Queue(this, 'Checks', {
      retentionPeriod: Duration.days(4),
      visibilityTimeout: Duration.seconds(WORKER_TIMEOUT_SECONDS * 6),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: HEALTH_CHECK_RECEIVES },
    });
    this.worker = new ServiceFunction(scope, 'LinkHealthFunction', {
      name: 'link-health',
      description: 'Checks links\' destinations when they change and daily: HEAD (or GET), one request per host per second',
      timeoutSeconds: WORKER_TIMEOUT_SECONDS,
      environment: { [EnvNames.healthQueueUrl]: this.queue.queueUrl },
      removalPolicy: props.removalPolicy,
    });
    this.worker
      .bindTable(tables.linkHealth, EnvNames.linkHealthTable, ['GetItem', 'PutItem', 'UpdateItem'])
      .bindTable(tables.links, EnvNames.linksTable, ['GetItem'])
      .bindTable(tables.links, EnvNames.linksTable, ['Query'], { queriedIndex: LINKS_BY_HEALTH_DUE_INDEX });
    // Its one write to links: health and the due index's keys, never the link's own fields (dynamo-health-links.ts).
    this.worker.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [tables.links.tableArn],
        conditions: {
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['code', 'health', HEALTH_DUE_ATTRIBUTE, HEALTH_SHARD_ATTRIBUTE] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
        },
      }),
    );
    this.worker.addEventSource(new SqsEventSource(this.queue, { batchSize: 5, reportBatchItemFailures: true, maxConcurrency: WORKER_MAX_CONCURRENCY }));
    // It sends back links whose host is booked up, and the schedule's due links.
    this.queue.grantSendMessages(this.worker);
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Link health: queue the links whose daily check is due',
      schedule: Schedule.rate(Duration.minutes(HEALTH_SCHEDULE_MINUTES)),
      targets: [new LambdaFunction(this.worker, { retryAttempts: 0 })],
    });
  }

  /** A producer of checks (the links stream's router): the queue's URL and the right to send to it, nothing else. */
  grantQueueing(fn: ServiceFunction): void {
    fn.addEnvironment(EnvNames.healthQueueUrl, this.queue.queueUrl);
    this.queue.grantSendMessages(fn);
  }
}
