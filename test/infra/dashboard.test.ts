import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { buildStack } from './app-factory';
import { buildDashboard } from '../../web/build';
import { dashboardContentSecurityPolicy } from '../../web/content-security-policy';
import { dashboardApiPathsCode, dashboardPagesCode, DASHBOARD_CACHE_CONTROL } from '../../lib/dashboard';
import { WAF_RATE_LIMITS } from '../../lib/capacity';
import { ORIGIN_VERIFY_HEADER } from '../../functions/shared/http/trusted-viewer';
import { StackOutputs } from '../../lib/stack-outputs';
import { PeopleSignIn } from '../../lib/user-pool';

/** Issue 20: the dashboard's hosting (S3 behind the API's own CloudFront distribution), its policy and its budget. */
const built = buildStack({ stage: 'dev', originSecretGeneration: '3' });
const dev = Template.fromStack(built.stack);
const edgeStack = built.app.node.children.find((child): child is Stack => child instanceof Stack && child.stackName === 'shortener-dev-edge');
const edge = Template.fromStack(edgeStack as Stack);
const distributions = dev.findResources('AWS::CloudFront::Distribution');
const [, dashboard] = Object.entries(distributions).find(([id]) => id.startsWith('Dashboard')) ?? [];
const config = dashboard?.Properties.DistributionConfig as {
  Comment: string;
  WebACLId: unknown;
  DefaultCacheBehavior: Record<string, unknown> & { FunctionAssociations?: Array<{ EventType: string; FunctionARN: { 'Fn::GetAtt': [string, string] } }> };
  CacheBehaviors: Array<{ PathPattern: string; TargetOriginId: string; ResponseHeadersPolicyId: { Ref: string }; FunctionAssociations: unknown[]; AllowedMethods: string[] }>;
  Origins: Array<{ Id: string; DomainName: unknown; OriginPath?: string; OriginAccessControlId?: unknown; S3OriginConfig?: unknown; OriginCustomHeaders?: Array<{ HeaderName: string; HeaderValue: unknown }> }>;
};
type WebAcl = { Properties: { Scope: string; Rules: Array<{ Name: string; Statement: Record<string, unknown> & { RateBasedStatement: { Limit: number; AggregateKeyType: string; ScopeDownStatement?: unknown } } }> } };

