import type { APIGatewayProxyEvent } from 'aws-lambda';
import { isLinkPreviewBot } from '../domain/visits/preview-bots';
import type { Visit } from '../domain/visits/visit';
import type { VisitorSignals } from '../domain/destinations/destination-choice';
import { variantInCookie } from './variant-cookie';
import { CSRF_COOKIE, cookieValue, csrfTokensMatch } from './csrf';
import type { ClientKeyer } from './client-key';
import { header } from './headers';
import { trustedClientIp, trustedViewerCountry, trustedViewerHost, trustedViewerPlace, type OriginSecrets } from './trusted-viewer';
import { agentTraits, type AgentTraits } from '../domain/analytics/visitor-traits';

/** A password form is a few dozen bytes; anything much larger is not one. */
const MAX_FORM_BYTES = 4096;

export interface VisitorRequest {
  visit: Visit;
  /** The client asked for JSON (Accept: application/json) rather than a page. */
  wantsJson: boolean;
  /** A password was posted without the matching CSRF cookie: the form is shown again, nothing is counted. */
  staleForm: boolean;
  /** Reached over HTTPS (through CloudFront and API Gateway), so cookies can be Secure. */
  secure: boolean;
  /** What the stats keep of the User-Agent (isbot's verdict, browser and OS families): the agent itself goes no further. */
  agent: AgentTraits;
  /** CloudFront's region and city, as vouched for by the origin secret (issue 30). */
  place: { region?: string; city?: string };
}

function postedForm(event: APIGatewayProxyEvent): URLSearchParams | undefined {
  const contentType = header(event, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (event.httpMethod !== 'POST' || contentType !== 'application/x-www-form-urlencoded' || !event.body) return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  return raw.length > MAX_FORM_BYTES ? undefined : new URLSearchParams(raw);
}

/**
 * What a smart link's rules and variants read: as received, each worked out only if a rule asks
 * (destination-choice.ts); the country only as CloudFront vouched for it.
 */
function visitorSignals(event: APIGatewayProxyEvent, country: string | undefined): VisitorSignals {
  const variant = variantInCookie(header(event, 'cookie'));
  const userAgent = header(event, 'user-agent');
  const acceptLanguage = header(event, 'accept-language');
  const query: Array<readonly [string, string]> = [];
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) for (const value of values ?? []) query.push([name, value]);
  return {
    query,
    ...(country === undefined ? {} : { country }),
    ...(userAgent === undefined ? {} : { userAgent }),
    ...(acceptLanguage === undefined ? {} : { acceptLanguage }),
    ...(variant === undefined ? {} : { variant }),
  };
}

export function wantsJson(accept: string | undefined): boolean {
  const value = (accept ?? '').toLowerCase();
  return value.includes('application/json') && !value.includes('text/html');
}

/**
 * The origin secret is read only for requests naming a customer domain, carrying a viewer country or posting a
 * password, and compared once whatever they carry; the client key only for password posts, the one thing the
 * address is for.
 */
export async function readVisitorRequest(event: APIGatewayProxyEvent, originSecrets: OriginSecrets, keyClient: ClientKeyer): Promise<VisitorRequest> {
  const method = event.httpMethod === 'HEAD' || event.httpMethod === 'POST' ? event.httpMethod : 'GET';
  const form = postedForm(event);
  const password = form?.get('password') ?? undefined;
  const csrfValid = csrfTokensMatch(cookieValue(header(event, 'cookie'), CSRF_COOKIE), form?.get('csrf') ?? undefined);
  const host = await trustedViewerHost(event, originSecrets);
  const country = await trustedViewerCountry(event, originSecrets);
  const agent = agentTraits(header(event, 'user-agent'));
  return {
    visit: {
      code: event.pathParameters?.code ?? '',
      ...(host === undefined ? {} : { host }),
      method,
      client: password !== undefined && csrfValid ? await keyClient(await trustedClientIp(event, originSecrets)) : '',
      previewBot: isLinkPreviewBot(header(event, 'user-agent')),
      bot: agent.bot,
      ...(password !== undefined && csrfValid ? { submittedPassword: password } : {}),
      signals: visitorSignals(event, country),
    },
    wantsJson: wantsJson(header(event, 'accept')),
    staleForm: password !== undefined && !csrfValid,
    secure: header(event, 'x-forwarded-proto') === 'https',
    agent,
    place: await trustedViewerPlace(event, originSecrets),
  };
}
