import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SystemLogLevel } from 'aws-cdk-lib/aws-lambda';
import { StackOutputs } from './stack-outputs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { type Construct } from 'constructs';
import { BESIDE_THE_BUNDLE, EnvNames, KEYS_BY_ACCOUNT_INDEX, LINKS_BY_OWNER_INDEX, MEMBERS_BY_USER_INDEX } from '../functions/shared/config';
import { API_PATH_SEGMENTS } from '../functions/shared/http/routes';
import { ShortenerApi } from './api';
import { ClickCounting } from './click-counting';
import { DataTables } from './data-tables';
import { FeatureFlags } from './feature-flags';
import { Monitoring } from './monitoring';
import { DeploymentSecret } from './deployment-secret';
import { allowGetParameter } from './parameter-grants';
import { allowSendingMail } from './mail-grants';
import { BATCH_FUNCTION } from './capacity';
import { ServiceFunction } from './service-function';
import { ShortDomain } from './short-domain';
import { CustomDomains } from './custom-domains';
import { Dashboard } from './dashboard';
import { Webhooks } from './webhooks';
import { AuditLog } from './audit-log';
import { PeopleSignIn } from './user-pool';
import { SingleSignOn } from './single-sign-on';
import { Imports } from './imports';
import { LinkHealth } from './link-health';
import type { StageConfig } from './stage-config';

export interface ServiceStackProps extends StackProps {
  config: StageConfig;
  /** The short domain's web ACL, from EdgeFirewallStack in us-east-1. */
  visitorWebAclArn: string;
  /** The dashboard's distribution's web ACL (the API's callers at the edge), from the same stack. */
  apiWebAclArn: string;
}

/** Wires the constructs together; each construct holds its own concern. */
export class ServiceStack extends Stack {
  readonly api: ShortenerApi;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { config } = props;
    const production = config.stage === 'prod';
    const removalPolicy = production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const parameterPrefix = `/${config.appName}/${config.stage}`;

    const tables = new DataTables(this, 'Data', { deletionProtection: production });
    const flags = new FeatureFlags(this, 'Flags', { prefix: `${parameterPrefix}/flags` });
    const shortBaseUrlName = `${parameterPrefix}/shortBaseUrl`;

