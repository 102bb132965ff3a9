import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isPermissive, nonPermissiveRuntimePackages } from '../../support/licenses';

const ROOT = path.join(__dirname, '..', '..', '..');

/** A lock file as npm writes it, with one package of each kind that matters. */
function sampleLock(extra: Record<string, { license?: string; dev?: boolean; devOptional?: boolean }>) {
  return {
    packages: {
      '': { license: 'UNLICENSED' },
      'node_modules/zod': { license: 'MIT' },
      'node_modules/@aws-sdk/client-dynamodb': { license: 'Apache-2.0' },
      'node_modules/redoc/node_modules/dompurify': { license: '(MPL-2.0 OR Apache-2.0)' },
      'node_modules/some-linter': { license: 'GPL-3.0-only', dev: true },
      ...extra,
    },
  };
}

describe('only permissively licensed code is shipped', () => {
  it('passes on the project lock file', () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
    expect(nonPermissiveRuntimePackages(lock)).toEqual([]);
  });

  it('names a copyleft runtime dependency with its license (ua-parser-js 2.x is AGPL)', () => {
    const lock = sampleLock({ 'node_modules/ua-parser-js': { license: 'AGPL-3.0-or-later' } });
    expect(nonPermissiveRuntimePackages(lock)).toEqual(['ua-parser-js AGPL-3.0-or-later']);
  });

  it('names a nested copy and a package that declares no license', () => {
    const lock = sampleLock({
      'node_modules/a/node_modules/b': { license: 'LGPL-2.1-or-later' },
      'node_modules/mystery': {},
    });
    expect(nonPermissiveRuntimePackages(lock)).toEqual(['b LGPL-2.1-or-later', 'mystery (no license declared)']);
  });

  it('lets development-only tools be what they are', () => {
    expect(nonPermissiveRuntimePackages(sampleLock({ 'node_modules/x': { license: 'GPL-2.0', devOptional: true } }))).toEqual([]);
  });

  it.each([
    ['MIT', true],
    ['(MIT OR GPL-3.0)', true],
    ['GPL-3.0 OR Apache-2.0', true],
    ['MIT AND BSD-3-Clause', true],
    ['(MIT AND GPL-2.0) OR ISC', true],
    ['MIT AND GPL-2.0', false],
    ['AGPL-3.0-or-later', false],
    ['SSPL-1.0', false],
    ['(GPL-2.0 OR LGPL-3.0)', false],
    ['SEE LICENSE IN LICENSE.txt', false],
    ['', false],
  ])('reads %p as permissive: %p', (expression, expected) => {
    expect(isPermissive(expression)).toBe(expected);
  });
});
