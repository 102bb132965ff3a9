import { Duration, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Rule } from 'aws-cdk-lib/aws-events';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE, MetricName } from '../functions/shared/metric-names';

const PERIOD = Duration.minutes(5);

/** Alarm thresholds: one place, read by the alarms and by the tests. */
export const THRESHOLDS = {
  /** Share of API requests answered 5xx (API Gateway's 5XXError averaged). */
  api5xxRate: 0.01,
  functionErrors: 5,
  functionThrottles: 1,
  tableThrottles: 1,
  tableSystemErrors: 1,
  /** Percent of authorizer invocations that fail. */
  authorizerErrorPercent: 1,
  /** Safety lookups that failed (timeout, 5xx) in five minutes. */
  safetyCheckFailures: 5,
  /** Milliseconds the oldest click of a delivery waited to be counted (the API promises 30 s). */
  clickDeliveryLagMs: 30_000,
  /** Click deliveries given up on: any is a loss until replayed. */
  clickDeadLetters: 1,
  /** Scheduled domain runs EventBridge could not start: checks and cleanups wait while they fail. */
  domainScheduleFailures: 1,
  /** Webhook attempts that failed (the endpoint's fault or ours) in five minutes: worth a look, not yet a loss. */
  webhookDeliveryFailures: 100,
  /** Seconds the oldest delivery task has waited: a backlog, since a retry's wait is at most 15 minutes per hop. */
  webhookOldestTaskSeconds: 1_800,
  /** Tasks or stream batches given up on: events that wait in a dead-letter queue until replayed. */
  webhookDeadLetters: 1,
  /** Links-table stream batches the audit recorder gave up on: changes whose records wait to be replayed. */
  auditDeadLetters: 1,
  /** Seconds the oldest import chunk has waited: five workers settle a chunk in seconds, so a backlog this old is a stop. */
  importOldestChunkSeconds: 1_800,
  /** Import chunks given up on after five tries: their rows are not imported until the chunk is replayed. */
  importDeadLetters: 1,
  /** Seconds the oldest link has waited for its check: a host booked up delays its own links only, by minutes. */
  healthOldestCheckSeconds: 6 * 3_600,
  /** Links the health worker failed on five times: their checks stop until replayed (the schedule retries them daily). */
  healthDeadLetters: 1,
} as const;

const TABLE_OPERATIONS = [Operation.GET_ITEM, Operation.PUT_ITEM, Operation.UPDATE_ITEM, Operation.QUERY];

export interface MonitoringProps {
  api: RestApi;
  /** Functions by the service name their metrics carry (POWERTOOLS_SERVICE_NAME). */
  functions: Record<'create' | 'batch' | 'links' | 'qr' | 'me' | 'docs' | 'redirect' | 'authorizer' | 'keys' | 'sso' | 'aggregator' | 'domains' | 'domainWorker' | 'webhooks' | 'webhookEvents' | 'webhookDeliverer' | 'workspace' | 'audit' | 'auditEvents' | 'imports' | 'importWorker' | 'linkHealth', IFunction>;
  /** The webhook delivery queue and the dead-letter queues of deliveries and stream batches. */
  webhookQueues: { deliveries: IQueue; deliveryDeadLetters: IQueue; streamDeadLetters: IQueue };
  /** The import chunk queue and its dead-letter queue (issue 31). */
  importQueues: { chunks: IQueue; deadLetters: IQueue };
  healthQueues: { checks: IQueue; deadLetters: IQueue };
  /** Click deliveries the aggregator failed on three times. */
  clickDeadLetters: IQueue;
  /** Links-table stream batches the audit recorder failed on (their records are not written until replayed). */
  auditDeadLetters: IQueue;
  /** The rule that runs the domain worker every minute. */
  domainSchedule: Rule;
  tables: Record<string, Table>;
  alarmEmail?: string;
}