describe('the dashboard on the API\'s host', () => {
  it('sends everything but /app to the API, uncached, with every viewer header but Host (Authorization among them)', () => {
    const api = config.Origins.find((origin) => origin.Id === config.DefaultCacheBehavior.TargetOriginId);
    expect(JSON.stringify(api?.DomainName)).toContain('.execute-api.');
    expect(api?.OriginPath).toBe('/dev');
    expect(config.DefaultCacheBehavior).toMatchObject({
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // AllViewerExceptHostHeader
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']),
    });
  });

  it('answers everything on the API behavior but the API\'s routes at the edge, with its own viewer-request function', () => {
    const association = config.DefaultCacheBehavior.FunctionAssociations ?? [];
    expect(association.map((candidate) => candidate.EventType)).toEqual(['viewer-request']);
    const functionId = association[0]?.FunctionARN['Fn::GetAtt'][0] ?? '';
    expect(dev.toJSON().Resources[functionId]).toMatchObject({ Type: 'AWS::CloudFront::Function', Properties: { FunctionCode: dashboardApiPathsCode(), FunctionConfig: { Runtime: 'cloudfront-js-2.0' } } });
  });

  it('sends the origin secret to the API (its generation in the comment, so a rotation re-reads it), nothing to the bucket', () => {
    const api = config.Origins.find((origin) => origin.Id === config.DefaultCacheBehavior.TargetOriginId);
    expect(api?.OriginCustomHeaders).toEqual([{ HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: expect.stringMatching(/^OriginVerifySecret/) }, ':SecretString:current::}}']] } }]);
    expect(config.Origins.filter((origin) => origin.OriginAccessControlId).map((origin) => origin.OriginCustomHeaders)).toEqual([undefined]);
    expect(config.Comment).toContain('origin secret generation 3');
  });

  it('limits API callers per viewer address with a CLOUDFRONT web ACL of its own in us-east-1, v1 far more tightly', () => {
    expect(edgeStack?.region).toBe('us-east-1');
    expect(JSON.stringify(config.WebACLId)).toMatch(/ApiCallersWebAcl/);
    const [acl] = Object.entries(edge.findResources('AWS::WAFv2::WebACL')).filter(([id]) => id.startsWith('ApiCallersWebAcl')).map(([, resource]) => resource as WebAcl);
    expect(acl?.Properties.Scope).toBe('CLOUDFRONT');
    expect(acl?.Properties.Rules.map((rule) => [rule.Name, rule.Statement.RateBasedStatement.Limit, rule.Statement.RateBasedStatement.AggregateKeyType, JSON.stringify(rule.Statement.RateBasedStatement.ScopeDownStatement)])).toEqual([
      ['AnonymousPerAddress', WAF_RATE_LIMITS.anonymousPerAddress, 'IP', expect.stringContaining('"/v1/"')],
      ['ApiPerAddress', WAF_RATE_LIMITS.apiPerAddress, 'IP', expect.stringContaining('"/v2/"')],
    ]);
  });

  it('leaves the counting of CloudFront\'s API callers to the edge: the stage\'s web ACL counts only requests without the origin header', () => {
    const regional = Object.values(dev.findResources('AWS::WAFv2::WebACL')).map((resource) => resource as WebAcl).find((acl) => acl.Properties.Scope === 'REGIONAL');
    const withoutOriginHeader = { NotStatement: { Statement: { SizeConstraintStatement: expect.objectContaining({ FieldToMatch: { SingleHeader: { Name: ORIGIN_VERIFY_HEADER } } }) } } };
    for (const name of ['AnonymousPerAddress', 'ApiPerAddress']) {
      const rule = regional?.Properties.Rules.find((candidate) => candidate.Name === name);
      expect(rule?.Statement.RateBasedStatement.ScopeDownStatement).toEqual({ AndStatement: { Statements: [expect.anything(), withoutOriginHeader] } });
    }
  });

  it('counts v1 callers by the viewer\'s address beside the origin secret: the creation functions can read it', () => {
    for (const name of ['create', 'batch']) {
      const [fn] = Object.values(dev.findResources('AWS::Lambda::Function', { Properties: { Environment: { Variables: { POWERTOOLS_SERVICE_NAME: name } } } }));
      expect((fn as { Properties: { Environment: { Variables: Record<string, string> } } }).Properties.Environment.Variables.ORIGIN_VERIFY_PARAMETER).toBe('/aws/reference/secretsmanager/shortener-dev-origin-verify');
    }
  });

  it('serves /app from a private bucket through origin access control, hashed assets first', () => {
    expect(config.CacheBehaviors.map((behavior) => behavior.PathPattern)).toEqual(['/app/assets/*', '/app', '/app/*']);
    const files = config.Origins.find((origin) => origin.Id === config.CacheBehaviors[0]?.TargetOriginId);
    expect(files?.OriginAccessControlId).toBeDefined();
    expect(new Set(config.CacheBehaviors.map((behavior) => behavior.TargetOriginId)).size).toBe(1);
    for (const behavior of config.CacheBehaviors) {
      expect(behavior.AllowedMethods).toEqual(['GET', 'HEAD']);
      expect(behavior.FunctionAssociations).toEqual([expect.objectContaining({ EventType: 'viewer-request' })]);
    }
    dev.hasResourceProperties('AWS::CloudFront::OriginAccessControl', { OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }) });
    dev.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: Match.anyValue(),
    });
    // Only CloudFront, for this distribution, may read it; nothing over plain HTTP.
    const policy = JSON.stringify(dev.findResources('AWS::S3::BucketPolicy'));
    expect(policy).toContain('cloudfront.amazonaws.com');
    expect(policy).toContain('AWS:SourceArn');
    expect(policy).toContain('"aws:SecureTransport":"false"');
    dev.hasResourceProperties('Custom::CDKBucketDeployment', { DestinationBucketKeyPrefix: 'app/', DistributionPaths: ['/app', '/app/*'] });
    dev.hasOutput(StackOutputs.dashboardUrl, { Value: Match.objectLike({ 'Fn::Join': ['', ['https://', Match.anyValue(), '/app/']] }) });
  });

  it('sends a Content-Security-Policy of its own origin (and the sign-in provider\'s for fetches) only, and caches the page briefly, hashed files for a year', () => {
    const policies = config.CacheBehaviors.map((behavior) => dev.toJSON().Resources[behavior.ResponseHeadersPolicyId.Ref].Properties.ResponseHeadersPolicyConfig);
    const [domainId] = Object.keys(dev.findResources('AWS::Cognito::UserPoolDomain'));
    const expected = dashboardContentSecurityPolicy(['https://cognito-idp.eu-west-1.<AWS::URLSuffix>', `https://<${domainId}>.auth.eu-west-1.amazoncognito.com`]);
    for (const policy of policies) {
      expect(joined(policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy)).toBe(expected);
      expect(policy.SecurityHeadersConfig).toMatchObject({
        ContentSecurityPolicy: { Override: true },
        FrameOptions: { FrameOption: 'DENY', Override: true },
        ContentTypeOptions: { Override: true },
        ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
      });
    }
    expect(policies.map((policy) => policy.CustomHeadersConfig.Items)).toEqual([
      [{ Header: 'Cache-Control', Value: DASHBOARD_CACHE_CONTROL.assets, Override: true }],
      [{ Header: 'Cache-Control', Value: DASHBOARD_CACHE_CONTROL.page, Override: true }],
      [{ Header: 'Cache-Control', Value: DASHBOARD_CACHE_CONTROL.page, Override: true }],
    ]);
    // No source but the page's own origin (and blob:/data: images the page makes itself); nothing inline; only
    // fetches may go to the provider (discovery, tokens, revocation), never a script, a style or a frame.
    const directives = new Map(expected.split(';').map((directive) => directive.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));
    expect(new Set([...directives].filter(([name]) => name !== 'connect-src').flatMap(([, sources]) => sources))).toEqual(new Set(["'none'", "'self'", 'blob:', 'data:']));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'", expect.stringMatching(/^https:\/\/cognito-idp\./), expect.stringMatching(/\.amazoncognito\.com$/)]);
  });

  it('writes the sign-in settings beside the page at deploy time: the pool\'s issuer, its client and that client\'s exact callback (issue 29)', () => {
    const [clientId, client] = Object.entries(dev.findResources('AWS::Cognito::UserPoolClient'))[0] ?? [];
    const [poolId] = Object.keys(dev.findResources('AWS::Cognito::UserPool'));
    const [domainId] = Object.keys(dev.findResources('AWS::Cognito::UserPoolDomain'));
    const deployment = Object.values(dev.findResources('Custom::CDKBucketDeployment'))[0] as { Properties: { SourceMarkers: Array<Record<string, unknown>>; SourceObjectKeys: unknown[] } };
    // Source.jsonData: a second source whose markers stand for the deploy-time values in config.json.
    expect(deployment.Properties.SourceObjectKeys).toHaveLength(2);
    const markers = JSON.stringify(deployment.Properties.SourceMarkers);
    for (const id of [clientId, poolId, domainId]) expect(markers).toContain(`"Ref":"${id}"`);
    // The page's callback and sign-out URLs are the client's own, so the page and the pool cannot disagree.
    const signIn = built.stack.node.findAll().find((construct): construct is PeopleSignIn => construct instanceof PeopleSignIn);
    const settings = built.stack.resolve(signIn?.dashboardSignIn.config) as Record<string, unknown>;
    expect(settings.redirectUri).toEqual(client?.Properties.CallbackURLs[0]);
    expect(settings.signOutRedirectUri).toEqual(client?.Properties.LogoutURLs[0]);
    expect(joined(settings.redirectUri)).toMatch(/\/app\/signed-in$/);
    expect(joined(settings.issuer)).toBe(`https://cognito-idp.eu-west-1.<AWS::URLSuffix>/<${poolId}>`);
    expect(joined(settings.revocationEndpoint)).toBe(`https://<${domainId}>.auth.eu-west-1.amazoncognito.com/oauth2/revoke`);
  });
});

