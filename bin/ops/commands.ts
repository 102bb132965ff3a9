import { GetParametersCommand, PutParameterCommand } from '@aws-sdk/client-ssm';
import { DynamoAliasOverrides } from '../../functions/shared/adapters/dynamo-alias-overrides';
import { DynamoKeyStore } from '../../functions/shared/adapters/dynamo-key-store';
import { ALIAS_PATTERN } from '../../functions/shared/domain/links/aliases';
import { issueApiKey } from '../../functions/shared/domain/accounts/api-keys';
import { FLAG_NAMES, formatFlagValue, isFlagName, parseFlagValue } from '../../functions/shared/domain/limits/flags';
import { PLANS, isPlan } from '../../functions/shared/domain/limits/plans';
import { StackOutputs } from '../../lib/stack-outputs';
import { OpsError, output, type OpsTarget } from './target';

export interface Parsed {
  positionals: string[];
  values: { plan?: string; label?: string; 'monthly-limit'?: string; json?: boolean; key?: string };
}

type Print = (line: string) => void;

const keyStore = (target: OpsTarget) => new DynamoKeyStore(target.dynamo, output(target, StackOutputs.apiKeysTable));

export async function keysCreate(target: OpsTarget, { values }: Parsed, print: Print): Promise<void> {
  const plan = values.plan?.toUpperCase();
  if (!isPlan(plan)) throw new OpsError(`--plan must be one of ${PLANS.join(', ')}`);
  const monthlyLimit = values['monthly-limit'] === undefined ? undefined : Number(values['monthly-limit']);
  if (monthlyLimit !== undefined && (!Number.isInteger(monthlyLimit) || monthlyLimit < 0)) {
    throw new OpsError('--monthly-limit must be a whole number of calls');
  }
  const { apiKey, record } = issueApiKey(plan, {
    nowMs: Date.now(),
    ...(values.label !== undefined ? { label: values.label } : {}),
    ...(monthlyLimit !== undefined ? { monthlyLimit } : {}),
  });
  await keyStore(target).add(record);
  if (values.json) print(JSON.stringify({ apiKey, keyId: record.keyId, plan: record.plan }));
  else print(`${apiKey}\n(keyId ${record.keyId}, plan ${record.plan}; the key is shown once and only its hash is stored)`);
}

export async function keysList(target: OpsTarget, _parsed: Parsed, print: Print): Promise<void> {
  const records = await keyStore(target).list();
  records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const record of records) {
    const limit = record.monthlyLimit === undefined ? '' : `\tmonthly limit ${record.monthlyLimit}`;
    print(`${record.keyId}\t${record.plan}\t${record.status}\t${record.createdAt}\t${record.label ?? ''}${limit}`);
  }
  if (records.length === 0) print('no keys');
}

export async function keysRevoke(target: OpsTarget, { positionals }: Parsed, print: Print): Promise<void> {
  const keyId = positionals[2];
  if (!keyId) throw new OpsError('usage: keys revoke <keyId>');
  if (!(await keyStore(target).revoke(keyId))) throw new OpsError(`no key with id ${keyId}`);
  print(`revoked ${keyId}`);
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
