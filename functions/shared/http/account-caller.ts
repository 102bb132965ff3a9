import type { ApiKeyCaller } from '../domain/accounts/caller';
import { changeAuthor } from './change-author';
import type { ManagementContext } from '../domain/links/link-viewing';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { managedDomain, type LinkDomains } from '../domain/domains/link-domains';
import type { Admission } from './api-guard';

/** The authorizer guards every account route; a caller without a key there is a wiring bug (500). */
export function accountCaller(admission: Admission): ApiKeyCaller {
  if (admission.caller.kind !== 'apiKey') throw new Error('an account route reached without an API key');
  return admission.caller;
}

/**
 * What an account's request on one of its links is decided with: who, the flags it was admitted under, now, the
 * base URL, and the domain the link is on (`?domain=`, else the account's default, else the shared domain) with
 * whoever holds it now.
 */
export async function managementContext(
  admission: Admission,
  event: Pick<APIGatewayProxyEvent, 'queryStringParameters' | 'requestContext'>,
  shortBaseUrl: () => Promise<string>,
  domains: LinkDomains,
): Promise<ManagementContext> {
  const caller = accountCaller(admission);
  const base = await shortBaseUrl();
  const managed = await managedDomain(event.queryStringParameters?.domain, caller, admission.flags, base, domains);
  return { caller, author: changeAuthor(caller, event), flags: admission.flags, nowMs: Date.now(), shortBaseUrl: base, ...managed };
}
