import { kms, sqs, dynamo } from './adapters/clients';
import { KmsSecretSealer } from './adapters/kms-secret-sealer';
import { DynamoWebhookStore } from './adapters/dynamo-webhook-store';
import { SqsDeliveryQueue } from './adapters/sqs-delivery-queue';
import { config } from './config';
import { parseLocalAllowList } from './domain/webhooks/address-policy';

/** The webhook functions' adapters (issue 19), apart from wiring.ts so no other bundle carries the SQS client. */
export const webhookStore = () => new DynamoWebhookStore(dynamo(), config.table('webhooksTable'));
/** The webhooks API's store: an owner's changes write their audit records in the same transaction. */
export const auditedWebhookStore = () => new DynamoWebhookStore(dynamo(), config.table('webhooksTable'), config.table('auditTable'));
export const deliveryQueue = () => new SqsDeliveryQueue(sqs(), config.deliveryQueueUrl());
export const secretSealer = () => new KmsSecretSealer(kms(), config.webhookSecretsKey());
export const localReceivers = () => parseLocalAllowList(config.localWebhookAllow());
