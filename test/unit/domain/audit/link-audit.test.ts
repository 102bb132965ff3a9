import { workspaceOfOwner } from '../../../../functions/shared/domain/accounts/accounts';
import { auditStamp, OPERATOR } from '../../../../functions/shared/domain/audit/audit-stamp';
import { linkAuditRecord } from '../../../../functions/shared/domain/audit/link-audit';
import { appendLinkRecords } from '../../../../functions/shared/domain/audit/link-audit-stream';
import type { AuditRecord } from '../../../../functions/shared/domain/audit/audit-record';

const nowMs = Date.parse('2026-11-25T10:00:00.000Z');
const byKey = { actor: { kind: 'key' as const, keyId: 'key_1', name: 'CI' }, requestId: 'req-1' };

/** A link item as stored, with the stamp its creation carried. */
const created = (fields: Record<string, unknown> = {}) => ({
  code: 'abc1234',
  url: 'https://example.com/a',
  owner: 'acct:acct_w1',
  isAlias: false,
  createdAt: new Date(nowMs).toISOString(),
  clicks: 0,
  auditStamp: auditStamp('link.created', byKey, nowMs),
  ...fields,
});

describe('a link\'s audit record, read off the links table\'s stream', () => {
  it('is the creation\'s, named by the stream record, with the fields set and the password only as changed', () => {
    const record = linkAuditRecord({ eventId: 'ev1', kind: 'INSERT', after: created({ passwordHash: 'scrypt$salt$hash', ttl: 123, tags: ['q4'] }) });
    expect(record).toEqual({
      workspaceId: 'acct_w1',
      id: 'ev1',
      at: '2026-11-25T10:00:00.000Z',
      actor: byKey.actor,
      action: 'link.created',
      target: { type: 'link', id: 'abc1234' },
      changes: { isAlias: { after: false }, passwordHash: { after: { changed: true } }, tags: { after: ['q4'] }, url: { after: 'https://example.com/a' } },
      requestId: 'req-1',
    });
    expect(JSON.stringify(record)).not.toContain('scrypt');
  });

  it('is an edit\'s: only the fields that moved, before and after, under the edit\'s own stamp', () => {
    const before = created();
    const stamp = auditStamp('link.updated', byKey, nowMs + 5_000);
    const after = { ...before, url: 'https://example.com/b', clicks: 3, updatedAt: stamp.at, auditStamp: stamp };
    expect(linkAuditRecord({ eventId: 'ev2', kind: 'MODIFY', before, after })).toMatchObject({
      id: 'ev2',
      action: 'link.updated',
      at: stamp.at,
      changes: { url: { before: 'https://example.com/a', after: 'https://example.com/b' } },
    });
  });

  it('is none for a write that kept the stamp: a click, a lease, a used-up link retired by the service', () => {
    const before = created({ maxClicks: 2 });
    expect(linkAuditRecord({ eventId: 'ev3', kind: 'MODIFY', before, after: { ...before, clicks: 1 } })).toBeUndefined();
    expect(linkAuditRecord({ eventId: 'ev4', kind: 'MODIFY', before, after: { ...before, retired: true } })).toBeUndefined();
  });

  it('is none for a TTL removal, an unstamped write, or a v1 link no workspace holds', () => {
    expect(linkAuditRecord({ eventId: 'ev5', kind: 'REMOVE', before: created() })).toBeUndefined();
    const { auditStamp: _stamp, ...unstamped } = created();
    expect(linkAuditRecord({ eventId: 'ev6', kind: 'INSERT', after: unstamped })).toBeUndefined();
    expect(linkAuditRecord({ eventId: 'ev7', kind: 'INSERT', after: created({ owner: 'anonymous' }) })).toBeUndefined();
  });

  it('is an operator\'s takedown, in the workspace that holds the link', () => {
    const before = created();
    const stamp = auditStamp('link.disabled', OPERATOR, nowMs + 60_000);
    const record = linkAuditRecord({ eventId: 'ev8', kind: 'MODIFY', before, after: { ...before, disabled: true, disabledReason: 'phishing', auditStamp: stamp } });
    expect(record).toMatchObject({ actor: { kind: 'operator' }, action: 'link.disabled', changes: { disabled: { after: true }, disabledReason: { after: 'phishing' } } });
    expect(record).not.toHaveProperty('requestId');
  });

  it('ignores a stamp that is not one (an attribute written by hand)', () => {
    expect(linkAuditRecord({ eventId: 'ev9', kind: 'INSERT', after: created({ auditStamp: { id: 1 } }) })).toBeUndefined();
  });
});

describe('the workspace a links owner is', () => {
  it('is the account of `acct:` owners and the legacy account of `key:` owners; v1\'s anonymous has none', () => {
    expect(workspaceOfOwner('acct:acct_0123456789abcdef')).toBe('acct_0123456789abcdef');
    expect(workspaceOfOwner('key:key_0123456789abcdef')).toBe('acct_0123456789abcdef');
    expect(workspaceOfOwner('anonymous')).toBeUndefined();
    expect(workspaceOfOwner('acct:something-else')).toBeUndefined();
  });
});

describe('a stream batch\'s records', () => {
  it('are appended once: a redelivered batch finds its records and writes nothing twice', async () => {
    const stored = new Map<string, AuditRecord>();
    const log = { append: async (record: AuditRecord) => (stored.has(record.id) ? false : (stored.set(record.id, record), true)) };
    const batch = [linkAuditRecord({ eventId: 'ev1', kind: 'INSERT', after: created() }), undefined];
    expect(await appendLinkRecords(batch, log)).toBe(1);
    expect(await appendLinkRecords(batch, log)).toBe(0);
    expect([...stored.keys()]).toEqual(['ev1']);
  });
});
