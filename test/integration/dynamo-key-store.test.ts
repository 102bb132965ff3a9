import { DynamoKeyStore } from '../../functions/shared/adapters/dynamo-key-store';
import { openAccount } from '../../functions/shared/domain/accounts/accounts';
import { issueApiKey } from '../../functions/shared/domain/accounts/api-keys';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, freshTables } from '../support/local-stack';

/** The authorizer's one read, against DynamoDB Local, with the request it sends recorded on the way out. */
describe('DynamoKeyStore.findByHash', () => {
  it('reads strongly consistently, so a key revoked a moment ago is refused on the very next request', async () => {
    const tableName = (await freshTables())[StackOutputs.apiKeysTable] as string;
    const client = dynamo();
    const sent: Array<Record<string, unknown>> = [];
    client.middlewareStack.add(
      (next) => async (args) => {
        sent.push(args.input as Record<string, unknown>);
        return next(args);
      },
      { step: 'initialize', name: 'recordInput' },
    );
    const store = new DynamoKeyStore(client, tableName);
    const { record } = issueApiKey(openAccount('PRO', { nowMs: Date.now() }), { nowMs: Date.now() });
    await store.add(record);
    await store.revoke(record.keyId);
    sent.length = 0;

    expect(await store.findByHash(record.keyHash)).toMatchObject({ status: 'revoked' });
    expect(sent).toEqual([expect.objectContaining({ TableName: tableName, Key: { keyHash: record.keyHash }, ConsistentRead: true })]);
  });
});
