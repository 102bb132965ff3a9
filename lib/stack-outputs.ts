/** Names of the stack's outputs: what the ops CLI and the local stack look up, deployed or local. */
export enum StackOutputs {
  linksTable = 'LinksTableName',
  apiKeysTable = 'ApiKeysTableName',
  accountsTable = 'AccountsTableName',
  clickStatsTable = 'ClickStatsTableName',
  usageTable = 'UsageTableName',
  aliasOverridesTable = 'AliasOverridesTableName',
  idempotencyTable = 'IdempotencyTableName',
  domainsTable = 'DomainsTableName',
  webhooksTable = 'WebhooksTableName',
  visitorSaltsTable = 'VisitorSaltsTableName',
  membersTable = 'MembersTableName',
  auditTable = 'AuditLogTableName',
  importsTable = 'ImportsTableName',
  linkHealthTable = 'LinkHealthTableName',
  flagsPrefix = 'FlagsParameterPrefix',
  shortBaseUrlParameter = 'ShortBaseUrlParameterName',
  apiUrl = 'ApiUrl',
  shortBaseUrl = 'ShortBaseUrl',
  dashboardUrl = 'DashboardUrl',
  /** People's sign-in: the user pool and the dashboard's app client (played locally by bin/local/oidc-provider.ts). */
  userPoolId = 'UserPoolId',
  userPoolClientId = 'UserPoolClientId',
  /** The managed login pages' base URL (https://<prefix>.auth.<region>.amazoncognito.com). */
  signInUrl = 'SignInUrl',
  /** What `shortener login` needs (SHORTENER_ISSUER, SHORTENER_CLIENT_ID): the pool's issuer and the CLI's app client. */
  signInIssuer = 'SignInIssuer',
  cliClientId = 'CliClientId',
}
