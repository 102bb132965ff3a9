import { auditLine, listAuditLog } from '../../../bin/shortener/audit-commands';
import type { ShortenerClient } from '../../../clients/typescript/src';

const entry = (id: string, actor: object) => ({ id, at: '2026-11-25T10:00:00.000Z', actor, action: 'link.updated', target: { type: 'link', id: 'abc1234' }, changes: { url: {}, tags: {} }, requestId: 'r' });

describe('shortener audit', () => {
  it('prints one line per record: when, who, what, on what, which fields', () => {
    expect(auditLine(entry('1', { kind: 'key', keyId: 'key_1', name: 'CI' }) as never)).toBe('2026-11-25T10:00:00.000Z\tkey_1 (CI)\tlink.updated\tlink:abc1234\turl,tags\n');
    expect(auditLine(entry('2', { kind: 'user', userId: 'u', email: 'ana@example.com', role: 'admin' }) as never)).toContain('\tana@example.com\t');
    expect(auditLine(entry('3', { kind: 'operator' }) as never)).toContain('\toperator\t');
  });

  it('follows the pages with the filters until it has as many records as asked', async () => {
    const asked: unknown[] = [];
    const pages = [
      { records: [entry('1', { kind: 'operator' }), entry('2', { kind: 'operator' })], nextCursor: 'c1' },
      { records: [entry('3', { kind: 'operator' })], nextCursor: 'c2' },
    ];
    const client = {
      GET: async (_path: string, init: { params: { query: unknown } }) => {
        asked.push(init.params.query);
        return { data: pages.shift(), response: { status: 200 } };
      },
    } as unknown as ShortenerClient;
    let out = '';
    await listAuditLog(client, { action: 'link.updated', limit: '3' }, { out: (text) => (out += text), err: () => undefined });
    expect(asked).toEqual([{ action: 'link.updated', limit: 3 }, { action: 'link.updated', limit: 1, cursor: 'c1' }]);
    expect(out.trim().split('\n')).toHaveLength(3);
  });
});
