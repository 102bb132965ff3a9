import { Match, Template } from 'aws-cdk-lib/assertions';
import { THRESHOLDS } from '../../lib/monitoring';
import { buildStack } from './app-factory';

const template = Template.fromStack(buildStack({ stage: 'prod', alarmEmail: 'oncall@example.com' }).stack);
const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties as Record<string, unknown>);
const topicId = Object.keys(template.findResources('AWS::SNS::Topic'))[0] as string;

function alarmWith(match: (alarm: Record<string, unknown>) => boolean): Record<string, unknown> {
  const found = alarms.filter(match);
  if (found.length !== 1) throw new Error(`expected one matching alarm, found ${found.length}`);
  return found[0] as Record<string, unknown>;
}

const metricNamed = (namespace: string, name: string) => (alarm: Record<string, unknown>) => alarm.Namespace === namespace && alarm.MetricName === name;
const serviceOf = (functionName: string) => (alarm: Record<string, unknown>) =>
  JSON.stringify(alarm.Dimensions ?? alarm.Metrics).includes(functionName);

describe('alarms', () => {
  it('all notify the alarm topic, which emails the address from context', () => {
    expect(alarms.length).toBe(81);
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com', TopicArn: { Ref: topicId } });
  });

  it('watch the share of API answers that are 5xx', () => {
    expect(alarmWith(metricNamed('AWS/ApiGateway', '5XXError'))).toMatchObject({ Statistic: 'Average', Threshold: THRESHOLDS.api5xxRate, Period: 300 });
  });

  it.each(['CreateFunction', 'BatchFunction', 'LinksFunction', 'QrFunction', 'MeFunction', 'RedirectFunction', 'AuthorizerFunction', 'KeysFunction', 'SsoFunction', 'AggregatorFunction', 'DomainsFunction', 'DomainWorkerFunction', 'WebhooksFunction', 'WebhookEventsFunction', 'WebhookDelivererFunction', 'WorkspaceFunction', 'AuditFunction', 'AuditEventsFunction'])('watch errors and throttles of %s', (functionId) => {
    const errors = alarms.filter((alarm) => alarm.MetricName === 'Errors' && JSON.stringify(alarm.Dimensions).includes(functionId));
    const throttles = alarms.filter((alarm) => alarm.MetricName === 'Throttles' && JSON.stringify(alarm.Dimensions).includes(functionId));
    expect(errors.map((alarm) => alarm.Threshold)).toEqual([THRESHOLDS.functionErrors]);
    expect(throttles.map((alarm) => alarm.Threshold)).toEqual([THRESHOLDS.functionThrottles]);
  });

  it.each(['DataLinks', 'DataApiKeys', 'DataAccounts', 'DataUsage', 'DataAliasOverrides', 'DataClickStats', 'DataDomains', 'DataWebhooks', 'DataAuditLog'])('watch throttled requests and system errors of %s', (tableId) => {
    const ofTable = alarms.filter((alarm) => JSON.stringify(alarm.Metrics ?? []).includes(tableId));
    const metricNames = ofTable.map((alarm) => JSON.stringify(alarm.Metrics).match(/"MetricName":"(ThrottledRequests|SystemErrors)"/)?.[1]).sort();
    expect(metricNames).toEqual(['SystemErrors', 'ThrottledRequests']);
    expect(ofTable.map((alarm) => alarm.Threshold)).toEqual([THRESHOLDS.tableThrottles, THRESHOLDS.tableSystemErrors]);
  });

  it('watch the domain schedule: runs EventBridge could not start', () => {
    const alarm = alarmWith(metricNamed('AWS/Events', 'FailedInvocations'));
    expect(alarm.Threshold).toBe(THRESHOLDS.domainScheduleFailures);
    expect(JSON.stringify(alarm.Dimensions)).toContain('CustomDomainsSchedule');
  });

  it('watch the authorizer\'s error rate', () => {
    const alarm = alarmWith((candidate) => JSON.stringify(candidate.Metrics ?? []).includes('100 * errors / MAX([invocations, 1])'));
    expect(alarm.Threshold).toBe(THRESHOLDS.authorizerErrorPercent);
    expect(serviceOf('AuthorizerFunction')(alarm)).toBe(true);
  });

  it('watch how long clicks wait to be counted, and deliveries given up on', () => {
    const lag = alarmWith((candidate) => JSON.stringify(candidate).includes('"ClickDeliveryLag"'));
    expect(lag.Threshold).toBe(THRESHOLDS.clickDeliveryLagMs);
    expect(JSON.stringify(lag)).toContain('"Maximum"');
    expect(alarmWith((candidate) => JSON.stringify(candidate).includes('ApproximateNumberOfMessagesVisible') && JSON.stringify(candidate).includes('ClicksDeadLetters')).Threshold).toBe(THRESHOLDS.clickDeadLetters);
  });

  it('watch the safety check\'s failures, from the functions\' own metrics', () => {
    const alarm = alarmWith((candidate) => JSON.stringify(candidate.Metrics ?? []).includes('SafetyCheckFailures'));
    expect(alarm.Threshold).toBe(THRESHOLDS.safetyCheckFailures);
    expect(JSON.stringify(alarm.Metrics)).toContain('"Namespace":"UrlShortener"');
  });
});

