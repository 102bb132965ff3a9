/**
 * bench:ab's paths, in the order a round runs them. The hot plain link comes first: the report's last column compares
 * every path to it.
 */
export const PATHS = ['hot plain link', 'maxClicks link (limit 10⁹)', 'smart link (20 rules, 4 variants)', 'custom-domain link', "password link's form", 'single creation', '50-item batch'] as const;
export type PathName = (typeof PATHS)[number];

/** The names `--paths` takes for them. */
const PATH_KEYS = new Map<string, PathName>([
  ['hot', 'hot plain link'],
  ['maxClicks', 'maxClicks link (limit 10⁹)'],
  ['smart', 'smart link (20 rules, 4 variants)'],
  ['custom', 'custom-domain link'],
  ['password', "password link's form"],
  ['create', 'single creation'],
  ['batch', '50-item batch'],
]);

/**
 * The paths a run measures: all without `--paths`, else those it names (comma-separated), in run order. The hot plain
 * link always runs, as the reference of the last column: one path's A/B then runs two paths, not seven.
 */
export function selectPaths(option: string | undefined): PathName[] {
  const keys = (option ?? '').split(',').map((key) => key.trim()).filter((key) => key !== '');
  if (keys.length === 0) return [...PATHS];
  const chosen = new Set<PathName>(['hot plain link']);
  for (const key of keys) {
    const name = PATH_KEYS.get(key);
    if (name === undefined) throw new Error(`--paths takes ${[...PATH_KEYS.keys()].join(', ')} (comma-separated), not ${JSON.stringify(key)}`);
    chosen.add(name);
  }
  return PATHS.filter((name) => chosen.has(name));
}
