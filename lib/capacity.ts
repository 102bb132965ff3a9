import type { Route } from '../functions/shared/http/routes';

/**
 * The service's capacity plan, in one place: the README's capacity table is these numbers. Each kind of traffic
 * has its own ceiling at each layer, so no kind can use up what another needs: visitors of a viral link, anonymous
 * v1 callers and junk tokens can each be refused without touching what paying API clients get.
 *
 * AWS defaults these sit under: API Gateway 10,000 rps (5,000 burst) per account and region, Lambda 1,000
 * concurrent executions per region (of which 100 must stay unreserved), CloudFront 250,000 rps per distribution.
 */
export type TrafficClass = 'visitor' | 'anonymous' | 'api' | 'documents';

export function trafficClassOf(route: Pick<Route, 'target' | 'apiKey' | 'path'>): TrafficClass {
  if (route.target === 'redirect') return 'visitor';
  if (route.apiKey) return 'api';
  return route.path.startsWith('/v1/') ? 'anonymous' : 'documents';
}

export interface Throttle {
  rateLimit: number;
  burstLimit: number;
}

/**
 * Per-method API Gateway throttles (requests per second, token-bucket burst), each method its own bucket. All
 * methods also share the account's 10,000 rps, so what is not the API's adds up to at most half of it: visitors'
 * GET 4,000, their HEAD and password POST 500 each, v1's two routes and the three open documents 50 each, a
 * customer domain's root (GET and HEAD) 100 each (5,450 in all), and API clients keep at least 4,550 rps however
 * hard the rest is pushed.
 */
export const METHOD_THROTTLES = {
  visitor: { rateLimit: 4000, burstLimit: 2000 },
  /** HEAD and the password form's POST: nobody needs thousands a second of those. */
  visitorOther: { rateLimit: 500, burstLimit: 250 },
  /** A customer domain's root, redirected to its rootUrl: a home page, not a campaign's link. */
  visitorRoot: { rateLimit: 100, burstLimit: 100 },
  // v1 allows 5 calls a minute per address: 50 rps serves 600 addresses at their full rate.
  anonymous: { rateLimit: 50, burstLimit: 100 },
  api: { rateLimit: 2000, burstLimit: 1000 },
  documents: { rateLimit: 50, burstLimit: 100 },
} as const satisfies Record<string, Throttle>;

/** The throttle of one method of a route. */
export function methodThrottle(route: Pick<Route, 'target' | 'apiKey' | 'path'>, method: string): Throttle {
  const trafficClass = trafficClassOf(route);
  if (trafficClass !== 'visitor') return METHOD_THROTTLES[trafficClass];
  if (route.path === '/') return METHOD_THROTTLES.visitorRoot;
  return method === 'GET' ? METHOD_THROTTLES.visitor : METHOD_THROTTLES.visitorOther;
}

/** API Gateway's default rate per account and region, shared by every method of every API there. */
export const ACCOUNT_RATE_LIMIT = 10_000;

/**
 * Lambda concurrency. The redirect's reservation is also its ceiling: a flood of visitors can use 300 executions
 * and no more, so the API's functions keep the rest of the region's pool. The authorizer's reservation is its
 * floor: API calls are authorized even while the pool is busy. At ~20 ms a warm redirect, 300 executions serve
 * about 15,000 rps, far above the visitor throttle (4,000 rps need about 80). Operators on accounts with a lower
 * limit set them by context.
 */
export const RESERVED_CONCURRENCY = { redirect: 300, authorizer: 100, webhookRouter: 10 } as const;

/**
 * The webhook deliverer's ceiling: its SQS event source runs at most this many batches at once (maximum
 * concurrency, which reserves nothing from the pool). Endpoints that answer slowly or never (a tarpit) hold a batch
 * up to 22 s; at this ceiling they hold 50 executions at worst, and the rest of the region's pool stays the API's.
 * The router's reservation above is its ceiling too: a burst of stream shards cannot grow it past 10.
 */
export const WEBHOOK_DELIVERER_MAX_CONCURRENCY = 50;

/**
 * AWS WAF rate-based rules: requests per client address per 5 minutes, counted at the edge for visitors (the
 * CloudFront web ACL, which lives in us-east-1) and at the API stage for API callers (the regional web ACL).
 * A person clicks far fewer than 10,000 links in 5 minutes even behind a carrier-grade NAT; an API client at
 * its full 1,000 calls a minute makes 5,000.
 */
export const WAF_RATE_LIMITS = {
  /** Visitors, per viewer address, on the short domain's distribution. */
  visitorPerAddress: 10_000,
  /** v2 callers, per address, at the API stage: several keys behind one address still fit. */
  apiPerAddress: 20_000,
  /** v1 callers, per address: their own limit is 5 a minute (25 per 5 minutes); past 300 it is a flood. */
  anonymousPerAddress: 300,
  /** Visitors who skip CloudFront and call the API's own URL, per address. */
  directVisitorPerAddress: 2_000,
} as const;

/** WAF counts over this window; AWS offers 1, 2, 5 or 10 minutes. */
export const WAF_WINDOW_SECONDS = 300;

/**
 * Password hashing sizes the creation functions. scrypt (N=2^15, r=8, p=1) costs 101 to 130 ms of CPU per hash on a
 * full core here, run to run (`npm run bench:scrypt`); sized with the slowest: a 50-item batch with a password on
 * each is 50 hashes, 6.5 s. Lambda gives a full vCPU at 1,769 MB, so the batch function runs there with a 15-s
 * timeout: 2.3 times the need. At the previous 512 MB (0.29 vCPU) the same batch needed about 22 s.
 */
export const PASSWORD_HASH_CPU_MS = 130;
export const FULL_VCPU_MEMORY_MB = 1769;
export const BATCH_FUNCTION = { memorySize: FULL_VCPU_MEMORY_MB, timeoutSeconds: 15 } as const;

/** Seconds `hashes` password hashes of `hashCpuMs` each take on the CPU share Lambda gives `memoryMb`. */
export function hashingSeconds(hashes: number, hashCpuMs: number, memoryMb: number): number {
  return (hashes * hashCpuMs) / 1000 / (memoryMb / FULL_VCPU_MEMORY_MB);
}
