import { CfnOutput, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { StackOutputs } from './stack-outputs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { type Construct } from 'constructs';
import { BESIDE_THE_BUNDLE, EnvNames, LINKS_BY_OWNER_INDEX } from '../functions/shared/config';
import { API_PATH_SEGMENTS } from '../functions/shared/http/routes';
import { ShortenerApi } from './api';
import { ClickCounting } from './click-counting';
import { DataTables } from './data-tables';
import { FeatureFlags } from './feature-flags';
import { Monitoring } from './monitoring';
import { OriginSecret } from './origin-secret';
import { ServiceFunction } from './service-function';
import { ShortDomain } from './short-domain';
import type { StageConfig } from './stage-config';

export interface ServiceStackProps extends StackProps {
  config: StageConfig;
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
    const create = new ServiceFunction(this, 'CreateFunction', {
      name: 'create',
      description: 'POST /v2/shorten and /v1/shorten',
      memorySize: 512,
      environment: creationEnvironment,
      lazyBundles: idempotencyBundle,
      removalPolicy,
    });
    const batch = new ServiceFunction(this, 'BatchFunction', {
      name: 'batch',
      description: 'POST /v2/shorten/batch and /v1/shorten/batch',
      memorySize: 512,
      environment: creationEnvironment,
      lazyBundles: idempotencyBundle,
      removalPolicy,
    });
    for (const fn of [create, batch]) {
      fn.bindTable(tables.links, EnvNames.linksTable, ['PutItem'])
        .bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem'])
        .bindTable(tables.aliasOverrides, EnvNames.aliasOverridesTable, ['GetItem'])
        .bindTable(tables.idempotency, EnvNames.idempotencyTable, ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem']);
      flags.grantRead(fn);
    }
    const links = new ServiceFunction(this, 'LinksFunction', {
      name: 'links',
      description: 'GET/PATCH/DELETE /v2/links..., GET /v2/usage: accounts managing their links',
      memorySize: 512,
      environment: creationEnvironment,
      removalPolicy,
    });
    links
      .bindTable(tables.links, EnvNames.linksTable, ['GetItem', 'UpdateItem', 'Query'], LINKS_BY_OWNER_INDEX)
      .bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem', 'GetItem'])
      .bindTable(tables.clickStats, EnvNames.clickStatsTable, ['Query']);
    flags.grantRead(links);
    const qr = new ServiceFunction(this, 'QrFunction', {
      name: 'qr',
      description: 'GET /v2/links/{code}/qr: QR codes of short links',
      memorySize: 512,
      environment: apiEnvironment,
      removalPolicy,
    });
    qr.bindTable(tables.links, EnvNames.linksTable, ['GetItem']).bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem']);
    flags.grantRead(qr);
    const docs = new ServiceFunction(this, 'DocsFunction', {
      name: 'docs',
      description: 'GET /v2/openapi.json and /docs: the OpenAPI document and the API reference page',
      filesBeside: [`node_modules/redoc/bundles/${BESIDE_THE_BUNDLE.redoc}`],
      removalPolicy,
    });
    const originSecret = new OriginSecret(this, 'OriginVerify', { secretName: `${config.appName}-${config.stage}-origin-verify` });
    const redirect = new ServiceFunction(this, 'RedirectFunction', {
      name: 'redirect',
      description: 'GET, HEAD and POST /{code}: visitors',
      environment: { [EnvNames.flagsPrefix]: flags.prefix, [EnvNames.originVerifyParameter]: originSecret.parameterName },
      removalPolicy,
    });
    redirect
      .bindTable(tables.links, EnvNames.linksTable, ['GetItem', 'UpdateItem'])
      .bindTable(tables.usage, EnvNames.usageTable, ['UpdateItem']);
    flags.grantRead(redirect);
    originSecret.grantRead(redirect);
    const clickCounting = new ClickCounting(this, 'Clicks', { source: redirect, tables, removalPolicy });
    const authorizer = new ServiceFunction(this, 'AuthorizerFunction', {
      name: 'authorizer',
      description: 'Bearer API keys for the v2 routes',
      removalPolicy,
    });
    authorizer.bindTable(tables.apiKeys, EnvNames.apiKeysTable, ['GetItem']);

    this.api = new ShortenerApi(this, 'Api', {
      stage: config.stage,
      functions: { create, batch, links, qr, docs, redirect },
      authorizer,
      removalPolicy,
    });
    const shortDomain = new ShortDomain(this, 'ShortDomain', {
      api: this.api.restApi,
      originSecret: originSecret.secret,
      apiPathSegments: API_PATH_SEGMENTS,
      domainName: config.shortDomain,
      certificateArn: config.certificateArn,
      hostedZoneId: config.hostedZoneId,
      hostedZoneName: config.hostedZoneName,
    });
    new StringParameter(this, 'ShortBaseUrlParameter', {
      parameterName: shortBaseUrlName,
      stringValue: shortDomain.baseUrl,
      description: 'Base URL of short links (read once per Lambda container)',
    });
    // Granted by name: a reference to the parameter itself would make the functions wait for the distribution.
    const shortBaseUrlByName = StringParameter.fromStringParameterName(this, 'ShortBaseUrlByName', shortBaseUrlName);
    for (const fn of [create, batch, links, qr]) shortBaseUrlByName.grantRead(fn);
    if (config.safeBrowsingKeyParameter) {
      const key = StringParameter.fromSecureStringParameterAttributes(this, 'SafeBrowsingKey', { parameterName: config.safeBrowsingKeyParameter });
      for (const fn of [create, batch, links]) key.grantRead(fn);
    }
    new Monitoring(this, 'Monitoring', {
      api: this.api.restApi,
      functions: { create, batch, links, qr, docs, redirect, authorizer, aggregator: clickCounting.aggregator },
      clickDeadLetters: clickCounting.deadLetters,
      tables: { links: tables.links, apiKeys: tables.apiKeys, accounts: tables.accounts, usage: tables.usage, aliasOverrides: tables.aliasOverrides, clickStats: tables.clickStats, idempotency: tables.idempotency },
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
      [StackOutputs.flagsPrefix]: flags.prefix,
      [StackOutputs.shortBaseUrlParameter]: shortBaseUrlName,
      [StackOutputs.apiUrl]: this.api.restApi.url,
      [StackOutputs.shortBaseUrl]: shortDomain.baseUrl,
    };
    for (const [name, value] of Object.entries(outputs)) new CfnOutput(this, name, { value });

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: 'The account-level role API Gateway uses to write its logs; AWS maintains its narrow policy.',
    });
  }
}
