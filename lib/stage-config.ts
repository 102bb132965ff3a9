import type { Node } from 'constructs';
import { RESERVED_CONCURRENCY } from './capacity';

export const STAGES = ['dev', 'prod'] as const;
export type Stage = (typeof STAGES)[number];

/** Everything an operator can choose per deployment, from CDK context (`-c key=value` or cdk.json). */
export interface StageConfig {
  appName: string;
  stage: Stage;
  /** e.g. sho.rt; without it visitors use the CloudFront domain name. */
  shortDomain?: string;
  /** ACM certificate in us-east-1 for shortDomain (CloudFront only reads certificates from there). */
  certificateArn?: string;
  hostedZoneId?: string;
  hostedZoneName?: string;
  /** Where 403 and 429 bodies send people to upgrade. */
  upgradeUrl: string;
  /** The sender of invitations: an address (or its domain) verified as an SES identity in the stage's region. */
  mailFrom: string;
  /** SecureString parameter holding a Google Safe Browsing key; without it the shipped blocklist is used. */
  safeBrowsingKeyParameter?: string;
  /** `allow` lets creations through while the third-party safety check is down; the default refuses them. */
  safetyFailMode?: 'refuse' | 'allow';
  /** Receives alarm notifications. */
  alarmEmail?: string;
  /** Raised by one at each rotation of the CloudFront origin secret (docs/operating.md); 1 until then. */
  originSecretGeneration: number;
  /**
   * Reserved concurrency of the redirect and the webhook router (their ceilings) and the authorizer (its floor); `none` leaves a function
   * unreserved, for accounts whose concurrency limit is below the defaults' needs (capacity.ts).
   */
  reservedConcurrency: { redirect?: number; authorizer?: number; webhookRouter?: number };
  /** People may create their own account in the user pool (`selfSignUp=true`); off by default: invitations bring them. */
  selfSignUp: boolean;
}

function text(node: Node, key: string): string | undefined {
  const value: unknown = node.tryGetContext(key);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function readStageConfig(node: Node): StageConfig {
  const stage = text(node, 'stage') ?? 'dev';
  if (!(STAGES as readonly string[]).includes(stage)) throw new Error(`stage must be one of ${STAGES.join(', ')}, got ${stage}`);
  const upgradeUrl = text(node, 'upgradeUrl');
  if (!upgradeUrl || !/^https:\/\//.test(upgradeUrl)) throw new Error('context upgradeUrl must be an https URL');
  const mailFrom = text(node, 'mailFrom');
  if (!mailFrom || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(mailFrom)) throw new Error('context mailFrom must be an email address (an SES identity)');
  const config: StageConfig = {
    appName: text(node, 'appName') ?? 'shortener',
    stage: stage as Stage,
    upgradeUrl,
    mailFrom,
    originSecretGeneration: wholeNumber(node, 'originSecretGeneration', 1) ?? 1,
    selfSignUp: flag(node, 'selfSignUp'),
    reservedConcurrency: {
      ...optionalReservation('redirect', wholeNumber(node, 'redirectConcurrency', RESERVED_CONCURRENCY.redirect)),
      ...optionalReservation('authorizer', wholeNumber(node, 'authorizerConcurrency', RESERVED_CONCURRENCY.authorizer)),
      ...optionalReservation('webhookRouter', wholeNumber(node, 'webhookRouterConcurrency', RESERVED_CONCURRENCY.webhookRouter)),
    },
  };
  for (const key of ['shortDomain', 'certificateArn', 'hostedZoneId', 'hostedZoneName', 'safeBrowsingKeyParameter', 'alarmEmail'] as const) {
    const value = text(node, key);
    if (value !== undefined) config[key] = value;
  }
  const failMode = text(node, 'safetyFailMode');
  if (failMode !== undefined) {
    if (failMode !== 'refuse' && failMode !== 'allow') throw new Error('safetyFailMode must be refuse or allow');
    config.safetyFailMode = failMode;
  }
  if (config.shortDomain && !config.certificateArn) throw new Error('shortDomain needs certificateArn (an ACM certificate in us-east-1)');
  return config;
}

/** `true` or `false` from context (a string on the command line, a boolean in cdk.json); false when absent. */
function flag(node: Node, key: string): boolean {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  throw new Error(`${key} must be true or false`);
}

/** A whole number from context, `fallback` when absent, undefined for `none`. */
function wholeNumber(node: Node, key: string, fallback: number): number | undefined {
  const value = text(node, key);
  if (value === undefined) return fallback;
  if (value === 'none') return undefined;
  if (!/^[1-9]\d{0,5}$/.test(value)) throw new Error(`${key} must be a whole number of at least 1, or none`);
  return Number(value);
}

const optionalReservation = (name: keyof typeof RESERVED_CONCURRENCY, value: number | undefined) => (value === undefined ? {} : { [name]: value });

export function stackName(config: Pick<StageConfig, 'appName' | 'stage'>): string {
  return `${config.appName}-${config.stage}`;
}
