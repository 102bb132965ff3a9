import { PATHS, selectPaths } from '../../../bench/ab-paths';

describe('bench:ab --paths', () => {
  it('runs every path without the option, or with an empty one', () => {
    expect(selectPaths(undefined)).toEqual([...PATHS]);
    expect(selectPaths(' , ')).toEqual([...PATHS]);
  });

  it('runs the named paths in the benchmark\'s order, always with the hot plain link, the last column\'s reference', () => {
    expect(selectPaths('maxClicks')).toEqual(['hot plain link', 'maxClicks link (limit 10⁹)']);
    expect(selectPaths('batch, smart,maxClicks,smart')).toEqual(['hot plain link', 'maxClicks link (limit 10⁹)', 'smart link (20 rules, 4 variants)', '50-item batch']);
    expect(selectPaths('hot')).toEqual(['hot plain link']);
  });

  it('refuses a name it does not know, listing the ones it does, inherited object keys included', () => {
    expect(() => selectPaths('maxclicks')).toThrow('--paths takes hot, maxClicks, smart, custom, password, create, batch (comma-separated), not "maxclicks"');
    expect(() => selectPaths('__proto__')).toThrow('not "__proto__"');
    expect(() => selectPaths('constructor')).toThrow('not "constructor"');
  });
});
