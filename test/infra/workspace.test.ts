import { Template } from 'aws-cdk-lib/assertions';
import { KEYS_BY_ACCOUNT_INDEX } from '../../functions/shared/config';
import { ROUTES } from '../../functions/shared/http/routes';
import { buildStack } from './app-factory';

/** The workspace function (issue 29): its routes behind the authorizer, the least table calls, mail from one sender. */
const template = Template.fromStack(buildStack({ stage: 'dev' }).stack);
interface Resource {
  Type: string;
  Properties: {
    Environment?: { Variables?: Record<string, unknown> };
    Role?: { 'Fn::GetAtt': string[] };
    Roles?: Array<{ Ref: string }>;
    PolicyDocument?: { Statement: Array<{ Action: string | string[]; Resource: unknown; Condition?: unknown }> };
    Integration?: { Uri?: unknown };
    AuthorizationType?: string;
  };
}
const resources = template.toJSON().Resources as Record<string, Resource>;
const [functionId, fn] = Object.entries(resources).find(([, resource]) => resource.Type === 'AWS::Lambda::Function' && resource.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME === 'workspace') ?? [];
const roleId = fn?.Properties.Role?.['Fn::GetAtt'][0];
const statements = Object.values(resources)
  .filter((resource) => resource.Type === 'AWS::IAM::Policy' && (resource.Properties.Roles ?? []).some((role) => role.Ref === roleId))
  .flatMap((policy) => policy.Properties.PolicyDocument?.Statement ?? []);

function grantsOn(tablePrefix: string): string[] {
  return statements
    .filter((statement) => JSON.stringify(statement.Resource).includes(`"${tablePrefix}`))
    .flatMap((statement) => ([] as string[]).concat(statement.Action))
    .sort();
}

describe('the workspace function', () => {
  it('serves every people route, each behind the authorizer', () => {
    const paths = ROUTES.filter((route) => route.target === 'workspace').map((route) => route.path);
    expect(paths).toEqual(['/v2/workspace', '/v2/members', '/v2/members/{userId}', '/v2/invitations', '/v2/invitations/{id}', '/v2/invitations/{id}/accept']);
    const methods = Object.values(resources).filter(
      (resource) => resource.Type === 'AWS::ApiGateway::Method' && JSON.stringify(resource.Properties.Integration?.Uri ?? '').includes(functionId as string),
    );
    expect(methods).toHaveLength(9);
    for (const method of methods) expect(method.Properties.AuthorizationType).toBe('CUSTOM');
  });

  it('may make only the DynamoDB calls of its stores, and only put audit records, never read or change them', () => {
    expect(grantsOn('DataMembers')).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    expect(grantsOn('DataAuditLog')).toEqual(['dynamodb:PutItem']);
    expect(grantsOn('DataAccounts')).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect(grantsOn('DataUsage')).toEqual(['dynamodb:UpdateItem']);
    // A removed or demoted person's keys: listed from the byAccount index and revoked, never made or read by hash.
    expect(grantsOn('DataApiKeys')).toEqual(['dynamodb:Query', 'dynamodb:UpdateItem']);
    const keyQueries = statements.filter((statement) => statement.Action === 'dynamodb:Query' && JSON.stringify(statement.Resource).includes('"DataApiKeys'));
    expect(keyQueries.map((statement) => JSON.stringify(statement.Resource))).toEqual([expect.stringContaining(`/index/${KEYS_BY_ACCOUNT_INDEX}`)]);
    for (const other of ['DataLinks', 'DataDomains', 'DataWebhooks']) expect(grantsOn(other)).toEqual([]);
  });

  it('reads people\'s verified emails from the user pool (AdminGetUser) and signs removed members out (AdminUserGlobalSignOut), nothing else of it', () => {
    const cognito = statements.filter((statement) => ([] as string[]).concat(statement.Action).some((action) => action.startsWith('cognito-idp:')));
    expect(cognito.map((statement) => statement.Action)).toEqual([['cognito-idp:AdminGetUser', 'cognito-idp:AdminUserGlobalSignOut']]);
    expect(JSON.stringify(cognito[0]?.Resource)).toMatch(/SignInPool[A-Z0-9]+", "Arn"|UserPool/);
    expect(fn?.Properties.Environment?.Variables?.USER_POOL_ID).toEqual({ Ref: expect.stringMatching(/Pool/) });
  });

  it('sends mail only as the stage\'s sender, through SES v2 SendEmail on its identity', () => {
    const mail = statements.filter((statement) => ([] as string[]).concat(statement.Action).some((action) => action.startsWith('ses:')));
    expect(mail).toHaveLength(1);
    expect(mail[0]?.Action).toBe('ses:SendEmail');
    expect(JSON.stringify(mail[0]?.Resource)).toContain(':identity/invitations@example.com');
    expect(JSON.stringify(mail[0]?.Resource)).toContain(':identity/example.com');
    expect(mail[0]?.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'invitations@example.com' } });
    expect(fn?.Properties.Environment?.Variables).toMatchObject({ MAIL_FROM: 'invitations@example.com', DASHBOARD_URL: expect.anything(), MEMBERS_TABLE: expect.anything(), AUDIT_TABLE: expect.anything() });
  });
});
