import { statsRows } from '../../../../functions/shared/domain/analytics/stats-rows';
import { csvDownload } from '../../../../functions/shared/http/csv';
import { dayOf } from '../../../support/day-counts';

describe('the stats export', () => {
  it('has every day of the window, then that day\'s values with clicks, most first, the default destination derived', () => {
    const rows = statsRows(['2026-11-22', '2026-11-23'], [
      { ...dayOf('2026-11-23', 5, { country: { DE: 2, FR: 3, IT: 0 }, referrer: { direct: 5 }, device: { mobile: 4, desktop: 1 }, destination: { 'variants[1]': 2 }, city: { '=cmd|calc': 1 } }), bots: 1 },
    ]);
    expect(rows).toEqual([
      ['2026-11-22', 'clicks', '', 0],
      ['2026-11-22', 'bots', '', 0],
      ['2026-11-22', 'unique', '', 0],
      ['2026-11-23', 'clicks', '', 5],
      ['2026-11-23', 'bots', '', 1],
      ['2026-11-23', 'unique', '', 0],
      ['2026-11-23', 'country', 'FR', 3],
      ['2026-11-23', 'country', 'DE', 2],
      ['2026-11-23', 'referrer', 'direct', 5],
      ['2026-11-23', 'device', 'mobile', 4],
      ['2026-11-23', 'device', 'desktop', 1],
      ['2026-11-23', 'destination', 'default', 3],
      ['2026-11-23', 'destination', 'variants[1]', 2],
      ['2026-11-23', 'city', '=cmd|calc', 1],
    ]);
    // A city that looks like a formula stays text in a spreadsheet (csv.ts), as every value does.
    expect(csvDownload(['value'], [['=cmd|calc']], 'x.csv').body).toBe('value\r\n\'=cmd|calc\r\n');
  });

  it('is RFC 4180 CSV that no spreadsheet runs as a formula, named for download', () => {
    const answer = csvDownload(['date', 'value'], [['2026-11-23', '=HYPERLINK("x")'], ['2026-11-23', 'a,b'], ['2026-11-23', 7]], 'ab c/../d.csv');
    expect(answer.body).toBe('date,value\r\n2026-11-23,"\'=HYPERLINK(""x"")"\r\n2026-11-23,"a,b"\r\n2026-11-23,7\r\n');
    expect(answer.headers).toMatchObject({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="ab_c_.._d.csv"', 'cache-control': 'no-store' });
  });
});
