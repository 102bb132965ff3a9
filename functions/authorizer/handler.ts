import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { lastUseDue, type ApiKeyRecord } from '../shared/domain/accounts/api-keys';
import { authorizeCaller } from '../shared/domain/accounts/request-authorization';
import { joinScopes } from '../shared/domain/accounts/permissions';
import { header, WORKSPACE_HEADER } from '../shared/http/headers';
import { isPersonalRoute } from '../shared/http/routes';
import { logger } from '../shared/observability';
import { peopleAccess } from '../shared/person-access-wiring';
import { keyStore } from '../shared/wiring';

const keys = keyStore();
const people = peopleAccess();

/**
 * REQUEST authorizer of the v2 routes: an API key, or a person's access token with the workspace the request names
 * (`Shortener-Workspace`). A refusal is a Deny whose context carries the spec's 401 message; the ACCESS_DENIED
 * gateway response turns it into the 401 body (lib/gateway-responses.ts).
 */
async function authorize(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const nowMs = Date.now();
  // The key read, kept to note its last use (keys only).
  let found: ApiKeyRecord | undefined;
  const verdict = await authorizeCaller(
    { authorization: header(event, 'authorization'), workspace: header(event, WORKSPACE_HEADER), personalRoute: isPersonalRoute(event.resource) },
    { findKeyByHash: async (keyHash) => (found = await keys.findByHash(keyHash)), ...(people ? { people } : {}) },
    nowMs,
  );
  const policy = (effect: 'Allow' | 'Deny') => ({
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: event.methodArn }],
  });
  if (!verdict.allowed) {
    return { principalId: 'anonymous', policyDocument: policy('Deny'), context: { message: verdict.message } };
  }
  if (verdict.kind === 'personal') {
    logger.appendKeys({ keyId: verdict.keyId });
    return { principalId: verdict.keyId, policyDocument: policy('Allow'), context: { keyId: verdict.keyId, userId: verdict.userId, email: verdict.email ?? '' } };
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
      actor: JSON.stringify(verdict.actor),
      ...(verdict.mfa ? { mfaUsed: String(verdict.mfa.used), mfaRequired: String(verdict.mfa.required) } : {}),
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
