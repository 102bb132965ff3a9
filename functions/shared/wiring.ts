import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { BlocklistSafetyChecker } from './adapters/blocklist-safety-checker';
import { dynamo, ssm } from './adapters/clients';
import { DynamoAliasOverrides } from './adapters/dynamo-alias-overrides';
import { DynamoAnalyticsSwitches } from './adapters/dynamo-analytics-switches';
import { DynamoClickStatsStore } from './adapters/dynamo-click-stats';
import { DynamoDomainStore } from './adapters/dynamo-domain-store';
import { DynamoKeyStore } from './adapters/dynamo-key-store';
import { DynamoLinkStore } from './adapters/dynamo-link-store';
import { DynamoUsageCounter } from './adapters/dynamo-usage-counter';
import { GoogleSafeBrowsingChecker } from './adapters/google-safe-browsing';
import { SsmFlagSource } from './adapters/ssm-flag-source';
import { besideTheBundle } from './bundle-beside';
import { BESIDE_THE_BUNDLE, config } from './config';
import { originSecretValues, type OriginSecrets } from './http/trusted-viewer';
import type { SafetyChecker, SmartFieldsLoader } from './domain/ports';
import type { SmartFieldParsers } from './domain/destinations/smart-link-request';
import { MetricName } from './metric-names';
import { count, logger } from './observability';

/** Builds each adapter from the function's environment. Handlers call these once, at module level. */

export const linkStore = () => new DynamoLinkStore(dynamo(), config.table('linksTable'));
export const usageCounter = () => new DynamoUsageCounter(dynamo(), config.table('usageTable'));
export const keyStore = () => new DynamoKeyStore(dynamo(), config.table('apiKeysTable'));
/** The keys and workspace functions': they change keys, each change beside its audit record. */
export const workspaceKeyStore = () => new DynamoKeyStore(dynamo(), config.table('apiKeysTable'), config.table('auditTable'));
export const aliasOverrides = () => new DynamoAliasOverrides(dynamo(), config.table('aliasOverridesTable'));
export const clickStats = () => new DynamoClickStatsStore(dynamo(), config.table('clickStatsTable'), config.table('linksTable'));
export const domainStore = () => new DynamoDomainStore(dynamo(), config.table('domainsTable'));
/** The domains API's store: an owner's changes write their audit records in the same transaction. */
export const auditedDomainStore = () => new DynamoDomainStore(dynamo(), config.table('domainsTable'), config.table('auditTable'));
/** The aggregator's reader of each workspace's analytics switches (issue 30). */
export const analyticsSwitches = () => new DynamoAnalyticsSwitches(dynamo(), config.table('accountsTable'));
export const flagSource = () => new SsmFlagSource(ssm(), config.flagsPrefix(), logger);

/**
 * With a custom short domain the base URL is in the environment. Without one it is the CloudFront distribution's
 * name, which cannot be passed to the functions the distribution itself depends on, so it is read from SSM, once
 * per container (it never changes for a deployment).
 */
export function shortBaseUrlReader(): () => Promise<string> {
  const fromEnvironment = config.shortBaseUrl();
  return fromEnvironment ? () => Promise.resolve(fromEnvironment) : parameterOnFirstUse(config.shortBaseUrlParameter(), false);
}

/** Reads a parameter when first asked and keeps it for the container's life; a failed read is tried again next time. */
export function parameterOnFirstUse(name: string, decrypt: boolean): () => Promise<string> {
  let value: Promise<string> | undefined;
  return () => {
    value ??= readParameter(name, decrypt).catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}

async function readParameter(name: string, decrypt: boolean): Promise<string> {
  const { Parameter } = await ssm().send(new GetParameterCommand({ Name: name, WithDecryption: decrypt }));
  if (!Parameter?.Value) throw new Error(`SSM parameter ${name} is empty`);
  return Parameter.Value;
}

const ORIGIN_SECRET_REFRESH_MS = 5 * 60_000;

/**
 * The secret CloudFront sends to prove a request came through it; without one configured, nothing is trusted.
 * Read again every 5 minutes, so a rotation (docs/operating.md) reaches every container without a deploy.
 */
export function originSecrets(): OriginSecrets {
  const name = config.originVerifyParameter();
  if (!name) return () => Promise.resolve([]);
  const stored = parameterKeptFor(name, ORIGIN_SECRET_REFRESH_MS);
  // Parsed once per stored value, not once per request.
  let parsed: { from: string; values: readonly string[] } | undefined;
  return async () => {
    const value = await stored();
    if (parsed?.from !== value) parsed = { from: value, values: originSecretValues(value) };
    return parsed.values;
  };
}

/** Like parameterOnFirstUse, read again once `ttlMs` old; while a new read fails, the last value stands. */
function parameterKeptFor(name: string, ttlMs: number): () => Promise<string> {
  let last: { value: string; readAt: number } | undefined;
  let reading: Promise<string> | undefined;
  return () => {
    if (last && Date.now() - last.readAt < ttlMs) return Promise.resolve(last.value);
    reading ??= readParameter(name, true).then(
      (value) => {
        last = { value, readAt: Date.now() };
        reading = undefined;
        return value;
      },
      (error: unknown) => {
        reading = undefined;
        if (last) return last.value;
        throw error;
      },
    );
    return reading;
  };
}

/** Google Safe Browsing when a key parameter is configured, else the shipped blocklist. */
export function safetyChecker(): SafetyChecker {
  const keyParameter = config.safeBrowsingKeyParameter();
  if (!keyParameter) return new BlocklistSafetyChecker();
  return new GoogleSafeBrowsingChecker({
    apiKey: parameterOnFirstUse(keyParameter, true),
    endpoint: config.safeBrowsingEndpoint(),
    failOpen: config.safetyFailsOpen(),
    onFailure: (reason) => {
      logger.error('safety check failed', { reason });
      count(MetricName.safetyCheckFailures);
    },
  });
}

/** The smart-link fields' parsers, a bundle beside the function's (lib/service-stack.ts), loaded by the first request that needs them. */
export function smartFieldsOnFirstUse(): SmartFieldsLoader {
  return besideTheBundle(BESIDE_THE_BUNDLE.smartLinks, (bundle: { smartFieldParsers: SmartFieldParsers }) => bundle.smartFieldParsers);
}