/** Alarms to an SNS topic (with an email subscription when configured) and a dashboard of the main figures. */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Alarms', { displayName: 'URL shortener alarms', enforceSSL: true });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason: 'Alarm notifications carry no customer data; an AWS-managed key would stop CloudWatch from publishing.',
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    const alarm = (name: string, metric: IMetric, threshold: number, description: string) => {
      const created = new Alarm(this, name, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      created.addAlarmAction(new SnsAction(this.topic));
      return created;
    };

    alarm('Api5xxRate', props.api.metricServerError({ statistic: 'Average', period: PERIOD }), THRESHOLDS.api5xxRate, 'Share of API answers that are 5xx');
    for (const [name, fn] of Object.entries(props.functions)) {
      alarm(`${name}Errors`, fn.metricErrors({ period: PERIOD }), THRESHOLDS.functionErrors, `${name} function errors`);
      alarm(`${name}Throttles`, fn.metricThrottles({ period: PERIOD }), THRESHOLDS.functionThrottles, `${name} function throttles`);
    }
    for (const [name, table] of Object.entries(props.tables)) {
      alarm(`${name}TableThrottles`, table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: PERIOD }), THRESHOLDS.tableThrottles, `${name} table throttled requests`);
      alarm(`${name}TableSystemErrors`, table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: PERIOD }), THRESHOLDS.tableSystemErrors, `${name} table system errors`);
    }
    alarm(
      'AuthorizerErrorRate',
      new MathExpression({
        expression: '100 * errors / MAX([invocations, 1])',
        usingMetrics: { errors: props.functions.authorizer.metricErrors(), invocations: props.functions.authorizer.metricInvocations() },
        period: PERIOD,
        label: 'authorizer error %',
      }),
      THRESHOLDS.authorizerErrorPercent,
      'Share of authorizer invocations that fail (every v2 call depends on it)',
    );
    alarm(
      'SafetyCheckFailures',
      new MathExpression({
        expression: 'create + batch + links',
        usingMetrics: Object.fromEntries((['create', 'batch', 'links'] as const).map((service) => [service, this.custom(MetricName.safetyCheckFailures, service)])),
        period: PERIOD,
        label: 'safety check failures',
      }),
      THRESHOLDS.safetyCheckFailures,
      'The URL safety check timed out or failed: creations are being refused (or let through, if configured)',
    );

    const lag = this.custom(MetricName.clickDeliveryLag, 'aggregator').with({ statistic: 'Maximum' });
    alarm('ClickDeliveryLag', lag, THRESHOLDS.clickDeliveryLagMs, 'Clicks wait too long to be counted: stats lag behind visits');
    const deadLetters = props.clickDeadLetters.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' });
    alarm('ClickDeadLetters', deadLetters, THRESHOLDS.clickDeadLetters, 'Click deliveries failed three times and wait in the dead-letter queue');

    const { deliveries, deliveryDeadLetters, streamDeadLetters } = props.webhookQueues;
    alarm('WebhookDeliveryFailures', this.custom(MetricName.webhookDeliveryFailures, 'webhook-deliverer'), THRESHOLDS.webhookDeliveryFailures, 'Many webhook attempts failed: endpoints down, or the deliverer cannot reach them');
    alarm(
      'WebhookOldestTask',
      deliveries.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
      THRESHOLDS.webhookOldestTaskSeconds,
      'A webhook delivery task has waited over 30 minutes: the deliverer is behind or stopped',
    );
    for (const [name, queue] of [['WebhookDeliveryDeadLetters', deliveryDeadLetters], ['WebhookStreamDeadLetters', streamDeadLetters]] as const) {
      alarm(name, queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }), THRESHOLDS.webhookDeadLetters, 'Webhook events wait in a dead-letter queue: replay them after fixing the cause');
    }

    alarm(
      'AuditStreamDeadLetters',
      props.auditDeadLetters.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
      THRESHOLDS.auditDeadLetters,
      'Links changes wait for their audit records in a dead-letter queue: replay them after fixing the cause',
    );
    alarm(
      'ImportOldestChunk',
      props.importQueues.chunks.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
      THRESHOLDS.importOldestChunkSeconds,
      'An import chunk has waited over 30 minutes: the import worker is behind or stopped',
    );
    alarm(
      'ImportDeadLetters',
      props.importQueues.deadLetters.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
      THRESHOLDS.importDeadLetters,
      'Import chunks failed five times and wait in the dead-letter queue: replay them after fixing the cause (a replay makes no link twice)',
    );

    alarm(
      'HealthOldestCheck',
      props.healthQueues.checks.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
      THRESHOLDS.healthOldestCheckSeconds,
      'A link has waited six hours for its health check: the link health worker is behind or stopped',
    );
    alarm(
      'HealthDeadLetters',
      props.healthQueues.deadLetters.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
      THRESHOLDS.healthDeadLetters,
      'Link health checks failed five times and wait in the dead-letter queue: replay them after fixing the cause',
    );

    const scheduleFailures = new Metric({
      namespace: 'AWS/Events',
      metricName: 'FailedInvocations',
      dimensionsMap: { RuleName: props.domainSchedule.ruleName },
      statistic: 'Sum',
      period: PERIOD,
    });
    alarm('DomainScheduleFailures', scheduleFailures, THRESHOLDS.domainScheduleFailures, 'The domain worker could not be started: pending domains are not checked, removed ones not cleaned up');

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'API requests and errors', left: [props.api.metricCount({ period: PERIOD })], right: [props.api.metricClientError({ period: PERIOD }), props.api.metricServerError({ period: PERIOD })] }),
      new GraphWidget({ title: 'API latency (p50, p99)', left: [props.api.metricLatency({ statistic: 'p50', period: PERIOD }), props.api.metricLatency({ statistic: 'p99', period: PERIOD })] }),
      new GraphWidget({
        title: 'Links',
        left: [this.custom(MetricName.linksCreated, 'create'), this.custom(MetricName.linksCreated, 'batch'), this.custom(MetricName.batchItemsFailed, 'batch')],
        right: [this.custom(MetricName.clicksCounted, 'aggregator').with({ label: 'Redirects (clicks counted)' }), this.custom(MetricName.notFound, 'redirect'), this.custom(MetricName.gone, 'redirect')],
      }),
      new GraphWidget({
        title: 'Rejections',
        left: (['create', 'batch', 'links'] as const).flatMap((service) => [
          this.custom(MetricName.rateLimitRejections, service),
          this.custom(MetricName.quotaRejections, service),
          this.custom(MetricName.safetyRejections, service),
        ]),
        right: [this.custom(MetricName.passwordFailures, 'redirect')],
      }),
      new GraphWidget({ title: 'Clicks counted and delivery lag (max ms)', left: [this.custom(MetricName.clicksCounted, 'aggregator')], right: [lag, deadLetters] }),
      new GraphWidget({ title: 'Function duration (p99)', left: Object.values(props.functions).map((fn) => fn.metricDuration({ statistic: 'p99', period: PERIOD })) }),
      new GraphWidget({ title: 'Function errors', left: Object.values(props.functions).map((fn) => fn.metricErrors({ period: PERIOD })) }),
    );
  }

  private custom(metricName: string, service: string): Metric {
    return new Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap: { service }, statistic: 'Sum', period: PERIOD, label: `${metricName} (${service})` });
  }
}