    // What every guarded API function needs: flags, the short base URL, where 403 and 429 bodies send people.
    const apiEnvironment = {
      [EnvNames.flagsPrefix]: flags.prefix,
      [EnvNames.shortBaseUrlParameter]: shortBaseUrlName,
      // A custom domain is known at synth time: no SSM read on the creation path then.
      ...(config.shortDomain ? { [EnvNames.shortBaseUrl]: `https://${config.shortDomain}` } : {}),
      [EnvNames.upgradeUrl]: config.upgradeUrl,
    };
    // ...and the functions that check destinations, the safety check's configuration.
    const creationEnvironment = {
      ...apiEnvironment,
      ...(config.safeBrowsingKeyParameter ? { [EnvNames.safeBrowsingKeyParameter]: config.safeBrowsingKeyParameter } : {}),
      ...(config.safetyFailMode ? { [EnvNames.safetyFailMode]: config.safetyFailMode } : {}),
    };
    // Powertools' idempotency utility, for creations sent with an Idempotency-Key only.
    const idempotencyBundle = { [BESIDE_THE_BUNDLE.idempotency]: 'functions/shared/adapters/idempotency-store.ts' };
    // The smart-link fields' schemas, for requests that carry them only (smart-link-request.ts).
    const smartLinksBundle = { [BESIDE_THE_BUNDLE.smartLinks]: 'functions/shared/domain/destinations/smart-link-request.ts' };
    // Anonymous callers and password attempts are counted by keyed hashes of their addresses (http/client-key.ts).
    const clientKey = new DeploymentSecret(this, 'ClientKey', {
      secretName: `${config.appName}-${config.stage}-client-key`,
      description: 'HMAC key under which client addresses are counted: no address is stored',
      rotation: 'Rotating it only restarts the current rate windows (minutes) and password windows (15 minutes): put a new value when needed.',
    });
    const originSecret = new DeploymentSecret(this, 'OriginVerify', {
      secretName: `${config.appName}-${config.stage}-origin-verify`,
      description: 'Header value CloudFront sends to the API to prove a request came through the distribution',
      jsonKey: 'current',
      rotation: 'Rotated by the runbook in docs/operating.md: a new current value beside the previous one, then a deploy with the next originSecretGeneration.',
    });
    const clientKeyEnvironment = { [EnvNames.clientKeyParameter]: clientKey.parameterName };
    // v1 callers through the dashboard's distribution are counted by the viewer's address, believed beside it.
    const originSecretEnvironment = { [EnvNames.originVerifyParameter]: originSecret.parameterName };
    const create = new ServiceFunction(this, 'CreateFunction', {
      name: 'create',
      description: 'POST /v2/shorten and /v1/shorten',
      memorySize: 512,
      environment: { ...creationEnvironment, ...clientKeyEnvironment, ...originSecretEnvironment },
      lazyBundles: { ...idempotencyBundle, ...smartLinksBundle },
      removalPolicy,
    });
    const batch = new ServiceFunction(this, 'BatchFunction', {
      name: 'batch',
      description: 'POST /v2/shorten/batch and /v1/shorten/batch',
      // Sized for 50 password hashes in one request (capacity.ts).
      memorySize: BATCH_FUNCTION.memorySize,
      timeoutSeconds: BATCH_FUNCTION.timeoutSeconds,
      environment: { ...creationEnvironment, ...clientKeyEnvironment, ...originSecretEnvironment },
      lazyBundles: { ...idempotencyBundle, ...smartLinksBundle },
      removalPolicy,
    });
    for (const fn of [create, batch]) {
      fn.bindTable(tables.links, EnvNames.linksTable, ['PutItem'])
        .bindTable(tables.domains, EnvNames.domainsTable, ['GetItem'])
        .bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem'])
        .bindTable(tables.aliasOverrides, EnvNames.aliasOverridesTable, ['GetItem'])
        .bindTable(tables.idempotency, EnvNames.idempotencyTable, ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem']);
      flags.grantRead(fn);
      clientKey.grantRead(fn);
      originSecret.grantRead(fn);
    }
    const links = new ServiceFunction(this, 'LinksFunction', {
      name: 'links',
      description: 'GET/PATCH/DELETE /v2/links..., POST /v2/links/bulk, GET /v2/usage: accounts managing their links',
      memorySize: 512,
      environment: creationEnvironment,
      lazyBundles: smartLinksBundle,
      removalPolicy,
    });
    links
      .bindTable(tables.links, EnvNames.linksTable, ['GetItem', 'BatchGetItem', 'UpdateItem', 'Query'], { queriedIndex: LINKS_BY_OWNER_INDEX })
      .bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem', 'GetItem'])
      .bindTable(tables.clickStats, EnvNames.clickStatsTable, ['Query'])
      .bindTable(tables.domains, EnvNames.domainsTable, ['GetItem']);
    flags.grantRead(links);
    const qr = new ServiceFunction(this, 'QrFunction', {
      name: 'qr',
      description: 'GET /v2/links/{code}/qr: QR codes of short links',
      memorySize: 512,
      environment: apiEnvironment,
      removalPolicy,
    });
    qr.bindTable(tables.links, EnvNames.linksTable, ['GetItem'])
      .bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem'])
      .bindTable(tables.domains, EnvNames.domainsTable, ['GetItem']);
    flags.grantRead(qr);
    const docs = new ServiceFunction(this, 'DocsFunction', {
      name: 'docs',
      description: 'GET /v2/openapi.json and /docs: the OpenAPI document and the API reference page',
      filesBeside: [`node_modules/redoc/bundles/${BESIDE_THE_BUNDLE.redoc}`],
      removalPolicy,
    });
    const redirect = new ServiceFunction(this, 'RedirectFunction', {
      name: 'redirect',
      description: 'GET, HEAD and POST /{code}: visitors',
      environment: { [EnvNames.flagsPrefix]: flags.prefix, ...originSecretEnvironment, ...clientKeyEnvironment },
      reservedConcurrentExecutions: config.reservedConcurrency.redirect,
      systemLogLevel: SystemLogLevel.WARN,
      removalPolicy,
    });
    // No attribute condition on the redirect's updates (the aggregator has one): its conditional click, tombstone and
    // lease renewal hand back the whole link (ALL_NEW, or ALL_OLD on refusal) to decide the visit, and how IAM weighs
    // dynamodb:Attributes against whole-item returns cannot be tried locally; a wrong guess would stop every
    // maxClicks link. Worth trying in a dev account, with the 12 attributes those writes name.
    redirect
      .bindTable(tables.links, EnvNames.linksTable, ['GetItem', 'UpdateItem'])
      .bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem'])
      .bindTable(tables.domains, EnvNames.domainsTable, ['GetItem'])
      // Today's salt made or read, and yesterday's removed, by one conditional update each (visitor-salts.ts).
      .bindTable(tables.visitorSalts, EnvNames.visitorSaltsTable, ['UpdateItem']);
    flags.grantRead(redirect);
    originSecret.grantRead(redirect);
    clientKey.grantRead(redirect);
    const clickCounting = new ClickCounting(this, 'Clicks', { source: redirect, tables, removalPolicy });
    const authorizer = new ServiceFunction(this, 'AuthorizerFunction', {
      name: 'authorizer',
      description: 'Bearer API keys and people\'s access tokens for the v2 routes',
      reservedConcurrentExecutions: config.reservedConcurrency.authorizer,
      removalPolicy,
    });
    // The one write: a key's last use, once an hour at most, naming no other attribute (dynamo-key-store.ts recordUse).
    // A person's request: their membership (read consistently) and the workspace's account record, side by side.
    authorizer
      .bindTable(tables.apiKeys, EnvNames.apiKeysTable, ['GetItem'])
      .bindTable(tables.apiKeys, EnvNames.apiKeysTable, ['UpdateItem'], { onlyAttributes: ['keyHash', 'lastUsedAt'] })
      .bindTable(tables.members, EnvNames.membersTable, ['GetItem'])
      .bindTable(tables.accounts, EnvNames.accountsTable, ['GetItem']);
    const keys = new ServiceFunction(this, 'KeysFunction', {
      name: 'keys',
      description: 'GET/POST /v2/keys, DELETE /v2/keys/{id}: a workspace\'s API keys, managed by its people',
      environment: { [EnvNames.flagsPrefix]: flags.prefix, [EnvNames.upgradeUrl]: config.upgradeUrl },
      removalPolicy,
    });
    // Keys and their audit records are written in one transaction, whose items need these actions each.
    keys
      .bindTable(tables.apiKeys, EnvNames.apiKeysTable, ['PutItem', 'UpdateItem', 'Query'], { queriedIndex: KEYS_BY_ACCOUNT_INDEX })
      .bindTable(tables.auditLog, EnvNames.auditTable, ['PutItem'])
      .bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem']);
    flags.grantRead(keys);

    const me = new ServiceFunction(this, 'MeFunction', {
      name: 'me',
      description: 'GET /v2/me: a signed-in person and their workspaces',
      environment: { [EnvNames.upgradeUrl]: config.upgradeUrl },
      removalPolicy,
    });
    me.bindTable(tables.members, EnvNames.membersTable, ['Query'], { queriedIndex: MEMBERS_BY_USER_INDEX });

    this.api = new ShortenerApi(this, 'Api', {
      stage: config.stage,
      name: `${config.appName}-${config.stage}`,
      functions: { create, batch, links, qr, me, docs, redirect, keys },
      authorizer,
      removalPolicy,
    });
    const shortDomain = new ShortDomain(this, 'ShortDomain', {
      api: this.api.restApi,
      stageName: config.stage,
      originSecret: originSecret.secret,
      originSecretGeneration: config.originSecretGeneration,
      webAclArn: props.visitorWebAclArn,
      apiPathSegments: API_PATH_SEGMENTS,
      domainName: config.shortDomain,
      certificateArn: config.certificateArn,
      hostedZoneId: config.hostedZoneId,
      hostedZoneName: config.hostedZoneName,
    });
    const customDomains = new CustomDomains(this, 'CustomDomains', {
      name: `${config.appName}-${config.stage}`,
      tables,
      shortDomain,
      webAclArn: props.visitorWebAclArn,
      apiEnvironment: creationEnvironment,
      removalPolicy,
    });
    const domains = customDomains.api;
    domains.bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem']);
    flags.grantRead(domains);
    this.api.addRoutesOf('domains', domains);
    const webhooks = new Webhooks(this, 'Webhooks', {
      tables,
      apiEnvironment: creationEnvironment,
      routerConcurrency: config.reservedConcurrency.webhookRouter,
      shortBaseUrlEnvironment: { [EnvNames.shortBaseUrlParameter]: shortBaseUrlName, ...(config.shortDomain ? { [EnvNames.shortBaseUrl]: `https://${config.shortDomain}` } : {}) },
      removalPolicy,
    });
    webhooks.api.bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem']);
    flags.grantRead(webhooks.api);
    flags.grantRead(webhooks.router);
    this.api.addRoutesOf('webhooks', webhooks.api);
    const workspace = new ServiceFunction(this, 'WorkspaceFunction', {
      name: 'workspace',
      description: '/v2/workspace, /v2/members, /v2/invitations: a workspace\'s people, roles and invitations',
      // The guard's flags and upgrade URL (403 seats bodies), and the sender of invitations: no short links here.
      environment: { [EnvNames.flagsPrefix]: flags.prefix, [EnvNames.upgradeUrl]: config.upgradeUrl, [EnvNames.mailFrom]: config.mailFrom },
      removalPolicy,
    });
    // Memberships, invitations and seat counts change in transactions with their audit records (dynamo-member-store.ts);
    // a person removed or demoted loses the keys they made beyond their new role, each revoked with its record.
    workspace
      .bindTable(tables.members, EnvNames.membersTable, ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'])
      .bindTable(tables.apiKeys, EnvNames.apiKeysTable, ['UpdateItem', 'Query'], { queriedIndex: KEYS_BY_ACCOUNT_INDEX })
      .bindTable(tables.auditLog, EnvNames.auditTable, ['PutItem'])
      .bindTable(tables.accounts, EnvNames.accountsTable, ['GetItem', 'UpdateItem'])
      .bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem']);
    flags.grantRead(workspace);
    allowSendingMail(this, workspace, config.mailFrom);
    this.api.addRoutesOf('workspace', workspace);
    // The reader is guarded (flags, limits, the upgrade URL of 429s) and shows no short URL.
    const guardEnvironment = { [EnvNames.flagsPrefix]: flags.prefix, [EnvNames.upgradeUrl]: config.upgradeUrl };
    const auditLog = new AuditLog(this, 'Audit', { tables, guardEnvironment, removalPolicy });
    flags.grantRead(auditLog.reader);
    this.api.addRoutesOf('audit', auditLog.reader);
    // Domains' and webhooks' changes write their records in their own transactions.
    auditLog.grantAppend(domains);
    auditLog.grantAppend(webhooks.api);
    // The guard's flags and upgrade URL only: an import shows no short URL.
    const imports = new Imports(this, 'Imports', { tables, apiEnvironment: { [EnvNames.flagsPrefix]: flags.prefix, [EnvNames.upgradeUrl]: config.upgradeUrl }, removalPolicy });
    flags.grantRead(imports.api);
    this.api.addRoutesOf('imports', imports.api);
    // The aggregator queues link.clicked and adds up each workspace's clicks (issue 30): it reads a clicked link's
    // owner and tags, those attributes only, and the owner's webhooks; and the workspaces' analytics switches, that
    // attribute only, a delivery's workspaces in one call.
    const aggregator = clickCounting.aggregator;
    aggregator
      .bindTable(tables.links, EnvNames.linksTable, ['GetItem'], { onlyAttributes: ['code', 'owner', 'tags'] })
      .bindTable(tables.accounts, EnvNames.accountsTable, ['BatchGetItem'], { onlyAttributes: ['accountId', 'analytics'] })
      .bindTable(tables.webhooks, EnvNames.webhooksTable, ['Query'])
      .addEnvironment(EnvNames.deliveryQueueUrl, webhooks.queue.queueUrl)
      .addEnvironment(EnvNames.flagsPrefix, flags.prefix);
    webhooks.queue.grantSendMessages(aggregator);
    webhooks.grantClickCounting(aggregator);
    flags.grantRead(aggregator);
    // Link health (issue 31): the worker checks; the links stream's router queues new and changed links.
    const linkHealth = new LinkHealth(this, 'LinkHealth', { tables, removalPolicy });
    linkHealth.grantQueueing(webhooks.router);
    new StringParameter(this, 'ShortBaseUrlParameter', {
      parameterName: shortBaseUrlName,
      stringValue: shortDomain.baseUrl,
      description: 'Base URL of short links (read once per Lambda container)',
    });
    // Granted by name: a reference to the parameter itself would make the functions wait for the distribution.
    for (const fn of [create, batch, links, qr, domains, webhooks.router, webhooks.deliverer]) allowGetParameter(this, fn, shortBaseUrlName);
    if (config.safeBrowsingKeyParameter) {
      // A SecureString under the account's default key (aws/ssm), which GetParameter decrypts without a key grant.
      for (const fn of [create, batch, links, domains, webhooks.api]) allowGetParameter(this, fn, config.safeBrowsingKeyParameter);
    }
    const dashboard = new Dashboard(this, 'Dashboard', {
      api: this.api.restApi,
      stageName: config.stage,
      originSecret: originSecret.secret,
      originSecretGeneration: config.originSecretGeneration,
      webAclArn: props.apiWebAclArn,
      removalPolicy,
    });
    // Invitation mail links to the dashboard's invitation page.
    workspace.addEnvironment(EnvNames.dashboardUrl, dashboard.url);
    const signIn = new PeopleSignIn(this, 'SignIn', { name: `${config.appName}-${config.stage}`, dashboardUrl: dashboard.url, selfSignUp: config.selfSignUp, removalPolicy });
    for (const [name, value] of Object.entries(signIn.environment)) authorizer.addEnvironment(name, value);
    dashboard.signInWith(signIn.dashboardSignIn);
    // An invitation is accepted by the email the pool verified for the person (access tokens carry none); a removed
    // member's refresh tokens are revoked (global sign-out).
    workspace.addEnvironment(EnvNames.userPoolId, signIn.userPool.userPoolId);
    workspace.addToRolePolicy(new PolicyStatement({ actions: ['cognito-idp:AdminGetUser', 'cognito-idp:AdminUserGlobalSignOut'], resources: [signIn.userPool.userPoolArn] }));
    const singleSignOn = new SingleSignOn(this, 'SingleSignOn', { tables, signIn, apiEnvironment: { [EnvNames.flagsPrefix]: flags.prefix, [EnvNames.upgradeUrl]: config.upgradeUrl }, removalPolicy });
    singleSignOn.api.bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem']);
    flags.grantRead(singleSignOn.api);
    this.api.addRoutesOf('sso', singleSignOn.api);
    new Monitoring(this, 'Monitoring', {
      api: this.api.restApi,
      functions: { create, batch, links, qr, me, docs, redirect, authorizer, keys, sso: singleSignOn.api, aggregator: clickCounting.aggregator, domains, domainWorker: customDomains.worker, webhooks: webhooks.api, webhookEvents: webhooks.router, webhookDeliverer: webhooks.deliverer, workspace, audit: auditLog.reader, auditEvents: auditLog.linkRecorder, imports: imports.api, importWorker: imports.worker, linkHealth: linkHealth.worker },
      importQueues: { chunks: imports.queue, deadLetters: imports.deadLetters },
      healthQueues: { checks: linkHealth.queue, deadLetters: linkHealth.deadLetters },
      clickDeadLetters: clickCounting.deadLetters,
      auditDeadLetters: auditLog.streamDeadLetters,
      webhookQueues: { deliveries: webhooks.queue, deliveryDeadLetters: webhooks.deliveryDeadLetters, streamDeadLetters: webhooks.streamDeadLetters },
      domainSchedule: customDomains.schedule,
      tables: { links: tables.links, apiKeys: tables.apiKeys, accounts: tables.accounts, usage: tables.usage, aliasOverrides: tables.aliasOverrides, clickStats: tables.clickStats, idempotency: tables.idempotency, domains: tables.domains, webhooks: tables.webhooks, auditLog: tables.auditLog, imports: tables.imports },
      alarmEmail: config.alarmEmail,
    });

    const outputs: Record<StackOutputs, string> = {
      [StackOutputs.linksTable]: tables.links.tableName,
      [StackOutputs.apiKeysTable]: tables.apiKeys.tableName,
      [StackOutputs.accountsTable]: tables.accounts.tableName,
      [StackOutputs.clickStatsTable]: tables.clickStats.tableName,
      [StackOutputs.usageTable]: tables.usage.tableName,
      [StackOutputs.aliasOverridesTable]: tables.aliasOverrides.tableName,
      [StackOutputs.idempotencyTable]: tables.idempotency.tableName,
      [StackOutputs.domainsTable]: tables.domains.tableName,
      [StackOutputs.webhooksTable]: tables.webhooks.tableName,
      [StackOutputs.visitorSaltsTable]: tables.visitorSalts.tableName,
      [StackOutputs.membersTable]: tables.members.tableName,
      [StackOutputs.auditTable]: tables.auditLog.tableName,
      [StackOutputs.importsTable]: tables.imports.tableName,
      [StackOutputs.linkHealthTable]: tables.linkHealth.tableName,
      [StackOutputs.flagsPrefix]: flags.prefix,
      [StackOutputs.shortBaseUrlParameter]: shortBaseUrlName,
      [StackOutputs.apiUrl]: this.api.restApi.url,
      [StackOutputs.shortBaseUrl]: shortDomain.baseUrl,
      [StackOutputs.dashboardUrl]: dashboard.url,
      [StackOutputs.userPoolId]: signIn.userPool.userPoolId,
      [StackOutputs.userPoolClientId]: signIn.client.userPoolClientId,
      [StackOutputs.signInUrl]: signIn.domain.baseUrl(),
      [StackOutputs.signInIssuer]: signIn.issuer,
      [StackOutputs.cliClientId]: signIn.cliClient.userPoolClientId,
    };
    for (const [name, value] of Object.entries(outputs)) new CfnOutput(this, name, { value });

  }
}
