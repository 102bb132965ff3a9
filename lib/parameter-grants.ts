import { Stack } from 'aws-cdk-lib';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/**
 * GetParameter on one parameter by name, and nothing else: StringParameter.grantRead would add its history and
 * DescribeParameters, which no function calls. Names of SecureStrings need their key's grant beside this.
 */
export function allowGetParameter(scope: Construct, grantee: IGrantable, parameterName: string): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['ssm:GetParameter'],
      resources: [Stack.of(scope).formatArn({ service: 'ssm', resource: 'parameter', resourceName: parameterName.replace(/^\//, '') })],
    }),
  );
}
