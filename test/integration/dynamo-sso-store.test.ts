import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoSsoStore } from '../../functions/shared/adapters/dynamo-sso-store';
import { auditRecord } from '../../functions/shared/domain/audit/audit-record';
import { MAX_SSO_CONNECTIONS, providerNameFor, type SsoConnection } from '../../functions/shared/domain/sso/sso-connection';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, freshTables } from '../support/local-stack';

/** SSO connections' transactions against DynamoDB Local: the service-wide domain claim, the count, the audit record. */
let store: DynamoSsoStore;
let auditTable: string;
const run = Date.now().toString(36);
const nowMs = Date.now();

beforeAll(async () => {
  const tables = await freshTables();
  auditTable = tables[StackOutputs.auditTable] as string;
  store = new DynamoSsoStore(dynamo(), tables[StackOutputs.membersTable] as string, auditTable);
});

const connection = (workspaceId: string, domain: string): SsoConnection => ({
  workspaceId,
  domain,
  protocol: 'oidc',
  status: 'pending',
  claimId: 'c'.repeat(32),
  providerName: providerNameFor(workspaceId, domain),
  oidc: { issuer: 'https://login.example/', clientId: 'shortener' },
  createdAt: new Date(nowMs).toISOString(),
});
const audit = (workspaceId: string, action: string) =>
  auditRecord({ workspaceId, actor: { kind: 'operator' }, action, target: { type: 'sso', id: 'x' }, changes: {}, nowMs });

async function recordsOf(workspaceId: string): Promise<string[]> {
  const { Items = [] } = await dynamo().send(new QueryCommand({ TableName: auditTable, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `ws#${workspaceId}` } }));
  return Items.map((item) => item.action as string);
}

describe('SSO connections in the members table', () => {
  it('give a domain to one workspace only when many race for it, with one audit record for the winner', async () => {
    const domain = `race-${run}.example`;
    const workspaces = Array.from({ length: 6 }, (_, index) => `acct_race${index}${run}`);
    const outcomes = await Promise.all(workspaces.map((workspace) => store.add(connection(workspace, domain), MAX_SSO_CONNECTIONS, audit(workspace, 'sso.created'))));
    expect(outcomes.filter((outcome) => outcome === 'added')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'taken')).toHaveLength(5);
    const records = await Promise.all(workspaces.map(recordsOf));
    expect(records.flat()).toEqual(['sso.created']);
  });

  it('keep a workspace within its number of connections, and a removal gives a place and the domain back', async () => {
    const workspace = `acct_count${run}`;
    const outcomes = await Promise.all(Array.from({ length: 3 }, (_, index) => store.add(connection(workspace, `d${index}-${run}.example`), 2, audit(workspace, 'sso.created'))));
    expect(outcomes.sort()).toEqual(['added', 'added', 'overLimit']);
    const [first] = await store.list(workspace);
    expect(await store.remove(workspace, first!.domain, audit(workspace, 'sso.deleted'))).toBe(true);
    expect(await store.remove(workspace, first!.domain, audit(workspace, 'sso.deleted'))).toBe(false);
    expect(await store.add(connection(`acct_other${run}`, first!.domain), 2, audit(`acct_other${run}`, 'sso.created'))).toBe('added');
    expect((await recordsOf(workspace)).sort()).toEqual(['sso.created', 'sso.created', 'sso.deleted']);
  });

  it('activate only a connection that is still there, and only another workspace\'s claim never frees a domain', async () => {
    const workspace = `acct_act${run}`;
    const domain = `act-${run}.example`;
    await store.add(connection(workspace, domain), 10, audit(workspace, 'sso.created'));
    const verifiedAt = new Date(nowMs + 1000).toISOString();
    expect(await store.activate(workspace, domain, verifiedAt, audit(workspace, 'sso.verified'))).toMatchObject({ status: 'active', verifiedAt });
    expect(await store.activate(`acct_nobody${run}`, domain, verifiedAt, audit(`acct_nobody${run}`, 'sso.verified'))).toBeUndefined();
    expect(await store.remove(`acct_nobody${run}`, domain, audit(`acct_nobody${run}`, 'sso.deleted'))).toBe(false);
    expect(await recordsOf(`acct_nobody${run}`)).toEqual([]);
    expect(await store.find(workspace, domain)).toMatchObject({ status: 'active', domain });
  });
});
