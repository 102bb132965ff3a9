import { config } from '../shared/config';
import { apiGuard } from '../shared/http/api-guard';
import { routedHandler } from '../shared/http/guarded-handler';
import { mailer, memberStore, peopleDirectory, workspaceSettings } from '../shared/people-wiring';
import type { PeopleDeps } from '../shared/domain/workspaces/people-management';
import { flagSource, usageCounter, workspaceKeyStore } from '../shared/wiring';
import { OPERATIONS } from './operations';

const deps: PeopleDeps = { members: memberStore(), keys: workspaceKeyStore(), workspaces: workspaceSettings(), mailer: mailer(), people: peopleDirectory(), dashboardUrl: config.dashboardUrl() };
const guard = apiGuard({ flags: flagSource(), usage: usageCounter(), upgradeUrl: config.upgradeUrl() });

/** /v2/workspace, /v2/members, /v2/invitations: a workspace's people, their roles and invitations (issue 29). */
export const handler = routedHandler(guard, OPERATIONS, deps);
