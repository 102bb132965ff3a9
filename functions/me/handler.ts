import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { dynamo } from '../shared/adapters/clients';
import { DynamoMemberStore } from '../shared/adapters/dynamo-member-store';
import { config } from '../shared/config';
import { meView } from '../shared/domain/accounts/me';
import { NotPermitted } from '../shared/domain/errors';
import { OwnMessages } from '../shared/domain/messages';
import { errorResponse } from '../shared/http/error-responses';
import { requestInfo } from '../shared/http/request-info';
import { json } from '../shared/http/responses';
import { logger, publishMetrics } from '../shared/observability';

const members = new DynamoMemberStore(dynamo(), config.table('membersTable'));

/**
 * GET /v2/me: who the signed-in person is and which workspaces they are in. A person's own route (routes.ts
 * `personal`): the authorizer vouched for their token alone, so it runs no workspace's guard (no limits of a
 * workspace to count); a key reaches it as a workspace's caller and is refused as people-only.
 */
async function me(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const { userId, email } = (event.requestContext.authorizer ?? {}) as Record<string, unknown>;
  if (typeof userId !== 'string' || userId === '') {
    return errorResponse(new NotPermitted('profile:read', OwnMessages.peopleOnly('profile:read')), requestInfo(event), config.upgradeUrl(), Date.now());
  }
  try {
    const memberships = await members.workspacesOf(userId);
    return json(200, meView({ userId, ...(typeof email === 'string' && email !== '' ? { email } : {}) }, memberships));
  } catch (error) {
    logger.error('GET /v2/me failed', { error });
    return errorResponse(error, requestInfo(event), config.upgradeUrl(), Date.now());
  }
}

export const handler = middy(me).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics());
