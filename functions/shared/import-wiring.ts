import { dynamo, sqs } from './adapters/clients';
import { DynamoImportStore } from './adapters/dynamo-import-store';
import { SqsImportQueue } from './adapters/sqs-import-queue';
import { config } from './config';

/** The import functions' adapters (issue 31), apart from wiring.ts so no other bundle carries them. */
export const importStore = () => new DynamoImportStore(dynamo(), config.table('importsTable'), config.table('linksTable'));
export const importQueue = () => new SqsImportQueue(sqs(), config.importQueueUrl());
