import { lockMismatches } from '../../../bench/ab-checkout';
import { reportTable, summarise } from '../../../bench/ab-report';

const samples = (...pairs: Array<[number, number]>) => pairs.map(([requestsPerSecond, p50]) => ({ requestsPerSecond, p50 }));

describe('bench:ab report', () => {
  it('takes medians per side and compares throughput new/old', () => {
    const [row] = summarise(
      [{ path: 'hot plain link', measure: 'throughput' }],
      new Map([['hot plain link', samples([1000, 10], [3000, 4], [2000, 6])]]),
      new Map([['hot plain link', samples([2500, 5], [2400, 5], [9000, 1])]]),
    );
    expect(row).toMatchObject({ old: { requestsPerSecond: 2000, p50: 6 }, new: { requestsPerSecond: 2500, p50: 5 }, ratio: 1.25 });
  });

  it('compares a path measured one request at a time by its p50, so above 1 still means faster', () => {
    const [row] = summarise([{ path: 'single creation', measure: 'latency' }], new Map([['single creation', samples([50, 20])]]), new Map([['single creation', samples([40, 10])]]));
    expect(row).toMatchObject({ ratio: 2, ofFirst: null });
  });

  it('reports a path one side lacks as n/a, with no ratio', () => {
    const rows = summarise(
      [
        { path: 'hot plain link', measure: 'throughput' },
        { path: 'smart link', measure: 'throughput' },
      ],
      new Map([['hot plain link', samples([1000, 9])]]),
      new Map([
        ['hot plain link', samples([2000, 8])],
        ['smart link', samples([1500, 8], [1700, 7])],
      ]),
    );
    expect(rows[1]).toMatchObject({ old: null, new: { requestsPerSecond: 1600, p50: 7.5 }, ratio: null, ofFirst: 0.8 });
    expect(reportTable(rows, 'old', 'new').split('\n')[3]).toBe('| smart link | n/a | 1,600 req/s, p50 7.5 ms | n/a | 0.80 |');
  });
});

describe("bench:ab's choice of packages for the old commit", () => {
  const lock = (packages: Record<string, { version: string; optional?: boolean }>) => ({ packages: { '': { version: '0.1.0' }, ...packages } });

  it("links this tree's packages when every one the ref pins is installed at its version, extra ones allowed", () => {
    expect(lockMismatches(lock({ 'node_modules/zod': { version: '4.6.7' } }), lock({ 'node_modules/zod': { version: '4.6.7' }, 'node_modules/tldts': { version: '7.5.5' } }))).toEqual([]);
  });

  it('names each package installed at another version or missing, but not a missing optional one', () => {
    const ref = lock({ 'node_modules/commander': { version: '15.1.0' }, 'node_modules/qrcode': { version: '1.5.4' }, 'node_modules/fsevents': { version: '2.3.3', optional: true } });
    expect(lockMismatches(ref, lock({ 'node_modules/commander': { version: '14.0.3' } }))).toEqual(['commander 15.1.0 (installed: 14.0.3)', 'qrcode 1.5.4 (installed: none)']);
  });
});
