import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { lastUseDue, verdictFor, type ApiKeyRecord } from '../shared/domain/accounts/api-keys';
import { joinScopes } from '../shared/domain/accounts/permissions';
import { header } from '../shared/http/headers';
import { logger } from '../shared/observability';
import { keyStore } from '../shared/wiring';

const keys = keyStore();

/**
 * REQUEST authorizer of the v2 routes. A refusal is a Deny whose context carries the spec's 401 message;
 * the ACCESS_DENIED gateway response turns it into the 401 body (lib/gateway-responses.ts).
 */
async function authorize(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const nowMs = Date.now();
  let found: ApiKeyRecord | undefined;
  const verdict = await verdictFor(header(event, 'authorization'), async (keyHash) => (found = await keys.findByHash(keyHash)), nowMs);
  const policy = (effect: 'Allow' | 'Deny') => ({
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: event.methodArn }],
  });
  if (!verdict.allowed) {
    return { principalId: 'anonymous', policyDocument: policy('Deny'), context: { message: verdict.message } };
  }
  logger.appendKeys({ keyId: verdict.keyId, accountId: verdict.accountId });
  if (found && lastUseDue(found, nowMs)) noteUse(found.keyHash, nowMs);
  return {
    principalId: verdict.keyId,
    policyDocument: policy('Allow'),
    context: {
      keyId: verdict.keyId,
      accountId: verdict.accountId,
      owner: verdict.owner,
      plan: verdict.plan,
      monthlyLimit: verdict.monthlyLimit ?? '',
      scopes: joinScopes(verdict.scopes),
      actor: JSON.stringify({ kind: 'key', keyId: verdict.keyId, ...(verdict.label !== undefined ? { name: verdict.label } : {}) }),
    },
  };
}

/**
 * Not awaited: the answer does not wait for a bookkeeping write. Lambda may freeze the container before the write
 * finishes; it then completes on the container's next request, or is lost with the container, and the key's next
 * request tries again (the stored value is still an hour old). A failure never refuses a key.
 */
function noteUse(keyHash: string, nowMs: number): void {
  keys.recordUse(keyHash, nowMs).catch((error: unknown) => logger.warn('could not note the key\'s last use', { error: error as Error }));
}

export const handler = middy(authorize).use(injectLambdaContext(logger, { resetKeys: true }));
