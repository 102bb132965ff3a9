import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { TableSpec } from './template';

/** Amazon's DynamoDB Local, as shipped inside the amplify-dynamodb-simulator package. */
const EMULATOR_DIR = path.join(path.dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');

export interface DynamoDbLocalOptions {
  port: number;
  /** Undefined keeps data in memory only. */
  dataDir?: string;
}

export class DynamoDbLocal {
  private process?: ChildProcess;
  readonly endpoint: string;

  constructor(private readonly options: DynamoDbLocalOptions) {
    this.endpoint = `http://127.0.0.1:${options.port}`;
  }

  client(): DynamoDBClient {
    return new DynamoDBClient({ endpoint: this.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  }

  async start(): Promise<void> {
    const storage = this.options.dataDir ? ['-dbPath', this.options.dataDir] : ['-inMemory'];
    if (this.options.dataDir) mkdirSync(this.options.dataDir, { recursive: true });
    // -disableTelemetry: DynamoDB Local otherwise reports usage to AWS in the background; a developer's machine and
    // CI send nothing anywhere (and have no route out to, here).
    const java = spawn(
      'java',
      [`-Djava.library.path=${path.join(EMULATOR_DIR, 'DynamoDBLocal_lib')}`, '-jar', path.join(EMULATOR_DIR, 'DynamoDBLocal.jar'), '-port', String(this.options.port), '-sharedDb', '-disableTelemetry', ...storage],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.process = java;
    // Should this process die without a clean stop, java must not outlive it.
    process.once('exit', () => java.kill('SIGKILL'));
    let stderr = '';
    java.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const exited = new Promise<never>((_, reject) => {
      java.once('exit', (code) => reject(new Error(`DynamoDB Local exited with ${code}: ${stderr.trim()}`)));
      java.once('error', (error) =>
        reject(new Error(`could not run java (${error.message}): DynamoDB Local needs Java 17, e.g. apt-get install openjdk-17-jre-headless`)),
      );
    });
    await Promise.race([exited, this.waitUntilReady()]);
  }

  private async waitUntilReady(): Promise<void> {
    const client = this.client();
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not start: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  /**
   * Creates each table the template declares (keeping existing ones and their data), turns on its TTL, and adds
   * the indexes and stream a kept table from an older template lacks, as CloudFormation would on deploy.
   */
  async ensureTables(tables: readonly TableSpec[]): Promise<void> {
    const client = this.client();
    for (const table of tables) {
      try {
        await client.send(
          new CreateTableCommand({
            TableName: table.name,
            KeySchema: table.keySchema,
            AttributeDefinitions: table.attributeDefinitions,
            BillingMode: 'PAY_PER_REQUEST',
            ...(table.globalSecondaryIndexes.length > 0 ? { GlobalSecondaryIndexes: table.globalSecondaryIndexes } : {}),
            ...(table.streamViewType ? { StreamSpecification: { StreamEnabled: true, StreamViewType: table.streamViewType } } : {}),
          }),
        );
        if (table.ttlAttribute) {
          await client.send(
            new UpdateTimeToLiveCommand({ TableName: table.name, TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true } }),
          );
        }
      } catch (error) {
        if (!(error instanceof ResourceInUseException)) throw error;
        await this.addMissingIndexes(client, table);
      }
    }
  }

  private async addMissingIndexes(client: DynamoDBClient, table: TableSpec): Promise<void> {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: table.name }));
    if (table.streamViewType && !Table?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: table.name, StreamSpecification: { StreamEnabled: true, StreamViewType: table.streamViewType } }));
    }
    const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    for (const index of table.globalSecondaryIndexes.filter((candidate) => !existing.has(candidate.IndexName))) {
      await client.send(
        new UpdateTableCommand({ TableName: table.name, AttributeDefinitions: table.attributeDefinitions, GlobalSecondaryIndexUpdates: [{ Create: index }] }),
      );
    }
  }

  /** Waits for java to be gone, so nothing outlives the local stack; SIGKILL if it dawdles. */
  async stop(): Promise<void> {
    const java = this.process;
    if (!java || java.exitCode !== null || java.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => java.once('exit', () => resolve()));
    java.kill('SIGTERM');
    const timer = setTimeout(() => java.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