/** A CloudFormation Fn::Join as text, references written `<id>`. */
function joined(value: unknown): string {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (join) return join[1].map(joined).join(join[0]);
  const getAtt = (value as { 'Fn::GetAtt'?: string[] })['Fn::GetAtt'];
  return `<${getAtt ? getAtt.join('.') : (value as { Ref: string }).Ref}>`;
}

describe('the viewer-request function of /app', () => {
  const handler = new Function(`${dashboardPagesCode()}\nreturn handler;`)() as (event: { request: { uri: string } }) => { uri: string };
  it.each([
    ['/app', '/app/index.html'],
    ['/app/', '/app/index.html'],
    ['/app/links/abc', '/app/index.html'],
    ['/app/domains', '/app/index.html'],
    ['/app/assets/main-ABC.js', '/app/assets/main-ABC.js'],
    ['/app/index.html', '/app/index.html'],
  ])('sends %s to %s', (uri, rewritten) => {
    expect(handler({ request: { uri } }).uri).toBe(rewritten);
  });
});

describe('the dashboard build', () => {
  const outDir = mkdtempSync(path.join(tmpdir(), 'dashboard-'));
  const { files } = buildDashboard(outDir);
  const page = readFileSync(path.join(outDir, 'index.html'), 'utf8');

  it('keeps the initial JavaScript within 150 KB gzipped (the budget)', () => {
    const scripts = [...page.matchAll(/<script[^>]*src="\/app\/([^"]+)"/g)].map((match) => match[1] as string);
    expect(scripts).toHaveLength(1);
    const gzipped = scripts.reduce((sum, script) => sum + gzipSync(readFileSync(path.join(outDir, script))).length, 0);
    process.stdout.write(`dashboard initial JavaScript: ${(gzipped / 1024).toFixed(1)} KB gzipped\n`);
    expect(gzipped).toBeLessThanOrEqual(150 * 1024);
  });

  it('names only its own files: content-hashed, under /app, no inline script or style', () => {
    expect(files.filter((file) => file !== 'index.html').every((file) => /^assets\/main-[A-Z0-9]+\.(js|css)$/.test(file))).toBe(true);
    expect([...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1])).toEqual(expect.arrayContaining([expect.stringMatching(/^\/app\/assets\//)]));
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).not.toMatch(/<script>(?!<)|<style|\sstyle=/);
  });
});
