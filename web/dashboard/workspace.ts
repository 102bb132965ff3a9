import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { roleAllows, type Permission, type Role } from '../../functions/shared/domain/accounts/permissions';
import { permissionFor, type ApiRouteKey } from '../../functions/shared/http/routes';

/** The workspace this tab works in and the person's role there (from `GET /v2/me`). */
export interface ChosenWorkspace {
  workspaceId: string;
  role: Role;
}

export const WorkspaceContext = createContext<ChosenWorkspace | undefined>(undefined);

/**
 * Whether the person's role allows `permission` in the chosen workspace: the API's own table
 * (functions/shared/domain/accounts/permissions.ts, bundled), so a control is shown exactly where the API would
 * accept it. Hiding is a courtesy: the API refuses anyway.
 */
export function useCan(permission: Permission): boolean {
  const workspace = useContext(WorkspaceContext);
  return workspace !== undefined && roleAllows(workspace.role, permission);
}

/**
 * Whether the API would let the person make this call (`'POST /v2/keys'`): the route's own permission
 * (functions/shared/http/routes.ts) under their role, so a page restates neither table.
 */
export function useAllowed(route: ApiRouteKey): boolean {
  const workspace = useContext(WorkspaceContext);
  const [method = '', path = ''] = route.split(' ');
  const permission = permissionFor(path, method);
  return workspace !== undefined && (permission === undefined || roleAllows(workspace.role, permission));
}

/** The stored choice when the person is still in that workspace, else their first. */
export function chooseWorkspace<T extends { workspaceId: string }>(workspaces: readonly T[], stored: string | undefined): T | undefined {
  return workspaces.find((workspace) => workspace.workspaceId === stored) ?? workspaces[0];
}
