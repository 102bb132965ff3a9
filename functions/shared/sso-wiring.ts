import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { CognitoIdentityProviders } from './adapters/cognito-identity-providers';
import { dynamo } from './adapters/clients';
import { DynamoSsoStore } from './adapters/dynamo-sso-store';
import { ResolverTxtRecords } from './adapters/dns-txt-records';
import { config } from './config';
import type { IdentityProviders, SsoStore, TxtRecords } from './domain/ports';

/** The SSO function's adapters, apart from wiring.ts so no other bundle carries the Cognito client. */
export function ssoStore(): SsoStore {
  return new DynamoSsoStore(dynamo(), config.table('membersTable'), config.table('auditTable'));
}

/** Cognito on AWS; a local run points the SDK at its stand-in (AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER). */
export function identityProviders(): IdentityProviders {
  const { userPoolId, appClientIds } = config.ssoPool();
  return new CognitoIdentityProviders(new CognitoIdentityProviderClient({}), userPoolId, appClientIds);
}

/** Where email domains prove themselves, as custom domains do: DNS, after a local run's file (LOCAL_DNS_TXT_FILE). */
export function ssoTxtRecords(): TxtRecords {
  return new ResolverTxtRecords(config.localDnsTxtFile());
}
