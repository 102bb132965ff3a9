import { Match, Template } from 'aws-cdk-lib/assertions';
import { EnvNames } from '../../functions/shared/config';
import { buildStack } from './app-factory';

const dev = Template.fromStack(buildStack({ stage: 'dev' }).stack);
const [poolId] = Object.keys(dev.findResources('AWS::Cognito::UserPool'));
const [ssoFunction] = Object.keys(dev.findResources('AWS::Lambda::Function', { Properties: { Description: Match.stringLikeRegexp('Single sign-on') } }));

type Statement = { Action: string | string[]; Resource: unknown };
function statementsOf(functionId: string): Statement[] {
  const role = (dev.toJSON() as { Resources: Record<string, { Properties: { Role?: { 'Fn::GetAtt': string[] } } }> }).Resources[functionId]?.Properties.Role?.['Fn::GetAtt'][0];
  const policies = dev.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } });
  return Object.values(policies).flatMap((policy) => (policy as { Properties: { PolicyDocument: { Statement: Statement[] } } }).Properties.PolicyDocument.Statement);
}

describe('single sign-on (issue 29)', () => {
  it('routes /v2/sso and below to its own function behind the authorizer', () => {
    expect(ssoFunction).toBeDefined();
    for (const path of ['sso', '{domain}', 'verify']) dev.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: path });
  });

  it('may change the user pool\'s identity providers and read and write its app client, nothing about its users', () => {
    const cognito = statementsOf(ssoFunction as string).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('cognito-idp:')));
    expect(cognito).toHaveLength(1);
    expect([cognito[0]?.Action].flat().sort()).toEqual([
      'cognito-idp:CreateIdentityProvider',
      'cognito-idp:DeleteIdentityProvider',
      'cognito-idp:DescribeUserPoolClient',
      'cognito-idp:UpdateIdentityProvider',
      'cognito-idp:UpdateUserPoolClient',
    ]);
    expect(cognito[0]?.Resource).toEqual({ 'Fn::GetAtt': [poolId, 'Arn'] });
  });

  it('offers a provider on both app clients, the dashboard\'s and the command line\'s, so neither takes the domain\'s people by password', () => {
    const clientIds = Object.keys(dev.findResources('AWS::Cognito::UserPoolClient'));
    const variables = (dev.toJSON() as { Resources: Record<string, { Properties: { Environment: { Variables: Record<string, unknown> } } }> }).Resources[ssoFunction as string]?.Properties.Environment.Variables ?? {};
    expect([variables[EnvNames.tokenClientId], variables[EnvNames.tokenCliClientId]]).toEqual(clientIds.map((id) => ({ Ref: id })));
  });

  it('writes the audit log only by adding records, never changing or deleting one', () => {
    const onAudit = statementsOf(ssoFunction as string).filter((statement) => JSON.stringify(statement.Resource).includes('AuditLog'));
    expect(onAudit.flatMap((statement) => [statement.Action].flat())).toEqual(['dynamodb:PutItem']);
  });
});
