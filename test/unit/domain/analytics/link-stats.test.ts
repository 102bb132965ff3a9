import { SAFE_DEFAULT_FLAGS } from '../../../../functions/shared/domain/limits/flags';
import type { LinkRecord } from '../../../../functions/shared/domain/links/link';
import type { ManagementContext } from '../../../../functions/shared/domain/links/link-viewing';
import { statsOfLink, statsRowsOfLink } from '../../../../functions/shared/domain/analytics/link-stats';
import type { ManagedLinkStore } from '../../../../functions/shared/domain/ports';
import { keyCaller } from '../../../support/callers';
import { dayOf } from '../../../support/day-counts';

const nowMs = Date.parse('2026-11-27T10:00:00.000Z');
const context: ManagementContext = {
  caller: keyCaller({ keyId: 'key_b', accountId: 'acct_b', owner: 'acct:acct_b', plan: 'PRO' }),
  author: { actor: { kind: 'key', keyId: 'key_b' }, requestId: 'req-1' },
  flags: SAFE_DEFAULT_FLAGS,
  nowMs,
  shortBaseUrl: 'https://sho.rt',
};

/**
 * The code "promo" was another workspace's: its link expired, the TTL removed it 90 days later, and this workspace
 * took the code. The day counts under the code (kept 400 days) hold the former link's visitors.
 */
const formerDays = [dayOf('2026-10-28', 100, { country: { DE: 60, FR: 40 } }), dayOf('2026-11-17', 100, { referrer: { 'secret-partner.example': 100 } })];
const ownDay = dayOf('2026-11-27', 3, { country: { US: 3 } });

function deps(link: LinkRecord) {
  const links = { find: async () => link } as unknown as ManagedLinkStore;
  // The store answers the days asked for, as DynamoDB's range does.
  return { links, stats: { days: async (_code: string, from: string, to: string) => [...formerDays, ownDay].filter(({ day }) => day >= from && day <= to) } };
}
const made = (fields: Partial<LinkRecord>): LinkRecord => ({ code: 'promo', url: 'https://example.com/', isAlias: true, createdAt: '2026-11-27T09:00:00.000Z', clicks: 3, owner: 'acct:acct_b', ...fields });

describe('a link\'s stats on a code another link held before', () => {
  it('count no day from before the link was made, in the JSON and in the CSV', async () => {
    const stats = await statsOfLink('promo', { days: 90, format: 'json', includeBots: false }, context, deps(made({})));
    expect(stats.days.filter((day) => day.clicks > 0)).toEqual([expect.objectContaining({ date: '2026-11-27', clicks: 3 })]);
    expect(JSON.stringify(stats)).not.toContain('secret-partner');
    expect(stats.countries).toEqual([{ country: 'US', clicks: 3 }]);
    const { rows } = await statsRowsOfLink('promo', { days: 90, format: 'csv', includeBots: false }, context, deps(made({})));
    expect(new Set(rows.filter(([, , , clicks]) => clicks > 0).map(([date]) => date))).toEqual(new Set(['2026-11-27']));
  });

  it('go by when this service made an imported link, not by the createdAt its file claimed', async () => {
    const backdated = made({ createdAt: '2024-01-01T00:00:00.000Z', madeAt: '2026-11-27T09:00:00.000Z', importedFrom: { source: 'bitly', sourceId: 'bit.ly/promo' } });
    const stats = await statsOfLink('promo', { days: 90, format: 'json', includeBots: false }, context, deps(backdated));
    expect(JSON.stringify(stats)).not.toContain('secret-partner');
    expect(stats.days.filter((day) => day.clicks > 0).map((day) => day.date)).toEqual(['2026-11-27']);
  });
});
