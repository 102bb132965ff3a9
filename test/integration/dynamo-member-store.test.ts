import { DynamoMemberStore } from '../../functions/shared/adapters/dynamo-member-store';
import type { Membership } from '../../functions/shared/domain/ports';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, eventually, freshTables } from '../support/local-stack';

/** The members table's reads and its seat-counted writes, against DynamoDB Local. */
let store: DynamoMemberStore;
let tableName: string;
const run = Date.now().toString(36);
let counter = 0;

beforeAll(async () => {
  const tables = await freshTables();
  tableName = tables[StackOutputs.membersTable] as string;
  store = new DynamoMemberStore(dynamo(), tableName, tables[StackOutputs.auditTable]);
});

function workspace(): string {
  counter += 1;
  return `acct_${run}w${counter}`;
}

function member(workspaceId: string, fields: Partial<Membership> = {}): Membership {
  counter += 1;
  return { workspaceId, userId: `sub-${run}-${counter}`, email: `person${counter}@example.com`, role: 'member', joinedAt: new Date().toISOString(), ...fields };
}

describe('reading memberships', () => {
  it('reads one membership strongly consistently, and nothing for a stranger or another workspace', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const client = dynamo();
    client.middlewareStack.add(
      (next) => async (args) => {
        sent.push(args.input as Record<string, unknown>);
        return next(args);
      },
      { step: 'initialize', name: 'recordInput' },
    );
    const recorded = new DynamoMemberStore(client, tableName);
    const [here, there] = [workspace(), workspace()];
    const owner = member(here, { role: 'owner', email: 'Zoë@Example.com' });
    expect(await recorded.addMember(owner)).toBe('added');
    sent.length = 0;

    expect(await recorded.membership(here, owner.userId)).toEqual(owner);
    expect(sent).toEqual([expect.objectContaining({ TableName: tableName, ConsistentRead: true })]);
    expect(await recorded.membership(there, owner.userId)).toBeUndefined();
    expect(await recorded.membership(here, 'sub-nobody')).toBeUndefined();
  });

  it('lists a workspace\'s members and a person\'s workspaces', async () => {
    const [first, second] = [workspace(), workspace()];
    const person = member(first, { role: 'owner' });
    const colleague = member(first);
    await store.addMember(person);
    await store.addMember(colleague);
    await store.addMember({ ...person, workspaceId: second, role: 'viewer' });

    expect((await store.members(first)).map((each) => each.userId).sort()).toEqual([person.userId, colleague.userId].sort());
    const theirs = await eventually(async () => {
      const found = await store.workspacesOf(person.userId);
      if (found.length < 2) throw new Error('index not caught up');
      return found;
    });
    expect(theirs.map(({ workspaceId, role }) => ({ workspaceId, role })).sort((a, b) => a.workspaceId.localeCompare(b.workspaceId))).toEqual([
      { workspaceId: first, role: 'owner' },
      { workspaceId: second, role: 'viewer' },
    ]);
    expect(await store.workspacesOf('sub-nobody')).toEqual([]);
  });
});

describe('adding members', () => {
  it('refuses a second membership of the same person', async () => {
    const here = workspace();
    const person = member(here);
    expect(await store.addMember(person)).toBe('added');
    expect(await store.addMember({ ...person, role: 'owner' })).toBe('alreadyMember');
    expect(await store.membership(here, person.userId)).toMatchObject({ role: 'member' });
  });

  it('never lets concurrent additions overrun the seats', async () => {
    const here = workspace();
    const results = await Promise.all(Array.from({ length: 8 }, () => store.addMember(member(here), { seatLimit: 3 })));
    expect(results.filter((result) => result === 'added')).toHaveLength(3);
    expect(results.filter((result) => result === 'noSeat')).toHaveLength(5);
    expect(await store.members(here)).toHaveLength(3);
  });
});
