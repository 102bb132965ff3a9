import { GetParametersCommand, PutParameterCommand } from '@aws-sdk/client-ssm';
import { DynamoAliasOverrides } from '../../functions/shared/adapters/dynamo-alias-overrides';
import { DynamoAccountStore } from '../../functions/shared/adapters/dynamo-account-store';
import { DynamoKeyStore } from '../../functions/shared/adapters/dynamo-key-store';
import { DynamoLinkStore } from '../../functions/shared/adapters/dynamo-link-store';
import { DynamoDomainStore } from '../../functions/shared/adapters/dynamo-domain-store';
import { asciiDomain } from '../../functions/shared/domain/domains/host-name';
import { disableDomain, enableDomain, releaseDomain } from '../../functions/shared/domain/domains/domain-takedown';
import type { DomainRecord } from '../../functions/shared/domain/domains/custom-domain';
import { DynamoUsageCounter } from '../../functions/shared/adapters/dynamo-usage-counter';
import { ALIAS_PATTERN } from '../../functions/shared/domain/links/aliases';
import { accountOfKey, isExpired } from '../../functions/shared/domain/accounts/api-keys';
import { keyExpiry, keyRequestSchema, MAX_KEY_LIFETIME_DAYS } from '../../functions/shared/domain/accounts/key-request';
import { ALL_SCOPES, SCOPES, type Scope } from '../../functions/shared/domain/accounts/permissions';
import { OwnMessages } from '../../functions/shared/domain/messages';
import { statusOf } from '../../functions/shared/domain/links/link';
import { auditStamp, OPERATOR } from '../../functions/shared/domain/audit/audit-stamp';
import { monthlyQuotaCounter } from '../../functions/shared/domain/limits/rate-limits';
import { calendarMonth } from '../../functions/shared/domain/limits/usage-windows';
import { FLAG_NAMES, formatFlagValue, isFlagName, parseFlagValue } from '../../functions/shared/domain/limits/flags';
import { PLANS, isPlan, monthlyCallLimit, type Plan } from '../../functions/shared/domain/limits/plans';
import { StackOutputs } from '../../lib/stack-outputs';
import { AccountDirectory } from './account-directory';
import { OpsError, output, type OpsTarget } from './target';

export interface Parsed {
  positionals: string[];
  values: { plan?: string; label?: string; 'monthly-limit'?: string; json?: boolean; key?: string; account?: string; reason?: string; scopes?: string; 'expires-at'?: string };
}

type Print = (line: string) => void;

const keyStore = (target: OpsTarget) => new DynamoKeyStore(target.dynamo, output(target, StackOutputs.apiKeysTable), output(target, StackOutputs.auditTable));
const directory = (target: OpsTarget) =>
  new AccountDirectory(keyStore(target), new DynamoAccountStore(target.dynamo, output(target, StackOutputs.accountsTable), output(target, StackOutputs.auditTable)));
const linkStore = (target: OpsTarget) => new DynamoLinkStore(target.dynamo, output(target, StackOutputs.linksTable));
/** Operators' takedowns and releases of a workspace's domain are recorded in its audit log, in the same transaction. */
const domainStore = (target: OpsTarget) => new DynamoDomainStore(target.dynamo, output(target, StackOutputs.domainsTable), output(target, StackOutputs.auditTable));

function planOption(value: string | undefined): Plan {
  const plan = value?.toUpperCase();
  if (!isPlan(plan)) throw new OpsError(`--plan must be one of ${PLANS.join(', ')}`);
  return plan;
}

/** `--scopes a,b`: known, distinct scopes (the API's own rule); without it the key holds every scope, as keys always did. */
function scopesOption(value: string | undefined): { scopes?: Scope[] } {
  if (value === undefined) return {};
  const result = keyRequestSchema().shape.scopes.safeParse(value.split(',').map((scope) => scope.trim()));
  if (!result.success) throw new OpsError(`--scopes: ${OwnMessages.keyScopes(SCOPES)}`);
  return { scopes: result.data };
}

/** `--expires-at <ISO time>`: in the future and at most a year ahead, as for keys people make. */
function expiryOption(value: string | undefined, nowMs: number): { expiresAt?: string } {
  if (value === undefined) return {};
  const result = keyRequestSchema().shape.expiresAt.safeParse(value);
  const expiresAt = result.success && result.data !== undefined ? keyExpiry(result.data, nowMs) : undefined;
  if (expiresAt === undefined) throw new OpsError(`--expires-at: ${OwnMessages.keyExpiresAt(MAX_KEY_LIFETIME_DAYS)}`);
  return { expiresAt };
}

