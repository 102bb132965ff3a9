import { buildSync, type Metafile } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/** Where the dashboard is served (its router's base): every asset URL in the page starts here. */
import { BASE as DASHBOARD_PATH } from './dashboard/places';

export { DASHBOARD_PATH };
/** Hashed file names under this folder never change content, so they may be cached for a year. */
export const ASSETS_FOLDER = 'assets';

const SOURCE = path.join(__dirname, 'dashboard');

/**
 * Builds the dashboard into `outDir` (emptied first): `index.html` naming content-hashed `assets/main-<hash>.js`
 * and `.css`. Synchronous, so CDK's local bundling (lib/dashboard.ts) can call it while synthesizing.
 */
export function buildDashboard(outDir: string): { files: string[] } {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = buildSync({
    entryPoints: [path.join(SOURCE, 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome120', 'firefox120', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // The CSV import's parser as built for browsers (the Node build needs Buffer).
    alias: { 'csv-parse/sync': 'csv-parse/browser/esm/sync' },
    outdir: path.join(outDir, ASSETS_FOLDER),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'linked',
    logLevel: 'silent',
  });
  const outputs = Object.keys((result.metafile as Metafile).outputs).map((file) => path.relative(outDir, file).split(path.sep).join('/'));
  const script = outputs.find((file) => file.endsWith('.js'));
  const style = outputs.find((file) => file.endsWith('.css'));
  if (!script || !style) throw new Error(`the dashboard build wrote no script or stylesheet: ${outputs.join(', ')}`);
  const page = readFileSync(path.join(SOURCE, 'index.html'), 'utf8')
    .replace('{{script}}', `${DASHBOARD_PATH}/${script}`)
    .replace('{{style}}', `${DASHBOARD_PATH}/${style}`);
  writeFileSync(path.join(outDir, 'index.html'), page);
  return { files: ['index.html', ...outputs] };
}
