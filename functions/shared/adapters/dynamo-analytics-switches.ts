import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { switchesOf, type AnalyticsSwitches } from '../domain/analytics/analytics-switches';
import type { AnalyticsSwitchesSource } from '../domain/ports';

/**
 * A workspace's analytics switches on its account record, as the aggregator reads them: that one attribute,
 * eventually consistent (the aggregator trusts what it read for seconds anyway). No record: everything records.
 */
export class DynamoAnalyticsSwitches implements AnalyticsSwitchesSource {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly accountsTable: string,
  ) {}

  async switchesOf(workspaceId: string): Promise<AnalyticsSwitches> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.accountsTable, Key: { accountId: workspaceId }, ProjectionExpression: 'accountId, analytics' }));
    return switchesOf(Item?.analytics);
  }
}
