import { CognitoAccessTokens } from './adapters/cognito-access-tokens';
import { cognito, dynamo, sesv2 } from './adapters/clients';
import { CognitoPeopleDirectory } from './adapters/cognito-people-directory';
import { DynamoAccountStore } from './adapters/dynamo-account-store';
import { DynamoMemberStore } from './adapters/dynamo-member-store';
import { DynamoWorkspaceSettings } from './adapters/dynamo-workspace-settings';
import { SesMailer } from './adapters/ses-mailer';
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
    account: (accountId) => accounts.find(accountId),
  };
}

/** The workspace function's adapters (its people, settings and mail). */
export const memberStore = () => new DynamoMemberStore(dynamo(), config.table('membersTable'), config.table('auditTable'));
export const workspaceSettings = () => new DynamoWorkspaceSettings(dynamo(), config.table('accountsTable'), config.table('auditTable'));
export const mailer = () => new SesMailer(sesv2(), config.mailFrom());
export const peopleDirectory = () => new CognitoPeopleDirectory(cognito(), config.userPoolId());
