/** The function's environment, read once per container. Names are set by lib/service-function.ts. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

function optional(name: string): string | undefined {
  return process.env[name] || undefined;
}

/** Where SSM serves a Secrets Manager secret: functions that already carry the SSM client need no other one. */
export const SECRETS_MANAGER_REFERENCE_PREFIX = '/aws/reference/secretsmanager/';

/** Files the CDK ships beside a function's bundle; the function reads them from LAMBDA_TASK_ROOT. */
export const BESIDE_THE_BUNDLE = {
  /** Powertools' idempotency utility, a bundle of its own for the creation functions. */
  idempotency: 'idempotency.mjs',
  /** Redoc's standalone script, for the docs function. */
  redoc: 'redoc.standalone.js',
  /** The claim rules of custom domains (the Public Suffix List), a bundle of its own for the domains function. */
  domainNames: 'domain-names.mjs',
  /** The smart-link fields' schemas, a bundle of their own for the creation and link functions. */
  smartLinks: 'smart-links.mjs',
} as const;

/** The links table's index of each account's links by creation time. */
export const LINKS_BY_OWNER_INDEX = 'byOwner';
/** The links table's (sparse) index of custom-domain links by domain: a removed domain's cleanup reads it. */
export const LINKS_BY_DOMAIN_INDEX = 'byDomain';
/**
 * The links table's (sparse) index of health checks by due time (issue 31): partition `healthShard` (one of
 * HEALTH_SHARDS, by the key's hash), sort `healthDueAt` (epoch ms); only checked, still active links are in it.
 */
export const LINKS_BY_HEALTH_DUE_INDEX = 'byHealthDue';
export const HEALTH_DUE_ATTRIBUTE = 'healthDueAt';
export const HEALTH_SHARD_ATTRIBUTE = 'healthShard';
/** The domains table's index of each account's domains, and its (sparse) index of scheduled work by due time. */
export const DOMAINS_BY_OWNER_INDEX = 'byOwner';
export const DOMAIN_WORK_INDEX = 'byWork';
/** The members table's (sparse) index of each person's memberships: `GET /v2/me` and the workspace switcher read it. */
export const MEMBERS_BY_USER_INDEX = 'byUser';
/** The API keys table's (sparse) index of each account's keys by creation time: GET /v2/keys reads it. */
export const KEYS_BY_ACCOUNT_INDEX = 'byAccount';

export const EnvNames = {
  linksTable: 'LINKS_TABLE',
  apiKeysTable: 'API_KEYS_TABLE',
  usageTable: 'USAGE_TABLE',
  aliasOverridesTable: 'ALIAS_OVERRIDES_TABLE',
  clickStatsTable: 'CLICK_STATS_TABLE',
  idempotencyTable: 'IDEMPOTENCY_TABLE',
  flagsPrefix: 'FLAGS_PARAMETER_PREFIX',
  shortBaseUrl: 'SHORT_BASE_URL',
  shortBaseUrlParameter: 'SHORT_BASE_URL_PARAMETER',
  upgradeUrl: 'UPGRADE_URL',
  safeBrowsingKeyParameter: 'SAFE_BROWSING_KEY_PARAMETER',
  safeBrowsingEndpoint: 'SAFE_BROWSING_ENDPOINT',
  safetyFailMode: 'SAFETY_FAIL_MODE',
  originVerifyParameter: 'ORIGIN_VERIFY_PARAMETER',
  clientKeyParameter: 'CLIENT_KEY_PARAMETER',
  domainsTable: 'DOMAINS_TABLE',
  tenantDistributionId: 'TENANT_DISTRIBUTION_ID',
  connectionGroupId: 'CONNECTION_GROUP_ID',
  routingEndpoint: 'ROUTING_ENDPOINT',
  localHostsFile: 'LOCAL_HOSTS_FILE',
  localDnsTxtFile: 'LOCAL_DNS_TXT_FILE',
  localDomains: 'LOCAL_DOMAINS',
  webhooksTable: 'WEBHOOKS_TABLE',
  accountsTable: 'ACCOUNTS_TABLE',
  membersTable: 'MEMBERS_TABLE',
  auditTable: 'AUDIT_TABLE',
  mailFrom: 'MAIL_FROM',
  dashboardUrl: 'DASHBOARD_URL',
  localDashboardUrl: 'LOCAL_DASHBOARD_URL',
  visitorSaltsTable: 'VISITOR_SALTS_TABLE',
  tokenIssuer: 'TOKEN_ISSUER',
  tokenJwksUrl: 'TOKEN_JWKS_URL',
  tokenClientId: 'TOKEN_CLIENT_ID',
  /** The command line's app client (`shortener login`): its people's tokens are accepted as the dashboard's are. */
  tokenCliClientId: 'TOKEN_CLI_CLIENT_ID',
  userPoolId: 'USER_POOL_ID',
  localSsoAllow: 'LOCAL_SSO_ALLOW',
  importsTable: 'IMPORTS_TABLE',
  importQueueUrl: 'IMPORT_QUEUE_URL',
  deliveryQueueUrl: 'DELIVERY_QUEUE_URL',
  webhookSecretsKey: 'WEBHOOK_SECRETS_KEY',
  localWebhookAllow: 'LOCAL_WEBHOOK_ALLOW',
  localWebhookTimeScale: 'LOCAL_WEBHOOK_TIME_SCALE',
  linkHealthTable: 'LINK_HEALTH_TABLE',
  healthQueueUrl: 'HEALTH_QUEUE_URL',
  localHealthAllow: 'LOCAL_HEALTH_ALLOW',
  localHealthTimeScale: 'LOCAL_HEALTH_TIME_SCALE',
  localSdkTimeoutMs: 'LOCAL_SDK_TIMEOUT_MS',
} as const;

