/** Names of the stack's outputs: what the ops CLI and the local stack look up, deployed or local. */
export enum StackOutputs {
  linksTable = 'LinksTableName',
  apiKeysTable = 'ApiKeysTableName',
  accountsTable = 'AccountsTableName',
  usageTable = 'UsageTableName',
  aliasOverridesTable = 'AliasOverridesTableName',
  flagsPrefix = 'FlagsParameterPrefix',
  shortBaseUrlParameter = 'ShortBaseUrlParameterName',
  apiUrl = 'ApiUrl',
  shortBaseUrl = 'ShortBaseUrl',
}
