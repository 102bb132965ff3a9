import { CognitoAccessTokens } from './adapters/cognito-access-tokens';
import { dynamo } from './adapters/clients';
import { DynamoAccountStore } from './adapters/dynamo-account-store';
import { DynamoMemberStore } from './adapters/dynamo-member-store';
import { config } from './config';
import type { PeopleAccess } from './domain/accounts/request-authorization';

/**
 * People's access tokens and what authorizes them (the authorizer), apart from wiring.ts so that no other bundle
 * carries the token verifier; undefined where no user pool is configured (keys only).
 */
export function peopleAccess(): PeopleAccess | undefined {
  const settings = config.accessTokens();
  if (!settings) return undefined;
  const accounts = new DynamoAccountStore(dynamo(), config.table('accountsTable'));
  return {
    tokens: new CognitoAccessTokens(settings),
    memberships: new DynamoMemberStore(dynamo(), config.table('membersTable')),
    account: (accountId) => accounts.find(accountId, { consistent: true }),
  };
}