/** A new account with its first key, or (--account) one more key of an existing account, which takes its plan. */
export async function keysCreate(target: OpsTarget, { values }: Parsed, print: Print): Promise<void> {
  const nowMs = Date.now();
  const keyOptions = { nowMs, ...(values.label !== undefined ? { label: values.label } : {}), ...scopesOption(values.scopes), ...expiryOption(values['expires-at'], nowMs) };
  let issued;
  if (values.account !== undefined) {
    if (values.plan !== undefined || values['monthly-limit'] !== undefined) throw new OpsError('a key added with --account takes the account\'s plan and limit');
    issued = await directory(target).addKey(values.account, keyOptions);
    if (!issued) throw new OpsError(`no account with id ${values.account}`);
  } else {
    const plan = planOption(values.plan);
    const monthlyLimit = values['monthly-limit'] === undefined ? undefined : Number(values['monthly-limit']);
    if (monthlyLimit !== undefined && (!Number.isInteger(monthlyLimit) || monthlyLimit < 0)) {
      throw new OpsError('--monthly-limit must be a whole number of calls');
    }
    issued = await directory(target).open(plan, { ...keyOptions, ...(monthlyLimit !== undefined ? { monthlyLimit } : {}) });
  }
  const { apiKey, record, account } = issued;
  const scopes = record.scopes ?? ALL_SCOPES;
  if (values.json) print(JSON.stringify({ apiKey, keyId: record.keyId, accountId: account.accountId, plan: record.plan, scopes, expiresAt: record.expiresAt ?? null }));
  else {
    const expiry = record.expiresAt ? `, expires ${record.expiresAt}` : '';
    print(`${apiKey}\n(keyId ${record.keyId}, account ${account.accountId}, plan ${record.plan}, scopes ${scopes.join(',')}${expiry}; the key is shown once and only its hash is stored)`);
  }
}

export async function keysList(target: OpsTarget, _parsed: Parsed, print: Print): Promise<void> {
  const records = await keyStore(target).list();
  records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const record of records) {
    const limit = record.monthlyLimit === undefined ? '' : `\tmonthly limit ${record.monthlyLimit}`;
    const scopes = record.scopes ? record.scopes.join(',') : 'all scopes';
    const expiry = `expires ${record.expiresAt ?? 'never'}${isExpired(record, Date.now()) ? ' (expired)' : ''}`;
    print(`${record.keyId}\t${accountOfKey(record).accountId}\t${record.plan}\t${record.status}\t${record.createdAt}\t${record.label ?? ''}\t${scopes}\t${expiry}\tlast used ${record.lastUsedAt ?? 'never'}${limit}`);
  }
  if (records.length === 0) print('no keys');
}

export async function keysRevoke(target: OpsTarget, { positionals }: Parsed, print: Print): Promise<void> {
  const keyId = positionals[2];
  if (!keyId) throw new OpsError('usage: keys revoke <keyId>');
  if (!(await directory(target).revokeKey(keyId, Date.now()))) throw new OpsError(`no key with id ${keyId} (or it is revoked already)`);
  print(`revoked ${keyId}`);
}

export async function accountsList(target: OpsTarget, _parsed: Parsed, print: Print): Promise<void> {
  const accounts = await directory(target).list();
  for (const account of accounts) {
    const limit = monthlyCallLimit(account.plan, account.monthlyLimit);
    print(`${account.accountId}\t${account.plan}\tmonthly limit ${limit ?? 'none'}\t${account.createdAt}\t${account.label ?? ''}`);
  }
  if (accounts.length === 0) print('no accounts');
}

export async function accountsShow(target: OpsTarget, { positionals }: Parsed, print: Print): Promise<void> {
  const accountId = positionals[2];
  if (!accountId) throw new OpsError('usage: accounts show <accountId>');
  const accounts = directory(target);
  const account = await accounts.find(accountId);
  if (!account) throw new OpsError(`no account with id ${accountId}`);
  const nowMs = Date.now();
  const limit = monthlyCallLimit(account.plan, account.monthlyLimit);
  const used = await new DynamoUsageCounter(target.dynamo, output(target, StackOutputs.usageTable)).current(monthlyQuotaCounter(accountId, nowMs));
  print(`account\t${account.accountId}${account.label ? `\t${account.label}` : ''}`);
  print(`plan\t${account.plan}`);
  print(`monthly limit\t${limit ?? 'none'}`);
  print(`calls this month\t${used} (resets ${calendarMonth(nowMs).resetDate})`);
  for (const key of await accounts.keysOf(accountId)) print(`key\t${key.keyId}\t${key.status}\t${key.createdAt}\t${key.label ?? ''}`);
}

