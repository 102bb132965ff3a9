import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';

/** The cold-start floor of a function that talks to DynamoDB, reads SSM parameters and sends to SQS (issue 19). */
export const dynamodb = new DynamoDBClient({});
export const ssm = new SSMClient({});
export const sqs = new SQSClient({});
