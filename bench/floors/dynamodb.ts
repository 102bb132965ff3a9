import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** The cold-start floor of a function that only talks to DynamoDB. */
export const client = new DynamoDBClient({});
