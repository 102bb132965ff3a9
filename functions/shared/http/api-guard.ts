import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { assertPermitted } from '../domain/accounts/access';
import type { Caller } from '../domain/accounts/caller';
import { assertNotInMaintenance, type Flags } from '../domain/limits/flags';
import type { FlagSource, UsageCounter } from '../domain/ports';
import { admitCall, admitToMinuteWindow, type RateLimitStatus } from '../domain/limits/rate-limits';
import { DependencyUnavailable, QuotaExceeded, RateLimited } from '../domain/errors';
import { MetricName } from '../metric-names';
import { count, logger } from '../observability';
import { errorResponse, rateLimitHeaders } from './error-responses';
import type { ClientKeyer } from './client-key';
import { callerFrom, requestInfo } from './request-info';
import { permissionFor } from './routes';
import type { OriginSecrets } from './trusted-viewer';

const noAnonymousRoutes: ClientKeyer = () => Promise.reject(new Error('an anonymous route reached a function without a client keyer'));
const trustNoViewer: OriginSecrets = () => Promise.resolve([]);

export interface Admission {
  caller: Caller;
  flags: Flags;
  rateLimit: RateLimitStatus;
  /** The account's default domain, read beside the admission's counters (creation functions only). */
  defaultDomain?: Promise<string | undefined>;
}

export type GuardedContext = Context & { admission: Admission };

interface GuardDeps {
  flags: FlagSource;
  usage: UsageCounter;
  upgradeUrl: string;
  /** How anonymous (v1) callers are counted; functions without v1 routes never call it. */
  keyClient?: ClientKeyer;
  /** The values CloudFront sends, beside which an anonymous caller's viewer address is believed (none: never). */
  originSecrets?: OriginSecrets;
  /**
   * Requests whose monthly call the handler counts itself, only when it does the work: creations with an
   * Idempotency-Key, whose replays are not counted again.
   */
  defersQuota?: (event: APIGatewayProxyEvent) => boolean;
  /**
   * Creations put a link on the account's default domain: read side by side with the counters rather than after
   * them, it costs no round trip of its own.
   */
  defaultDomainOf?: (caller: Caller, flags: Flags) => Promise<string | undefined>;
}

/**
 * What every API request goes through before its body is read, in the spec's order: maintenance (503), what the
 * caller may do (403), per-minute limit and monthly quota (429). Afterwards it stamps the rate-limit headers on the answer and turns
 * any failure into the spec's body.
 */
export function apiGuard(deps: GuardDeps): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, GuardedContext> {
  return {
    before: async (request) => {
      const caller = await callerFrom(request.event, deps.keyClient ?? noAnonymousRoutes, deps.originSecrets ?? trustNoViewer);
      const flags = await deps.flags.current();
      assertNotInMaintenance(flags);
      // Before the counters: a request its caller may not make spends neither the minute's calls nor the month's.
      assertPermitted(caller, permissionFor(request.event.resource, request.event.httpMethod));
      const admit = deps.defersQuota?.(request.event) ? admitToMinuteWindow : admitCall;
      const defaultDomain = deps.defaultDomainOf?.(caller, flags);
      // A refused call never asks for it: its failure is for the handler to meet, not an unhandled rejection.
      defaultDomain?.catch(() => undefined);
      request.context.admission = { caller, flags, rateLimit: await admit(caller, deps.usage, Date.now()), ...(defaultDomain ? { defaultDomain } : {}) };
    },
    after: (request) => {
      const admission = request.context.admission as Admission | undefined;
      if (request.response && admission) Object.assign(request.response.headers ??= {}, rateLimitHeaders(admission.rateLimit));
    },
    onError: (request) => {
      const response = errorResponse(request.error, requestInfo(request.event), deps.upgradeUrl, Date.now());
      if (response.statusCode === 500) logger.error('request failed', { error: request.error as Error });
      if (request.error instanceof DependencyUnavailable) logger.error('dependency unavailable', { error: request.error.cause as Error });
      if (request.error instanceof RateLimited) count(MetricName.rateLimitRejections);
      if (request.error instanceof QuotaExceeded) count(MetricName.quotaRejections);
      const admission = request.context.admission as Admission | undefined;
      if (admission && !response.headers['x-ratelimit-limit']) Object.assign(response.headers, rateLimitHeaders(admission.rateLimit));
      request.response = response;
    },
  };
}
