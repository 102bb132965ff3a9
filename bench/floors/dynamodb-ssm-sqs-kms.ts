import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';

/** The cold-start floor of a webhook function that also seals or opens secrets with KMS (issue 27). */
export const dynamodb = new DynamoDBClient({});
export const ssm = new SSMClient({});
export const sqs = new SQSClient({});
export const kms = new KMSClient({});
