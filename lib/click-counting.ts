import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { FilterPattern, SubscriptionFilter } from 'aws-cdk-lib/aws-logs';
import { LambdaDestination } from 'aws-cdk-lib/aws-logs-destinations';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EnvNames } from '../functions/shared/config';
import { CLICK_LOG_MESSAGE } from '../functions/shared/http/click-report';
import type { DataTables } from './data-tables';
import { ServiceFunction } from './service-function';

export interface ClickCountingProps {
  /** The function whose log group carries the click lines (the redirect). */
  source: ServiceFunction;
  tables: Pick<DataTables, 'links' | 'clickStats'>;
  removalPolicy: RemovalPolicy;
}

/**
 * Clicks are counted off the visitor's path: the redirect writes one line per click to its log, a subscription
 * filter on that log group delivers the lines in batches to the aggregator, which adds them up. A delivery that
 * fails is retried twice by Lambda, then kept in a dead-letter queue (alarmed), so no batch is lost unseen.
 */
export class ClickCounting extends Construct {
  readonly aggregator: ServiceFunction;
  readonly deadLetters: Queue;

  constructor(scope: Construct, id: string, props: ClickCountingProps) {
    super(scope, id);
    this.aggregator = new ServiceFunction(scope, 'AggregatorFunction', {
      name: 'aggregator',
      description: 'Adds up the click lines of the redirect function\'s log',
      removalPolicy: props.removalPolicy,
    });
    this.aggregator
      // It adds to a link's click and bot totals and touches nothing else of it (dynamo-click-stats.ts).
      .bindTable(props.tables.links, EnvNames.linksTable, ['UpdateItem'], { onlyAttributes: ['code', 'clicks', 'bots'] })
      // GetItem: a day's unique-visitor sketch is read before it is merged and written back (issue 30).
      .bindTable(props.tables.clickStats, EnvNames.clickStatsTable, ['GetItem', 'PutItem', 'UpdateItem']);

    this.deadLetters = new Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(this.deadLetters).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is the dead-letter queue of the click aggregator.' });
    this.aggregator.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.hours(6), onFailure: new SqsDestination(this.deadLetters) });

    const logGroup = props.source.logGroup;
    new SubscriptionFilter(this, 'ClickLines', {
      logGroup,
      destination: new LambdaDestination(this.aggregator),
      filterPattern: FilterPattern.stringValue('$.message', '=', CLICK_LOG_MESSAGE),
    });
  }
}