describe('the dashboard', () => {
  it('shows API, links, rejections and function figures', () => {
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardBody: Match.anyValue() });
    const body = JSON.stringify(Object.values(template.findResources('AWS::CloudWatch::Dashboard'))[0]);
    for (const title of ['API requests and errors', 'Links', 'Rejections', 'Clicks counted and delivery lag (max ms)', 'Function duration (p99)']) expect(body).toContain(title);
  });
});

describe('webhook alarms', () => {
  it('watch failed attempts, the oldest waiting task, and both dead-letter queues', () => {
    expect(alarmWith((candidate) => JSON.stringify(candidate).includes('"WebhookDeliveryFailures"')).Threshold).toBe(THRESHOLDS.webhookDeliveryFailures);
    const oldest = alarmWith((candidate) => metricNamed('AWS/SQS', 'ApproximateAgeOfOldestMessage')(candidate) && JSON.stringify(candidate.Dimensions).includes('WebhooksDeliveries'));
    expect(oldest.Threshold).toBe(THRESHOLDS.webhookOldestTaskSeconds);
    for (const queue of ['WebhooksDeliveryDeadLetters', 'WebhooksStreamDeadLetters']) {
      expect(alarmWith((candidate) => JSON.stringify(candidate).includes('ApproximateNumberOfMessagesVisible') && JSON.stringify(candidate.Dimensions).includes(queue)).Threshold).toBe(THRESHOLDS.webhookDeadLetters);
    }
  });
});

describe('audit log alarms', () => {
  it('watch the dead-letter queue of the links stream\'s audit recorder', () => {
    expect(alarmWith((candidate) => JSON.stringify(candidate).includes('ApproximateNumberOfMessagesVisible') && JSON.stringify(candidate.Dimensions).includes('AuditStreamDeadLetters')).Threshold).toBe(THRESHOLDS.auditDeadLetters);
  });
});

describe('import alarms (issue 31)', () => {
  it('watch the oldest waiting chunk and the dead-letter queue', () => {
    const oldest = alarmWith((candidate) => metricNamed('AWS/SQS', 'ApproximateAgeOfOldestMessage')(candidate) && JSON.stringify(candidate.Dimensions).includes('ImportsChunks'));
    expect(oldest.Threshold).toBe(THRESHOLDS.importOldestChunkSeconds);
    expect(alarmWith((candidate) => JSON.stringify(candidate).includes('ApproximateNumberOfMessagesVisible') && JSON.stringify(candidate.Dimensions).includes('ImportsChunkDeadLetters')).Threshold).toBe(THRESHOLDS.importDeadLetters);
  });
});

describe('functions', () => {
  it('emit their metrics under one namespace', () => {
    template.resourcePropertiesCountIs('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ POWERTOOLS_METRICS_NAMESPACE: 'UrlShortener' }) } }, 23);
  });
});

describe('link health alarms (issue 31)', () => {
  it('watch the oldest link waiting for its check and the dead-letter queue', () => {
    const oldest = alarmWith((candidate) => metricNamed('AWS/SQS', 'ApproximateAgeOfOldestMessage')(candidate) && JSON.stringify(candidate.Dimensions).includes('LinkHealthChecks'));
    expect(oldest.Threshold).toBe(THRESHOLDS.healthOldestCheckSeconds);
    expect(alarmWith((candidate) => JSON.stringify(candidate).includes('ApproximateNumberOfMessagesVisible') && JSON.stringify(candidate.Dimensions).includes('LinkHealthCheckDeadLetters')).Threshold).toBe(
      THRESHOLDS.healthDeadLetters,
    );
  });
});
