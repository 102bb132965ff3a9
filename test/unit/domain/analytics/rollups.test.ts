import type { Click } from '../../../../functions/shared/domain/analytics/click';
import { liveOfWorkspace } from '../../../../functions/shared/domain/analytics/live-stats';
import { liveCode, rollupClicks, workspaceCode, type LinkPlace, type LiveHour } from '../../../../functions/shared/domain/analytics/rollups';
import { statsOfWorkspace } from '../../../../functions/shared/domain/analytics/workspace-stats';
import { dayOf } from '../../../support/day-counts';

const click = (fields: Partial<Click>): Click => ({ code: 'abc', at: '2026-11-22T10:07:30.000Z', country: 'DE', referrer: 'direct', device: 'desktop', counted: false, ...fields });
const places = new Map<string, LinkPlace | undefined>([
  ['abc', { owner: 'acct:a', tags: ['spring'] }],
  ['go.acme.com/promo', { owner: 'acct:a', tags: [] }],
  ['anon1', { owner: 'anonymous', tags: [] }],
]);

describe('a delivery rolled up per workspace and per minute', () => {
  it('adds each click to its workspace, its custom domain, its tags and both, with the links\' shares of people\'s clicks', () => {
    const { workspaces } = rollupClicks([click({}), click({ bot: true }), click({ code: 'go.acme.com/promo' }), click({ code: 'go.acme.com/promo', at: '2026-11-21T23:00:00.000Z' })], places);
    expect(workspaces.map((workspace) => [workspace.code, workspace.counts.day, workspace.counts.clicks, workspace.counts.bots, workspace.links])).toEqual([
      ['ws#acct:a', '2026-11-21', 1, 0, { 'go.acme.com/promo': 1 }],
      ['ws#acct:a', '2026-11-22', 2, 1, { abc: 1, 'go.acme.com/promo': 1 }],
      ['ws#acct:a#d#go.acme.com', '2026-11-21', 1, 0, { 'go.acme.com/promo': 1 }],
      ['ws#acct:a#d#go.acme.com', '2026-11-22', 1, 0, { 'go.acme.com/promo': 1 }],
      ['ws#acct:a#t#spring', '2026-11-22', 1, 1, { abc: 1 }],
    ]);
    expect(workspaceCode('acct:a', { domain: 'go.acme.com', tag: 'spring' })).toBe('ws#acct:a#d#go.acme.com#t#spring');
  });

  it('counts minutes per link and per workspace, people and bots apart; anonymous links and links gone since on the link only', () => {
    const { workspaces, live } = rollupClicks([click({}), click({ bot: true }), click({ at: '2026-11-22T10:08:01.000Z' }), click({ code: 'anon1' }), click({ code: 'gone' })], places);
    expect(workspaces.every((workspace) => workspace.code.startsWith('ws#acct:a'))).toBe(true);
    expect(live).toEqual<LiveHour[]>([
      { code: liveCode('abc'), hour: '2026-11-22T10', minutes: { '07': { clicks: 1, bots: 1 }, '08': { clicks: 1, bots: 0 } } },
      { code: liveCode('anon1'), hour: '2026-11-22T10', minutes: { '07': { clicks: 1, bots: 0 } } },
      { code: liveCode('gone'), hour: '2026-11-22T10', minutes: { '07': { clicks: 1, bots: 0 } } },
      { code: liveCode('ws#acct:a'), hour: '2026-11-22T10', minutes: { '07': { clicks: 1, bots: 1 }, '08': { clicks: 1, bots: 0 } } },
    ]);
  });
});

describe('the workspace view', () => {
  it('reads the workspace\'s own day items once, and names its ten most clicked links', async () => {
    const asked: string[] = [];
    const links = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [i === 0 ? 'go.acme.com/promo' : `link${i}`, 100 - i]));
    const stats = await statsOfWorkspace('acct:a', { days: 2, includeBots: false, tag: 'spring' }, Date.parse('2026-11-22T10:00:00.000Z'), {
      days: async (code) => {
        asked.push(code);
        return [{ ...dayOf('2026-11-22', 30), bots: 4, links }, { ...dayOf('2026-11-21', 12), links: { link11: 50 } }];
      },
    });
    expect(asked).toEqual(['ws#acct:a#t#spring']);
    expect([stats.total, stats.bots]).toEqual([42, 4]);
    expect(stats.topLinks).toHaveLength(10);
    expect(stats.topLinks[0]).toEqual({ shortCode: 'link11', clicks: 139 });
    expect(stats.topLinks[1]).toEqual({ shortCode: 'promo', domain: 'go.acme.com', clicks: 100 });
  });

  it('shows the last 60 minutes, oldest first, across the two hour items they fall in', async () => {
    const live = await liveOfWorkspace('acct:a', Date.parse('2026-11-22T10:07:30.000Z'), {
      hours: async (code, from, to): Promise<LiveHour[]> => {
        expect([code, from, to]).toEqual(['live#ws#acct:a', '2026-11-22T09', '2026-11-22T10']);
        return [
          { code, hour: '2026-11-22T09', minutes: { '07': { clicks: 9, bots: 0 }, '08': { clicks: 2, bots: 1 } } },
          { code, hour: '2026-11-22T10', minutes: { '07': { clicks: 3, bots: 0 } } },
        ];
      },
    });
    expect(live.minutes).toHaveLength(60);
    expect(live.minutes[0]).toEqual({ minute: '2026-11-22T09:08:00.000Z', clicks: 2, bots: 1 });
    expect(live.minutes[59]).toEqual({ minute: '2026-11-22T10:07:00.000Z', clicks: 3, bots: 0 });
    expect(live.total).toBe(5);
  });
});