export const config = {
  table: (
    name: 'linksTable' | 'apiKeysTable' | 'usageTable' | 'aliasOverridesTable' | 'clickStatsTable' | 'idempotencyTable' | 'domainsTable' | 'webhooksTable' | 'accountsTable' | 'membersTable' | 'auditTable' | 'importsTable' | 'visitorSaltsTable' | 'linkHealthTable',
  ) => required(EnvNames[name]),
  flagsPrefix: () => required(EnvNames.flagsPrefix),
  shortBaseUrl: () => optional(EnvNames.shortBaseUrl),
  shortBaseUrlParameter: () => required(EnvNames.shortBaseUrlParameter),
  upgradeUrl: () => required(EnvNames.upgradeUrl),
  safeBrowsingKeyParameter: () => optional(EnvNames.safeBrowsingKeyParameter),
  safeBrowsingEndpoint: () => optional(EnvNames.safeBrowsingEndpoint),
  /** Refuse (the default) or allow creations while the third-party safety check is down. */
  safetyFailsOpen: () => optional(EnvNames.safetyFailMode) === 'allow',
  /** SSM name through which the CloudFront origin secret is read (Secrets Manager's /aws/reference/ path). */
  originVerifyParameter: () => optional(EnvNames.originVerifyParameter),
  /** SSM name through which the secret keying client addresses is read (Secrets Manager's /aws/reference/ path). */
  clientKeyParameter: () => required(EnvNames.clientKeyParameter),
  /** The multi-tenant distribution customer domains become tenants of, and the connection group they point at. */
  tenantDistribution: () => ({
    distributionId: required(EnvNames.tenantDistributionId),
    connectionGroupId: required(EnvNames.connectionGroupId),
    routingEndpoint: required(EnvNames.routingEndpoint),
  }),
  /** Set by the local stack: domains are checked with the resolver instead of CloudFront (see local-attachments.ts). */
  localDomains: () => optional(EnvNames.localDomains) === 'resolver',
  localHostsFile: () => optional(EnvNames.localHostsFile),
  /** A local run's TXT records (`name value` lines), read before DNS; never set on AWS. */
  localDnsTxtFile: () => optional(EnvNames.localDnsTxtFile),
  /**
   * Who signs people's access tokens and for which clients (the dashboard's, and the command line's where there is
   * one): the user pool's issuer and JWKS on AWS, the local provider's in a local run; absent, the authorizer knows
   * keys only.
   */
  accessTokens: () => {
    const issuer = optional(EnvNames.tokenIssuer);
    const jwksUrl = optional(EnvNames.tokenJwksUrl);
    const clientId = optional(EnvNames.tokenClientId);
    const cliClientId = optional(EnvNames.tokenCliClientId);
    return issuer && jwksUrl && clientId ? { issuer, jwksUrl, clientIds: cliClientId ? [clientId, cliClientId] : [clientId] } : undefined;
  },
  /** The user pool whose identity providers the SSO function manages, and the app clients they are offered on. */
  ssoPool: () => {
    const cliClientId = optional(EnvNames.tokenCliClientId);
    return { userPoolId: required(EnvNames.userPoolId), appClientIds: [required(EnvNames.tokenClientId), ...(cliClientId ? [cliClientId] : [])] };
  },
  /** A local run's stand-in customer providers (`host:port`, comma-separated), allowed over http; never set on AWS. */
  localSsoHosts: (): ReadonlySet<string> => new Set((optional(EnvNames.localSsoAllow) ?? '').split(',').map((host) => host.trim()).filter(Boolean)),
  deliveryQueueUrl: () => required(EnvNames.deliveryQueueUrl),
  importQueueUrl: () => required(EnvNames.importQueueUrl),
  webhookSecretsKey: () => required(EnvNames.webhookSecretsKey),
  /** A local run's receivers on this machine (`host:port`, comma-separated); never set on AWS. */
  localWebhookAllow: () => optional(EnvNames.localWebhookAllow),
  /** The user pool whose people's verified emails an invitation is accepted by. */
  userPoolId: () => required(EnvNames.userPoolId),
  /** The sender of the service's mail (invitations): an SES identity of the stage. */
  mailFrom: () => required(EnvNames.mailFrom),
  /** Where mail's links lead: the dashboard (a local run's own address, set by the local stack, else the distribution's). */
  dashboardUrl: () => optional(EnvNames.localDashboardUrl) ?? required(EnvNames.dashboardUrl),
  /** A local run's factor on every webhook wait (tests: 0.001); 1 otherwise. */
  webhookTimeScale: () => {
    const scale = Number(optional(EnvNames.localWebhookTimeScale) ?? 1);
    return Number.isFinite(scale) && scale > 0 && scale <= 1 ? scale : 1;
  },
  /** The link health worker's queue of links to check (issue 31). */
  healthQueueUrl: () => required(EnvNames.healthQueueUrl),
  /**
   * A local run's destinations that may be checked (`host:port` names, never IP literals); set (maybe to `none`) only
   * by the local stack, where nothing else is checked. Undefined on AWS: every public destination is.
   */
  localHealthAllow: () => optional(EnvNames.localHealthAllow),
  /** LOCAL_HEALTH_TIME_SCALE: a local run's day of checks, shortened (0.0001 makes 24 hours under 9 seconds). */
  healthTimeScale: () => {
    const scale = Number(optional(EnvNames.localHealthTimeScale) ?? 1);
    return Number.isFinite(scale) && scale > 0 && scale <= 1 ? scale : 1;
  },
};