export async function accountsSetPlan(target: OpsTarget, { positionals }: Parsed, print: Print): Promise<void> {
  const [, , accountId, plan] = positionals;
  if (!accountId || !plan) throw new OpsError(`usage: accounts set-plan <accountId> <${PLANS.join('|')}>`);
  const changed = await directory(target).setPlan(accountId, planOption(plan));
  if (!changed) throw new OpsError(`no account with id ${accountId}`);
  print(`${accountId} is now on ${changed.plan} (from its next request on)`);
}

/** A link on a custom domain is named by its key, `<domain>/<code>` (links/link.ts). */
export async function linksShow(target: OpsTarget, { positionals }: Parsed, print: Print): Promise<void> {
  const code = positionals[2];
  if (!code) throw new OpsError('usage: links show <code>');
  const link = await linkStore(target).find(code);
  if (!link) throw new OpsError(`no link with code ${code}`);
  print(`code\t${link.code}`);
  if (link.domain) print(`domain\t${link.domain}`);
  print(`owner\t${link.owner}`);
  print(`status\t${statusOf(link, Date.now())}`);
  print(`clicks\t${link.clicks}${link.maxClicks !== undefined ? ` of ${link.maxClicks}` : ''}`);
  print(`destination\t${link.url ?? '(none: a tombstone)'}`);
  print(`created\t${link.createdAt}${link.expiresAt ? `\texpires ${link.expiresAt}` : ''}`);
  if (link.disabled) print(`takedown reason\t${link.disabledReason ?? ''}`);
}

export async function linksDisable(target: OpsTarget, { positionals, values }: Parsed, print: Print): Promise<void> {
  const code = positionals[2];
  if (!code || !values.reason?.trim()) throw new OpsError('usage: links disable <code> --reason "<text>"');
  const nowMs = Date.now();
  if (!(await linkStore(target).setDisabled(code, values.reason.trim(), nowMs, auditStamp('link.disabled', OPERATOR, nowMs)))) throw new OpsError(`no link with code ${code}`);
  print(`${code} is disabled: visitors get 410 from their next uncached visit (at most 60 s)`);
}

export async function linksEnable(target: OpsTarget, { positionals }: Parsed, print: Print): Promise<void> {
  const code = positionals[2];
  if (!code) throw new OpsError('usage: links enable <code>');
  const nowMs = Date.now();
  if (!(await linkStore(target).setDisabled(code, undefined, nowMs, auditStamp('link.enabled', OPERATOR, nowMs)))) throw new OpsError(`no link with code ${code}`);
  print(`${code} is enabled again`);
}

export async function flagsList(target: OpsTarget, _parsed: Parsed, print: Print): Promise<void> {
  const prefix = output(target, StackOutputs.flagsPrefix);
  const { Parameters = [] } = await target.ssm.send(new GetParametersCommand({ Names: FLAG_NAMES.map((flag) => `${prefix}/${flag}`) }));
  const values = new Map(Parameters.map((parameter) => [parameter.Name, parameter.Value]));
  for (const flag of FLAG_NAMES) print(`${flag}\t${formatFlagValue(parseFlagValue(flag, values.get(`${prefix}/${flag}`)))}`);
}

export async function flagsSet(target: OpsTarget, { positionals }: Parsed, print: Print): Promise<void> {
  const [, , flag, value] = positionals;
  if (!flag || !isFlagName(flag)) throw new OpsError(`usage: flags set <${FLAG_NAMES.join('|')}> <on|off>`);
  if (value !== 'on' && value !== 'off') throw new OpsError('the value must be on or off');
  const prefix = output(target, StackOutputs.flagsPrefix);
  await target.ssm.send(new PutParameterCommand({ Name: `${prefix}/${flag}`, Value: value, Type: 'String', Overwrite: true }));
  print(`${flag} is now ${value} (functions pick it up within their flag cache time, at most 10 s)`);
}

