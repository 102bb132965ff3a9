import { Duration, Stack, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { CfnConnectionGroup, Distribution, ResponseHeadersPolicy, type CfnDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { BESIDE_THE_BUNDLE, EnvNames, DOMAIN_WORK_INDEX, DOMAINS_BY_OWNER_INDEX, LINKS_BY_DOMAIN_INDEX } from '../functions/shared/config';
import type { DataTables } from './data-tables';
import { ServiceFunction } from './service-function';
import { EDGE_STRICT_TRANSPORT_SECURITY, type ShortDomain } from './short-domain';

export interface CustomDomainsProps {
  name: string;
  tables: Pick<DataTables, 'domains' | 'links'>;
  shortDomain: ShortDomain;
  /** The visitors' web ACL (us-east-1), as on the shared short domain. */
  webAclArn: string;
  /** What the domains function needs to be an API function (flags, base URL, upgrade URL, safety check). */
  apiEnvironment: Record<string, string>;
  removalPolicy: RemovalPolicy;
}

/** How often the scheduler runs: pending domains are due every 5 minutes at most, cleanups start within a minute. */
export const DOMAIN_WORK_SCHEDULE_MINUTES = 1;

/**
 * The CloudFront SaaS Manager calls a check makes (POST …/verify and the worker's schedule): it creates the claim's
 * tenant if needed, turns it on, and asks about its DNS and certificate.
 */
const CHECK_ACTIONS = [
  'cloudfront:CreateDistributionTenant',
  'cloudfront:GetDistributionTenant',
  'cloudfront:UpdateDistributionTenant',
  'cloudfront:VerifyDnsConfiguration',
  'cloudfront:GetManagedCertificateDetails',
];
/** Only the worker's cleanups remove tenants; the domains function never does. */
const CLEANUP_ACTIONS = ['cloudfront:DeleteDistributionTenant'];

/**
 * Customers' own domains (issue 17). CloudFront SaaS Manager: a multi-tenant distribution built like the short
 * domain's (same origin, secret, policies, web ACL; its function passes the viewer's host on), and a connection
 * group whose routing endpoint customers point their CNAME at. A multi-tenant distribution serves only through
 * tenants, with no cloudfront.net name, so it is a second distribution beside the shared one rather than the
 * shared one converted. Tenants, one per domain with a CloudFront-managed certificate, are made and removed at run
 * time by the domains function (POST …/verify) and the scheduled worker (checks, cleanups).
 */
export class CustomDomains extends Construct {
  readonly distribution: Distribution;
  readonly connectionGroup: CfnConnectionGroup;
  readonly api: ServiceFunction;
  readonly worker: ServiceFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: CustomDomainsProps) {
    super(scope, id);
    this.distribution = new Distribution(this, 'Tenants', {
      comment: 'Customer domains of short links (multi-tenant)',
      webAclId: props.webAclArn,
      defaultBehavior: {
        ...props.shortDomain.visitorBehavior('customer'),
        // HSTS without includeSubDomains (issue 27): a customer's apex claim must not force HTTPS on every other name
        // of theirs. The shared short domain keeps its own, which also replaces the API's on the way out.
        responseHeadersPolicy: new ResponseHeadersPolicy(this, 'TenantHsts', {
          comment: 'HSTS for customer domains, without includeSubDomains',
          securityHeadersBehavior: { strictTransportSecurity: { ...EDGE_STRICT_TRANSPORT_SECURITY, includeSubdomains: false } },
        }),
      },
    });
    const cfn = this.distribution.node.defaultChild as CfnDistribution;
    cfn.addPropertyOverride('DistributionConfig.ConnectionMode', 'tenant-only');
    cfn.addPropertyOverride('DistributionConfig.TenantConfig', { ParameterDefinitions: [] });
    // Set by the connection group for a multi-tenant distribution, refused on it.
    cfn.addPropertyDeletionOverride('DistributionConfig.IPV6Enabled');
    cfn.addPropertyDeletionOverride('DistributionConfig.PriceClass');
    this.connectionGroup = new CfnConnectionGroup(this, 'ConnectionGroup', { name: `${props.name}-domains`, enabled: true, ipv6Enabled: true });

    const tenantEnvironment = {
      [EnvNames.tenantDistributionId]: this.distribution.distributionId,
      [EnvNames.connectionGroupId]: this.connectionGroup.attrId,
      [EnvNames.routingEndpoint]: this.connectionGroup.attrRoutingEndpoint,
    };
    this.api = new ServiceFunction(scope, 'DomainsFunction', {
      name: 'domains',
      description: '/v2/domains...: accounts adding, checking and removing their own domains',
      memorySize: 512,
      environment: { ...props.apiEnvironment, ...tenantEnvironment },
      // The Public Suffix List is most of its code and only adding a domain needs it.
      lazyBundles: { [BESIDE_THE_BUNDLE.domainNames]: 'functions/shared/domain/domains/domain-name.ts' },
      removalPolicy: props.removalPolicy,
    });
    this.api.bindTable(props.tables.domains, EnvNames.domainsTable, ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'], { queriedIndex: DOMAINS_BY_OWNER_INDEX });
    this.worker = new ServiceFunction(scope, 'DomainWorkerFunction', {
      name: 'domain-worker',
      description: 'Every minute: checks pending domains, cleans up removed ones',
      timeoutSeconds: 60,
      environment: tenantEnvironment,
      removalPolicy: props.removalPolicy,
    });
    this.worker
      .bindTable(props.tables.domains, EnvNames.domainsTable, ['GetItem', 'UpdateItem', 'DeleteItem', 'Query'], { queriedIndex: DOMAIN_WORK_INDEX })
      .bindTable(props.tables.links, EnvNames.linksTable, ['UpdateItem', 'Query'], { queriedIndex: LINKS_BY_DOMAIN_INDEX });
    const tenants = `arn:${Stack.of(this).partition}:cloudfront::${Stack.of(this).account}:distribution-tenant/*`;
    for (const [fn, actions] of [
      [this.api, CHECK_ACTIONS],
      [this.worker, [...CHECK_ACTIONS, ...CLEANUP_ACTIONS]],
    ] as const) {
      // Creating a tenant names this distribution and its connection group. A tenant's ARN holds only its own id,
      // never its distribution's, so the other calls cannot be narrowed further here: the adapter changes and
      // removes only tenants whose DistributionId is this distribution's (cloudfront-attachments.ts, findTenant).
      fn.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources: [this.distribution.distributionArn, tenants] }));
      fn.addToRolePolicy(new PolicyStatement({ actions: ['cloudfront:CreateDistributionTenant'], resources: [this.connectionGroup.attrArn] }));
    }
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Domain checks and cleanups',
      schedule: Schedule.rate(Duration.minutes(DOMAIN_WORK_SCHEDULE_MINUTES)),
      targets: [new LambdaFunction(this.worker, { retryAttempts: 0 })],
    });
    Validations.of(this.distribution).acknowledge({ id: 'AwsSolutions-CFR1', reason: 'Short links are for everyone; no country is blocked.' });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR3',
      reason: 'Edge access logs would record every viewer address, which the service keeps nowhere; API Gateway access logs (without addresses) and click lines cover visits.',
    });
    Validations.of(this.distribution).acknowledge({ id: 'AwsSolutions-CFR4', reason: 'Each tenant gets a CloudFront-managed certificate; the template has none of its own.' });
    for (const fn of [this.api, this.worker]) {
      Validations.of(fn.role ?? fn).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cloudfront::<AWS::AccountId>:distribution-tenant/*]',
        reason: 'Tenants are created at run time, one per customer domain, so their ids are unknown at deploy time; the distribution and connection group are named.',
      });
    }
  }
}
