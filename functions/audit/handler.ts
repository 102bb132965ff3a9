import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { dynamo } from '../shared/adapters/clients';
import { config } from '../shared/config';
import { listAuditLog, parseAuditQuery } from '../shared/domain/audit/audit-listing';
import { accountCaller } from '../shared/http/account-caller';
import { apiGuard } from '../shared/http/api-guard';
import { guardedHandler } from '../shared/http/guarded-handler';
import { json } from '../shared/http/responses';
import { flagSource, usageCounter } from '../shared/wiring';

const log = new DynamoAuditLog(dynamo(), config.table('auditTable'));
const guard = apiGuard({ flags: flagSource(), usage: usageCounter(), upgradeUrl: config.upgradeUrl() });

/** GET /v2/audit-log: a workspace's record of every change, newest first. It only reads: nothing edits a record. */
export const handler = guardedHandler(guard, async (event, admission) =>
  json(200, await listAuditLog(accountCaller(admission).accountId, parseAuditQuery(event.queryStringParameters), log)),
);
