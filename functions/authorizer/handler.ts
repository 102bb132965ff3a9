import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authorizeCaller } from '../shared/domain/accounts/request-authorization';
import { joinScopes } from '../shared/domain/accounts/permissions';
import { header, WORKSPACE_HEADER } from '../shared/http/headers';
import { isPersonalRoute } from '../shared/http/routes';
import { logger } from '../shared/observability';
import { peopleAccess } from '../shared/people-wiring';
import { keyStore } from '../shared/wiring';

const keys = keyStore();
const people = peopleAccess();

/**
 * REQUEST authorizer of the v2 routes: an API key, or a person's access token with the workspace the request names
 * (`Shortener-Workspace`). A refusal is a Deny whose context carries the spec's 401 message; the ACCESS_DENIED
 * gateway response turns it into the 401 body (lib/gateway-responses.ts).
 */
async function authorize(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const verdict = await authorizeCaller(
    { authorization: header(event, 'authorization'), workspace: header(event, WORKSPACE_HEADER), personalRoute: isPersonalRoute(event.resource) },
    { findKeyByHash: (keyHash) => keys.findByHash(keyHash), ...(people ? { people } : {}) },
    Date.now(),
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
    },
  };
}

export const handler = middy(authorize).use(injectLambdaContext(logger, { resetKeys: true }));
