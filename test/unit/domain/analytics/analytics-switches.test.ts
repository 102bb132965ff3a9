import { ANALYTICS_SWITCHES, forgetUnrecorded, RECORD_EVERYTHING, switchesOf, unrecordedDimensions } from '../../../../functions/shared/domain/analytics/analytics-switches';
import { countClicks } from '../../../../functions/shared/domain/analytics/click-counts';
import type { Click } from '../../../../functions/shared/domain/analytics/click';
import { rollupClicks, workspaceCode } from '../../../../functions/shared/domain/analytics/rollups';
import { forgetUnrecordedDimensions, SWITCHES_CACHE_MS, UnrecordedDimensions } from '../../../../functions/shared/domain/analytics/unrecorded-dimensions';
import { InvalidRequest } from '../../../../functions/shared/domain/errors';
import { OwnMessages } from '../../../../functions/shared/domain/messages';
import { parseOrRefuse } from '../../../../functions/shared/domain/request-parsing';
import { analyticsPatchSchema, workspacePatchSchema } from '../../../../functions/shared/domain/workspaces/people-requests';

const MESSAGE = 'analytics must be an object whose country, region, city, referrer, device, browser, os and campaign are each true or false';

function refusal(body: unknown): string | undefined {
  try {
    parseOrRefuse(workspacePatchSchema(), body);
    return undefined;
  } catch (error) {
    if (error instanceof InvalidRequest) return error.message;
    throw error;
  }
}

const click = (code: string, fields: Partial<Click> = {}): Click => ({
  code,
  at: '2026-11-26T10:15:00.000Z',
  country: 'US',
  referrer: 'news.example',
  device: 'desktop',
  counted: false,
  browser: 'Chrome',
  os: 'Windows',
  region: 'US-CA',
  city: '<script>',
  utmSource: 'mail',
  utmMedium: 'email',
  utmCampaign: 'fall',
  ...fields,
});

describe('analytics switches (issue 30)', () => {
  it('take any of the switches as booleans beside the name, and an empty analytics object; a patch with no setting at all is refused', () => {
    expect(Object.keys(analyticsPatchSchema().def.shape)).toEqual([...ANALYTICS_SWITCHES]);
    expect(parseOrRefuse(workspacePatchSchema(), { analytics: { city: false, campaign: true } })).toEqual({ analytics: { city: false, campaign: true } });
    expect(parseOrRefuse(workspacePatchSchema(), { name: 'Acme', analytics: {} })).toEqual({ name: 'Acme', analytics: {} });
    expect(parseOrRefuse(workspacePatchSchema(), { analytics: {} })).toEqual({ analytics: {} });
    // Like the API's other PATCHes (links, domains): nothing to change is a mistake said back, not a silent 200.
    expect(refusal({})).toBe(OwnMessages.workspacePatchEmpty);
  });

  it('refuse anything else with the message naming the field', () => {
    for (const analytics of [null, 'off', [], { city: 'false' }, { city: 0 }, { city: null }, { destination: false }, { unique: false }, { __proto__: { city: false }, ip: true }]) {
      expect(refusal({ analytics })).toBe(MESSAGE);
    }
  });

  it('read a stored record as every switch named, only a boolean false silencing one', () => {
    expect(switchesOf(undefined)).toEqual(RECORD_EVERYTHING);
    expect(switchesOf('garbage')).toEqual(RECORD_EVERYTHING);
    expect(switchesOf({ city: false, referrer: 'false', os: 0, extra: false })).toEqual({ ...RECORD_EVERYTHING, city: false });
  });

  it('name the dimensions each switch silences: campaign is the three UTM parameters, the destination never', () => {
    expect(unrecordedDimensions(RECORD_EVERYTHING)).toEqual([]);
    expect(unrecordedDimensions({ ...RECORD_EVERYTHING, city: false, campaign: false })).toEqual(['city', 'utmSource', 'utmMedium', 'utmCampaign']);
    const everythingOff = Object.fromEntries(ANALYTICS_SWITCHES.map((name) => [name, false])) as typeof RECORD_EVERYTHING;
    expect(unrecordedDimensions(everythingOff)).not.toContain('destination');
  });

  it('forget a silenced dimension of people and bots, keeping clicks, bots and the other dimensions', () => {
    const [link] = countClicks([click('a'), click('a', { bot: true })]);
    const day = link?.days[0];
    if (!day) throw new Error('no day');
    forgetUnrecorded(day, ['city']);
    expect(day).toMatchObject({ clicks: 1, bots: 1 });
    expect([day.dimensions.city, day.botDimensions.city]).toEqual([{}, {}]);
    expect(day.dimensions.region).toEqual({ 'US-CA': 1 });
  });

  it('forget per workspace in a delivery mixing two, on links and every workspace item', () => {
    const places = new Map([
      ['a', { owner: 'acct:acct_quiet', tags: ['t'] }],
      ['b', { owner: 'acct:acct_loud', tags: [] }],
    ]);
    const clicks = [click('a'), click('b')];
    const counts = countClicks(clicks);
    const rollups = rollupClicks(clicks, places);
    forgetUnrecordedDimensions(counts, rollups.workspaces, places, new Map([['acct:acct_quiet', ['city', 'referrer'] as const]]));
    const cityOf = (code: string) => counts.find((link) => link.code === code)?.days[0]?.dimensions.city;
    expect([cityOf('a'), cityOf('b')]).toEqual([{}, { '<script>': 1 }]);
    const workspace = (code: string) => rollups.workspaces.find((day) => day.code === code)?.counts.dimensions;
    expect(workspace(workspaceCode('acct:acct_quiet'))).toMatchObject({ country: { US: 1 } });
    expect([workspace(workspaceCode('acct:acct_quiet'))?.referrer, workspace(workspaceCode('acct:acct_quiet', { tag: 't' }))?.city]).toEqual([{}, {}]);
    expect(workspace(workspaceCode('acct:acct_loud'))?.city).toEqual({ '<script>': 1 });
  });

  it('are read once per workspace and cache time, the workspaces of a delivery in one call, never for anonymous links, and a failed read is not kept', async () => {
    const calls: string[][] = [];
    let failing = false;
    const unrecorded = new UnrecordedDimensions({
      switchesOf: async (ids) => {
        calls.push([...ids]);
        if (failing) throw new Error('throttled');
        return new Map(ids.map((id) => [id, { ...RECORD_EVERYTHING, os: id === 'acct_old' }]));
      },
    });
    // A key made before accounts stands for its own workspace.
    const first = await unrecorded.byOwner(['acct:acct_x', 'acct:acct_x', 'anonymous', 'key:key_old'], 0);
    expect(first).toEqual(new Map([['acct:acct_x', ['os']], ['anonymous', []], ['key:key_old', []]]));
    expect(calls).toEqual([['acct_x', 'acct_old']]);
    await unrecorded.byOwner(['acct:acct_x', 'anonymous'], SWITCHES_CACHE_MS - 1);
    expect(calls).toHaveLength(1);
    failing = true;
    await expect(unrecorded.byOwner(['acct:acct_x'], SWITCHES_CACHE_MS)).rejects.toThrow('throttled');
    failing = false;
    expect(await unrecorded.byOwner(['acct:acct_x'], SWITCHES_CACHE_MS)).toEqual(new Map([['acct:acct_x', ['os']]]));
    expect(calls).toEqual([['acct_x', 'acct_old'], ['acct_x'], ['acct_x']]);
  });
});
