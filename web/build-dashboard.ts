import * as path from 'node:path';
import { buildDashboard } from './build';

/** `npm run build:dashboard [outDir]`: the dashboard's static files (by default in web/dist), as the deployment builds them. */
const outDir = path.resolve(process.argv[2] ?? path.join(__dirname, 'dist'));
const { files } = buildDashboard(outDir);
process.stdout.write(`${files.length} files in ${outDir}\n${files.map((file) => `  ${file}\n`).join('')}`);
