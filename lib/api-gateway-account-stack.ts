import { ArnFormat, Stack, Token, Validations, type StackProps } from 'aws-cdk-lib';
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/**
 * Where API Gateway writes: execution logs under its own name, access logs in groups the stages name so. The second
 * prefix also covers `/aws/apigateway/welcome`, the group API Gateway writes to when the account's role is set, to
 * check the role works.
 */
export const API_GATEWAY_LOG_GROUP_PREFIXES = { execution: 'API-Gateway-Execution-Logs_', access: '/aws/apigateway/' } as const;

/**
 * API Gateway's CloudWatch role is one setting per account and region, so it lives in a stack of its own that every
 * stage depends on: two stages claiming it would overwrite each other, and deleting one would unset it for both.
 * The role may write only to API Gateway's log groups, instead of the managed policy that can read every group.
 */
export class ApiGatewayAccountStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const prefixes = Object.values(API_GATEWAY_LOG_GROUP_PREFIXES);
    const logGroups = prefixes.map((prefix) =>
      this.formatArn({ service: 'logs', resource: 'log-group', resourceName: `${prefix}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME }),
    );
    const role = new Role(this, 'CloudWatchRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: 'API Gateway writes execution and access logs of this account\'s APIs',
      inlinePolicies: {
        writeApiGatewayLogs: new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents', 'logs:DescribeLogStreams', 'logs:PutRetentionPolicy'],
              resources: logGroups.flatMap((group) => [group, `${group}:*`]),
            }),
            // Listing groups has no resource narrower than the account's groups.
            new PolicyStatement({ actions: ['logs:DescribeLogGroups'], resources: [this.formatArn({ service: 'logs', resource: 'log-group', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME })] }),
          ],
        }),
      },
    });
    new CfnAccount(this, 'Account', { cloudWatchRoleArn: role.roleArn });
    const reason = 'API Gateway names its execution log groups after each API id and stage: the role is held to its two prefixes, and may only list groups beyond them.';
    const account = Token.isUnresolved(this.account) ? '<AWS::AccountId>' : this.account;
    const groupArn = (name: string) => `arn:<AWS::Partition>:logs:${this.region}:${account}:log-group:${name}`;
    const evidence = [...prefixes.flatMap((prefix) => [groupArn(`${prefix}*`), groupArn(`${prefix}*:*`)]), groupArn('*')];
    for (const resource of evidence) Validations.of(role).acknowledge({ id: `AwsSolutions-IAM5[Resource::${resource}]`, reason });
  }
}
