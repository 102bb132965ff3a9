import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { permissionTableRows } from './permission-table';

describe('docs/api.md', () => {
  it('shows the scopes and people\'s powers, and the roles holding each, exactly as permissions.ts has them', () => {
    const doc = readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'api.md'), 'utf8');
    const lines = doc.split('\n');
    const start = lines.indexOf('| Permission | Held by | Roles that hold it |');
    expect(start).toBeGreaterThan(-1);
    const table = lines.slice(start, lines.findIndex((line, index) => index > start && !line.startsWith('|')));
    expect(table).toEqual(permissionTableRows());
  });
});
