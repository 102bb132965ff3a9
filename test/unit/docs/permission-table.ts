import { PEOPLE_POWERS, ROLES, roleAllows, SCOPES, type Permission } from '../../../functions/shared/domain/accounts/permissions';

/**
 * docs/api.md's table of scopes and people's powers as the permission table says it: the doc's rows must be exactly
 * these (permission-table.test.ts), so the two cannot drift apart silently. Which route needs which is in the
 * OpenAPI document (`x-permission`), generated from routes.ts.
 */
export function permissionTableRows(): string[] {
  const row = (permission: Permission, heldBy: string) => `| \`${permission}\` | ${heldBy} | ${ROLES.filter((role) => roleAllows(role, permission)).join(', ')} |`;
  return [
    '| Permission | Held by | Roles that hold it |',
    '|---|---|---|',
    ...SCOPES.map((scope) => row(scope, 'keys given this scope, and people')),
    ...PEOPLE_POWERS.map((power) => row(power, 'people only, never a key')),
  ];
}
