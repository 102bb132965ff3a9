import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { EnvNames } from '../../../functions/shared/config';
import type * as LinkListing from '../../../functions/shared/domain/links/link-listing';

/**
 * Issue 28: a cold start builds no request schema. zod/mini builds each schema's checks and internals as it is
 * constructed, so schemas built at import cost every container the schemas of routes its requests never take.
 * zod/mini is replaced by a copy that counts the schemas built, and every function's handler and module is loaded.
 */
const ROOT = path.join(__dirname, '..', '..', '..');
/**
 * Built eagerly on purpose: the OpenAPI document (the docs function and tooling), and the smart-link fields' bundle of
 * their own, which only a request carrying one of them loads.
 */
const EAGER = [
  path.join('functions', 'shared', 'http', 'openapi'),
  path.join('functions', 'docs'),
  path.join('functions', 'shared', 'domain', 'destinations', 'smart-link-request.ts'),
];

function modulesUnder(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(folder, file))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !EAGER.some((eager) => file.startsWith(eager)));
}

/** Runs `load` in a fresh module registry whose zod/mini counts every schema built (`built()` so far); returns the count. */
function schemasBuiltBy(load: (built: () => number) => void): number {
  let built = 0;
  jest.isolateModules(() => {
    jest.doMock('zod/mini', () => {
      const actual = jest.requireActual<Record<string, unknown>>('zod/mini');
      const counted = (value: unknown): unknown =>
        typeof value === 'function'
          ? (...args: unknown[]) => {
              built += 1;
              return (value as (...given: unknown[]) => unknown)(...args);
            }
          : value;
      // The factories (z.object, z.string, …) are counted; classes and namespaces are passed through.
      return Object.fromEntries(Object.entries(actual).map(([name, value]) => [name, /^[a-z]/.test(name) ? counted(value) : value]));
    });
    load(() => built);
  });
  return built;
}

describe('request schemas are built on first use (issue 28)', () => {
  const modules = modulesUnder('functions');
  // What the template sets, so that each handler can be loaded as Lambda loads it: a name will do, nothing is called.
  beforeAll(() => Object.values(EnvNames).forEach((name) => (process.env[name] ??= `https://${name.toLowerCase()}.example`)));

  it("loads every function's handler, and every module they bundle, without building one", () => {
    expect(modules.length).toBeGreaterThan(100);
    expect(schemasBuiltBy(() => modules.forEach((module) => jest.requireActual(path.join(ROOT, module))))).toBe(0);
  });

  it('builds a schema when a request first needs it, and once', () => {
    let afterFirst = 0;
    const built = schemasBuiltBy((builtSoFar) => {
      const { parseListQuery } = jest.requireActual<typeof LinkListing>(path.join(ROOT, 'functions/shared/domain/links/link-listing'));
      expect(builtSoFar()).toBe(0);
      expect(parseListQuery({ limit: '5' }).limit).toBe(5);
      afterFirst = builtSoFar();
      expect(parseListQuery({ status: 'active' }).status).toBe('active');
    });
    expect(afterFirst).toBeGreaterThan(0);
    expect(built).toBe(afterFirst);
  });
});
