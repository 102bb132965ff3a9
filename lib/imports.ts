import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DOMAINS_BY_OWNER_INDEX, EnvNames } from '../functions/shared/config';
import { IMPORT_CHUNK_RECEIVES } from '../functions/shared/domain/imports/import-job';
import type { DataTables } from './data-tables';
import { ServiceFunction } from './service-function';

export interface ImportsProps {
  tables: Pick<DataTables, 'imports' | 'links' | 'domains' | 'usage'>;
  /** What a guarded API function needs (flags, upgrade URL). */
  apiEnvironment: Record<string, string>;
  removalPolicy: RemovalPolicy;
}

/** Fifty rows, each one transaction: seconds; the rest is room for a slow table. */
const WORKER_TIMEOUT_SECONDS = 60;
/** At most this many chunks at once across the service: imports never crowd out creation's write capacity. */
const WORKER_MAX_CONCURRENCY = 5;

/**
 * Imports (issue 31): the API reads and maps the file, stores the job and its chunks, and queues one message per
 * chunk; the worker settles each chunk's rows, each link written with its import marker in one transaction, so a
 * chunk offered again after a failure makes no link twice.
 */
export class Imports extends Construct {
  readonly api: ServiceFunction;
  readonly worker: ServiceFunction;
  readonly queue: Queue;
  readonly deadLetters: Queue;

  constructor(scope: Construct, id: string, props: ImportsProps) {
    super(scope, id);
    const { tables } = props;
    this.deadLetters = new Queue(this, 'ChunkDeadLetters', { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
    Validations.of(this.deadLetters).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is the dead-letter queue of the import chunk queue.' });
    this.queue = new Queue(this, 'Chunks', {
      retentionPeriod: Duration.days(14),
      visibilityTimeout: Duration.seconds(WORKER_TIMEOUT_SECONDS * 6),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: IMPORT_CHUNK_RECEIVES },
    });
    const queueEnvironment = { [EnvNames.importQueueUrl]: this.queue.queueUrl };

    this.api = new ServiceFunction(scope, 'ImportsFunction', {
      name: 'imports',
      description: '/v2/imports...: workspaces importing links from other shorteners',
      memorySize: 1024,
      timeoutSeconds: 29,
      environment: { ...props.apiEnvironment, ...queueEnvironment },
      removalPolicy: props.removalPolicy,
    });
    this.api
      .bindTable(tables.imports, EnvNames.importsTable, ['GetItem', 'PutItem', 'Query'])
      .bindTable(tables.domains, EnvNames.domainsTable, ['Query'], { queriedIndex: DOMAINS_BY_OWNER_INDEX })
      .bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem', 'GetItem'])
      // Only its name: the API writes no link (the worker does).
      .addEnvironment(EnvNames.linksTable, tables.links.tableName);
    this.queue.grantSendMessages(this.api);

    this.worker = new ServiceFunction(scope, 'ImportWorkerFunction', {
      name: 'import-worker',
      description: 'Makes the links of queued import chunks, each with its import marker',
      timeoutSeconds: WORKER_TIMEOUT_SECONDS,
      environment: {},
      removalPolicy: props.removalPolicy,
    });
    this.worker
      .bindTable(tables.imports, EnvNames.importsTable, ['GetItem', 'PutItem', 'Query'])
      .bindTable(tables.links, EnvNames.linksTable, ['PutItem'])
      .bindTable(tables.domains, EnvNames.domainsTable, ['Query'], { queriedIndex: DOMAINS_BY_OWNER_INDEX });
    this.worker.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: WORKER_MAX_CONCURRENCY }));
  }
}
