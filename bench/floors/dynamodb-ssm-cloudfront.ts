import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SSMClient } from '@aws-sdk/client-ssm';

/** The cold-start floor of the domains function: an API function (DynamoDB, SSM) that also manages CloudFront tenants. */
export const clients = [new DynamoDBClient({}), new SSMClient({}), new CloudFrontClient({})];
