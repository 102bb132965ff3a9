import type { RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { EnvNames } from '../functions/shared/config';
import type { DataTables } from './data-tables';
import { ServiceFunction } from './service-function';
import type { PeopleSignIn } from './user-pool';

export interface SingleSignOnProps {
  tables: Pick<DataTables, 'members' | 'auditLog'>;
  signIn: PeopleSignIn;
  /** What the API guard needs (the flags' prefix and the upgrade URL). */
  apiEnvironment: Record<string, string>;
  removalPolicy: RemovalPolicy;
}

/**
 * ENTERPRISE workspaces' single sign-on (issue 29): the function behind /v2/sso, which keeps each connection in the
 * members table and registers its identity provider in the user pool, offered on the dashboard's app client.
 */
export class SingleSignOn extends Construct {
  readonly api: ServiceFunction;

  constructor(scope: Construct, id: string, props: SingleSignOnProps) {
    super(scope, id);
    this.api = new ServiceFunction(this, 'SsoFunction', {
      name: 'sso',
      description: 'Single sign-on connections of ENTERPRISE workspaces (/v2/sso)',
      environment: { ...props.apiEnvironment, [EnvNames.userPoolId]: props.signIn.userPool.userPoolId, [EnvNames.tokenClientId]: props.signIn.client.userPoolClientId, [EnvNames.tokenCliClientId]: props.signIn.cliClient.userPoolClientId },
      removalPolicy: props.removalPolicy,
    });
    this.api
      .bindTable(props.tables.members, EnvNames.membersTable, ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'])
      .bindTable(props.tables.auditLog, EnvNames.auditTable, ['PutItem']);
    // The pool's providers and the app client they are offered on: nothing about its users.
    this.api.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'cognito-idp:CreateIdentityProvider',
          'cognito-idp:UpdateIdentityProvider',
          'cognito-idp:DeleteIdentityProvider',
          'cognito-idp:DescribeUserPoolClient',
          'cognito-idp:UpdateUserPoolClient',
        ],
        resources: [props.signIn.userPool.userPoolArn],
      }),
    );
  }
}
