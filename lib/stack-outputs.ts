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
  flagsPrefix = 'FlagsParameterPrefix',
  shortBaseUrlParameter = 'ShortBaseUrlParameterName',
  apiUrl = 'ApiUrl',
  shortBaseUrl = 'ShortBaseUrl',
  dashboardUrl = 'DashboardUrl',
}
