import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SSMClient } from '@aws-sdk/client-ssm';

/**
 * One client of each kind per container, built on first use so a function that never reads SSM never pays
 * for the SSM client. The SDK keeps sockets alive by default; retries stay at the SDK's standard 3.
 */
let documentClient: DynamoDBDocumentClient | undefined;
let ssmClient: SSMClient | undefined;

export function dynamo(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function ssm(): SSMClient {
  ssmClient ??= new SSMClient({});
  return ssmClient;
}
