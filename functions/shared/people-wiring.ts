import { dynamo, sesv2 } from './adapters/clients';
import { DynamoMemberStore } from './adapters/dynamo-member-store';
import { DynamoWorkspaceSettings } from './adapters/dynamo-workspace-settings';
import { SesMailer } from './adapters/ses-mailer';
import { config } from './config';

/** The workspace function's adapters (issue 29), apart from wiring.ts so no other bundle carries the SES client. */
export const memberStore = () => new DynamoMemberStore(dynamo(), config.table('membersTable'), config.table('auditTable'));
export const workspaceSettings = () => new DynamoWorkspaceSettings(dynamo(), config.table('accountsTable'), config.table('auditTable'));
export const mailer = () => new SesMailer(sesv2(), config.mailFrom());
