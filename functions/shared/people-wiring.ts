import { cognito, dynamo, sesv2 } from './adapters/clients';
import { CognitoPeopleDirectory } from './adapters/cognito-people-directory';
import { DynamoMemberStore } from './adapters/dynamo-member-store';
import { DynamoWorkspaceSettings } from './adapters/dynamo-workspace-settings';
import { SesMailer } from './adapters/ses-mailer';
import { config } from './config';

/**
 * The workspace function's adapters (its people, settings and mail), apart from wiring.ts so no other bundle carries
 * the SES client; the authorizer's are in person-access-wiring.ts.
 */
export const memberStore = () => new DynamoMemberStore(dynamo(), config.table('membersTable'), config.table('auditTable'));
export const workspaceSettings = () => new DynamoWorkspaceSettings(dynamo(), config.table('accountsTable'), config.table('auditTable'));
export const mailer = () => new SesMailer(sesv2(), config.mailFrom());
export const peopleDirectory = () => new CognitoPeopleDirectory(cognito(), config.userPoolId());
