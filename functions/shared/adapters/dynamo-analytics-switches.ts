import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { switchesOf, type AnalyticsSwitches } from '../domain/analytics/analytics-switches';
import type { AnalyticsSwitchesSource } from '../domain/ports';

/** BatchGetItem's limit of keys a call. */
const KEYS_PER_CALL = 100;
/** Keys DynamoDB left unprocessed (throttling) are asked again this many times before the delivery fails and is retried. */
const ATTEMPTS = 4;

/**
 * Workspaces' analytics switches on their account records, as the aggregator reads them: that one attribute, up to
 * 100 workspaces a call, eventually consistent (the aggregator trusts what it read for seconds anyway). No record:
 * everything records.
 */
export class DynamoAnalyticsSwitches implements AnalyticsSwitchesSource {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly accountsTable: string,
  ) {}

  async switchesOf(workspaceIds: readonly string[]): Promise<Map<string, AnalyticsSwitches>> {
    const found = new Map<string, unknown>();
    for (let start = 0; start < workspaceIds.length; start += KEYS_PER_CALL) {
      let keys: Array<Record<string, unknown>> = workspaceIds.slice(start, start + KEYS_PER_CALL).map((accountId) => ({ accountId }));
      for (let attempt = 1; keys.length > 0; attempt += 1) {
        if (attempt > ATTEMPTS) throw new Error(`${keys.length} workspaces' analytics switches left unread`);
        const { Responses, UnprocessedKeys } = await this.client.send(
          new BatchGetCommand({ RequestItems: { [this.accountsTable]: { Keys: keys, ProjectionExpression: 'accountId, analytics' } } }),
        );
        for (const item of Responses?.[this.accountsTable] ?? []) found.set(String(item.accountId), item.analytics);
        keys = UnprocessedKeys?.[this.accountsTable]?.Keys ?? [];
      }
    }
    return new Map(workspaceIds.map((id) => [id, switchesOf(found.get(id))]));
  }
}
