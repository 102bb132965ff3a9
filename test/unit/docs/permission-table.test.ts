import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { needsMembership, PEOPLE_POWERS, ROLES, roleAllows, SCOPES, type Permission } from '../../../functions/shared/domain/accounts/permissions';

/**
 * docs/api.md's table of scopes and people's powers as the permission table says it, so the two cannot drift apart
 * silently. Which route needs which is in the OpenAPI document (`x-permission`), generated from routes.ts.
 */
function permissionTableRows(): string[] {
  // Accepting an invitation needs no role: the person has none in that workspace yet.
  const holders = (permission: Permission) => (needsMembership(permission) ? ROLES.filter((role) => roleAllows(role, permission)).join(', ') : 'any signed-in person, in no workspace yet');
  const row = (permission: Permission, heldBy: string) => `| \`${permission}\` | ${heldBy} | ${holders(permission)} |`;
  return [
    '| Permission | Held by | Roles that hold it |',
    '|---|---|---|',
    ...SCOPES.map((scope) => row(scope, 'keys given this scope, and people')),
    ...PEOPLE_POWERS.map((power) => row(power, 'people only, never a key')),
  ];
}

describe('docs/api.md', () => {
  it('shows the scopes and people\'s powers, and the roles holding each, exactly as permissions.ts has them', () => {
    const lines = readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'api.md'), 'utf8').split('\n');
    const start = lines.indexOf('| Permission | Held by | Roles that hold it |');
    expect(start).toBeGreaterThan(-1);
    const end = lines.findIndex((line, index) => index > start && !line.startsWith('|'));
    expect(lines.slice(start, end === -1 ? undefined : end)).toEqual(permissionTableRows());
  });
});
