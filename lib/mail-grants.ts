import { Stack } from 'aws-cdk-lib';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/**
 * SES v2 SendEmail from one sender and nothing else: on the sender's identity (the address, or its domain when the
 * domain is what was verified), on condition that the From address is that sender.
 */
export function allowSendingMail(scope: Construct, grantee: IGrantable, from: string): void {
  const stack = Stack.of(scope);
  const domain = from.slice(from.lastIndexOf('@') + 1);
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [from, domain].map((identity) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity })),
      conditions: { StringEquals: { 'ses:FromAddress': from } },
    }),
  );
}