export async function aliasesAllow(target: OpsTarget, { positionals, values }: Parsed, print: Print): Promise<void> {
  const alias = positionals[2];
  if (!alias || !ALIAS_PATTERN.test(alias)) throw new OpsError('usage: aliases allow <alias> --key <keyId>');
  if (!values.key) throw new OpsError('--key <keyId> is required');
  const keys = await keyStore(target).list();
  if (!keys.some((record) => record.keyId === values.key)) throw new OpsError(`no key with id ${values.key}`);
  await new DynamoAliasOverrides(target.dynamo, output(target, StackOutputs.aliasOverridesTable)).allow(alias, values.key, Date.now());
  print(`${values.key} may now use the reserved alias ${alias}`);
}

function domainName(positionals: string[], usage: string): string {
  const name = asciiDomain(positionals[2] ?? '');
  if (!name) throw new OpsError(`usage: ${usage}`);
  return name;
}

const domainLine = (record: DomainRecord) => `${record.domain}\t${record.status}\t${record.owner}${record.isDefault ? '\tdefault' : ''}\tsince ${record.createdAt}`;

export async function domainsList(target: OpsTarget, { values }: Parsed, print: Print): Promise<void> {
  const store = domainStore(target);
  let records: DomainRecord[];
  if (values.account === undefined) records = await store.listAll();
  else {
    const account = await directory(target).find(values.account);
    if (!account) throw new OpsError(`no account with id ${values.account}`);
    records = await store.listByOwner(account.owner);
  }
  records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const record of records) print(domainLine(record));
}

export async function domainsShow(target: OpsTarget, { positionals }: Parsed, print: Print): Promise<void> {
  const name = domainName(positionals, 'domains show <domain>');
  const store = domainStore(target);
  const record = await store.find(name);
  if (!record) {
    const hold = await store.holdOf(name);
    if (!hold) throw new OpsError(`no domain ${name}`);
    print(`domain\t${name}\theld for ${hold.heldFor} until ${new Date(hold.heldUntilMs).toISOString()} (domains release ${name} ends it)`);
    return;
  }
  print(`domain\t${record.domain}`);
  print(`owner\t${record.owner}`);
  print(`status\t${record.status}${record.statusReason ? `\t(${record.statusReason})` : ''}`);
  print(`default\t${record.isDefault ? 'yes' : 'no'}`);
  for (const dns of record.dnsRecords) print(`dns\t${dns.type} ${dns.name} ${dns.value}`);
  for (const field of ['rootUrl', 'notFoundUrl', 'expiredUrl'] as const) if (record[field]) print(`${field}\t${record[field]}`);
  print(`created\t${record.createdAt}${record.verifiedAt ? `\tverified ${record.verifiedAt}` : ''}`);
  for (const change of record.history) print(`history\t${change.at}\t${change.status}${change.reason ? `\t${change.reason}` : ''}`);
}

export async function domainsDisable(target: OpsTarget, { positionals, values }: Parsed, print: Print): Promise<void> {
  const name = domainName(positionals, 'domains disable <domain> --reason "<text>"');
  if (!values.reason?.trim()) throw new OpsError('usage: domains disable <domain> --reason "<text>"');
  if (!(await disableDomain(name, values.reason.trim(), Date.now(), domainStore(target)))) throw new OpsError(`no domain ${name}`);
  print(`${name} is disabled: every link on it answers 410 within 5 s`);
}

export async function domainsEnable(target: OpsTarget, { positionals }: Parsed, print: Print): Promise<void> {
  const name = domainName(positionals, 'domains enable <domain>');
  const record = await enableDomain(name, Date.now(), domainStore(target));
  if (!record) throw new OpsError(`no domain ${name}`);
  print(`${name} is ${record.status} again`);
}

const RELEASED = {
  claimRemoved: 'its claim is removed (links deleted and tenant removed in the background); anyone may claim it now',
  holdEnded: 'its hold for the former owner ended; anyone may claim it now',
} as const;

/** Frees a name (issue 27): a former owner's hold, a takedown, a squatted or failed claim. */
export async function domainsRelease(target: OpsTarget, { positionals }: Parsed, print: Print): Promise<void> {
  const name = domainName(positionals, 'domains release <domain>');
  const released = await releaseDomain(name, Date.now(), domainStore(target));
  if (released === 'nothing') throw new OpsError(`no claim or hold on ${name}`);
  if (released === 'changed') throw new OpsError(`${name} changed while it was read: run the command again`);
  print(`${name} is released: ${RELEASED[released]}`);
}
