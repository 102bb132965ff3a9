import { encodeCursor, listAuditLog, MAX_EXAMINED_PER_PAGE, parseAuditQuery } from '../../../../functions/shared/domain/audit/audit-listing';
import type { AuditRecord } from '../../../../functions/shared/domain/audit/audit-record';
import { InvalidRequest } from '../../../../functions/shared/domain/errors';
import { OwnMessages } from '../../../../functions/shared/domain/messages';
import type { AuditFilter } from '../../../../functions/shared/domain/ports';

const refusedWith = (parameters: Record<string, string>, message: string) => {
  expect(() => parseAuditQuery(parameters)).toThrow(new InvalidRequest(message));
};

describe('GET /v2/audit-log\'s query', () => {
  it('takes the filters, times in any zone turned into UTC with milliseconds', () => {
    expect(parseAuditQuery({ limit: '5', actor: 'key_abc', action: 'link.updated', target: 'go.example.com/ab1', from: '2026-11-25T12:00:00+01:00', to: '2026-11-25T12:00Z' })).toEqual({
      limit: 5,
      filter: { actor: 'key_abc', action: 'link.updated', target: 'go.example.com/ab1', from: '2026-11-25T11:00:00.000Z', to: '2026-11-25T12:00:00.000Z' },
    });
    expect(parseAuditQuery(null)).toEqual({ limit: 20, filter: {} });
    expect(parseAuditQuery({ actor: 'operator', target: 'Ünïcode ✓' }).filter).toEqual({ actor: 'operator', target: 'Ünïcode ✓' });
  });

  it('refuses each bad parameter with a 400 naming it', () => {
    refusedWith({ limit: '0' }, OwnMessages.limitParameter);
    refusedWith({ limit: '101' }, OwnMessages.limitParameter);
    refusedWith({ actor: 'key abc' }, OwnMessages.auditActorParameter);
    refusedWith({ actor: 'x'.repeat(129) }, OwnMessages.auditActorParameter);
    refusedWith({ action: 'LINK.UPDATED' }, OwnMessages.auditActionParameter);
    refusedWith({ action: 'link' }, OwnMessages.auditActionParameter);
    refusedWith({ target: '' }, OwnMessages.auditTargetParameter);
    refusedWith({ target: 'a\u0000b' }, OwnMessages.auditTargetParameter);
    refusedWith({ target: 'x'.repeat(301) }, OwnMessages.auditTargetParameter);
    refusedWith({ from: 'yesterday' }, OwnMessages.auditTimeParameter('from'));
    refusedWith({ from: '2026-11-25T12:00:00' }, OwnMessages.auditTimeParameter('from'));
    refusedWith({ to: '2026-02-30T12:00:00Z' }, OwnMessages.auditTimeParameter('to'));
    refusedWith({ from: '2026-11-26T00:00:00Z', to: '2026-11-25T00:00:00Z' }, OwnMessages.auditRangeParameter);
  });

  it('takes back its own cursors and refuses one that was tampered with or made up', () => {
    const position = '2026-11-25T10:00:00.000Z#0b2c6f4e-1d2a-4c1e-9d5e-1b2c3d4e5f60';
    expect(parseAuditQuery({ cursor: encodeCursor(position) }).after).toBe(position);
    for (const cursor of [
      'not-base64-json',
      Buffer.from(JSON.stringify(['2026-11-25T10:00:00.000Z'])).toString('base64url'),
      Buffer.from(JSON.stringify(['2026-11-25T10:00:00.000Z#x', 'extra'])).toString('base64url'),
      // Another workspace's key cannot ride in a cursor: it holds a position only.
      Buffer.from(JSON.stringify(['ws#acct_other'])).toString('base64url'),
      encodeCursor(`${position}\u0000`),
      'A'.repeat(600),
    ]) {
      refusedWith({ cursor }, OwnMessages.cursorParameter);
    }
  });
});

describe('a page of the audit log', () => {
  const record = (id: string, at: string): AuditRecord => ({
    workspaceId: 'acct_w1',
    id,
    at,
    actor: { kind: 'key', keyId: 'key_1' },
    action: 'link.updated',
    target: { type: 'link', id: 'abc1234' },
    changes: {},
  });

  it('shows the records without their workspace, with an opaque cursor to the next', async () => {
    const asked: Array<{ workspaceId: string; filter: AuditFilter; page: object }> = [];
    const log = {
      page: async (workspaceId: string, filter: AuditFilter, page: { limit: number; after?: string; maxExamined: number }) => {
        asked.push({ workspaceId, filter, page });
        return { records: [record('r2', '2026-11-25T10:00:02.000Z'), record('r1', '2026-11-25T10:00:01.000Z')], next: '2026-11-25T10:00:01.000Z#r1' };
      },
    };
    const page = await listAuditLog('acct_w1', parseAuditQuery({ limit: '2', action: 'link.updated' }), log);
    expect(page.records.map((entry) => entry.id)).toEqual(['r2', 'r1']);
    expect(page.records[0]).not.toHaveProperty('workspaceId');
    expect(page.nextCursor).toBe(encodeCursor('2026-11-25T10:00:01.000Z#r1'));
    expect(parseAuditQuery({ cursor: page.nextCursor as string }).after).toBe('2026-11-25T10:00:01.000Z#r1');
    expect(asked).toEqual([{ workspaceId: 'acct_w1', filter: { action: 'link.updated' }, page: { limit: 2, maxExamined: MAX_EXAMINED_PER_PAGE } }]);
  });

  it('says there is no next page after the last', async () => {
    const page = await listAuditLog('acct_w1', parseAuditQuery({}), { page: async () => ({ records: [] }) });
    expect(page).toEqual({ records: [], nextCursor: null });
  });
});
