import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SSMClient } from '@aws-sdk/client-ssm';
import { SQSClient } from '@aws-sdk/client-sqs';
import { KMSClient } from '@aws-sdk/client-kms';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { reportOutages, TRANSPORT_LIMITS } from './outages';

/**
 * One client of each kind per container, built on first use so a function that never reads SSM never pays
 * for the SSM client. The SDK keeps sockets alive by default; TRANSPORT_LIMITS bound how long a hung
 * dependency can hold a request.
 */
let dynamoClient: DynamoDBClient | undefined;
let documentClient: DynamoDBDocumentClient | undefined;
let ssmClient: SSMClient | undefined;
let sqsClient: SQSClient | undefined;
let kmsClient: KMSClient | undefined;
let sesClient: SESv2Client | undefined;

/** The plain client, for libraries that bring their own marshalling (Powertools' idempotency store). */
export function dynamoPlain(): DynamoDBClient {
  dynamoClient ??= reportOutages(new DynamoDBClient(TRANSPORT_LIMITS));
  return dynamoClient;
}

export function dynamo(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(dynamoPlain(), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function ssm(): SSMClient {
  ssmClient ??= reportOutages(new SSMClient(TRANSPORT_LIMITS));
  return ssmClient;
}

export function sqs(): SQSClient {
  // The client's endpoint, not the queue URL's host: the same on AWS, and a local run's stand-in gets the calls.
  sqsClient ??= reportOutages(new SQSClient({ ...TRANSPORT_LIMITS, useQueueUrlAsEndpoint: false }));
  return sqsClient;
}

export function kms(): KMSClient {
  kmsClient ??= reportOutages(new KMSClient(TRANSPORT_LIMITS));
  return kmsClient;
}

export function sesv2(): SESv2Client {
  sesClient ??= reportOutages(new SESv2Client(TRANSPORT_LIMITS));
  return sesClient;
}
