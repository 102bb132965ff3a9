import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SSMClient } from '@aws-sdk/client-ssm';

/** The cold-start floor of a function that talks to DynamoDB and reads SSM parameters. */
export const dynamodb = new DynamoDBClient({});
export const ssm = new SSMClient({});
