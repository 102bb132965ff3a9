import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** The cold-start floor of the domain worker: DynamoDB, and CloudFront's tenants. */
export const clients = [new DynamoDBClient({}), new CloudFrontClient({})];
