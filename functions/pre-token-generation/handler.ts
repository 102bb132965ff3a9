import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { CognitoMfaSettings } from '../shared/adapters/cognito-mfa-settings';
import { cognito } from '../shared/adapters/clients';
import { MFA_CLAIM, signInUsedMfa } from '../shared/domain/accounts/sign-in-mfa';
import { logger } from '../shared/observability';

const settings = new CognitoMfaSettings(cognito());

/**
 * The user pool's pre-token-generation trigger (V2, access-token customization): writes `mfa: true` into the access
 * token when its sign-in used MFA (sign-in-mfa.ts), the claim a workspace that requires MFA asks for. A failure
 * fails the sign-in (Cognito refuses to issue tokens): never a token that claims what was not checked.
 */
async function addSignInClaims(event: PreTokenGenerationV2TriggerEvent): Promise<PreTokenGenerationV2TriggerEvent> {
  const federated = event.request.userAttributes.identities !== undefined;
  const mfaMethods = federated ? [] : await settings.methodsOf(event.userPoolId, event.userName);
  if (!signInUsedMfa({ federated, mfaMethods })) return event;
  // V2 claims may be booleans; the type says strings only.
  const claims = { [MFA_CLAIM]: true } as unknown as Record<string, string>;
  event.response = { claimsAndScopeOverrideDetails: { ...event.response.claimsAndScopeOverrideDetails, accessTokenGeneration: { claimsToAddOrOverride: claims } } };
  return event;
}

export const handler = middy(addSignInClaims).use(injectLambdaContext(logger, { resetKeys: true }));
