import type { ApiKeyCaller } from '../accounts/caller';
import { auditRecord, fieldChanges, type AuditRecord } from '../audit/audit-record';
import { challengeMet, challengeRecord, newClaimId } from '../domains/dns-challenge';
import { asciiDomain } from '../domains/host-name';
import { InvalidRequest, SsoChallengeMissing, SsoConnectionNotFound, SsoDomainInUse } from '../errors';
import { assertPlanIncludes } from '../limits/plans';
import { OwnMessages } from '../messages';
import type { IdentityProviders, SsoStore, TxtRecords } from '../ports';
import { parseOrRefuse } from '../request-parsing';
import { MAX_SSO_CONNECTIONS, providerNameFor, type SsoConnection, type SsoConnectionView } from './sso-connection';
import { ssoRequestSchema } from './sso-request';

export interface SsoDeps {
  sso: SsoStore;
  providers: IdentityProviders;
  txt: TxtRecords;
}

export interface SsoContext {
  caller: ApiKeyCaller;
  nowMs: number;
  requestId?: string;
  /** Loopback hosts a local run lets a provider live on (its stand-in customer's provider); none on AWS. */
  localProviderHosts: ReadonlySet<string>;
}

export function toSsoView(connection: SsoConnection): SsoConnectionView {
  return {
    domain: connection.domain,
    protocol: connection.protocol,
    status: connection.status,
    dnsRecord: challengeRecord(connection.domain, connection.claimId),
    ...(connection.oidc ? { oidc: connection.oidc } : {}),
    ...(connection.saml ? { saml: connection.saml } : {}),
    createdAt: connection.createdAt,
    ...(connection.verifiedAt ? { verifiedAt: connection.verifiedAt } : {}),
  };
}

/** What the log keeps of a connection: its settings, never the client secret (which is not in a connection at all). */
const audited = (connection: SsoConnection) => ({ protocol: connection.protocol, status: connection.status, oidc: connection.oidc, saml: connection.saml });

function record(context: SsoContext, action: string, domain: string, before: SsoConnection | undefined, after: SsoConnection | undefined): AuditRecord {
  return auditRecord({
    workspaceId: context.caller.accountId,
    actor: context.caller.actor,
    action,
    target: { type: 'sso', id: domain },
    changes: fieldChanges(before && audited(before), after && audited(after)),
    ...(context.requestId ? { requestId: context.requestId } : {}),
    nowMs: context.nowMs,
  });
}

/**
 * POST /v2/sso: claims the email domain for the workspace (pending, with the TXT record to publish) and registers
 * its provider in the user pool, where nobody is sent to it until the domain is proven. Claimed first, so two
 * workspaces racing for a domain never both reach the pool; a provider the pool refuses releases the claim.
 */
export async function addSsoConnection(body: object, context: SsoContext, deps: SsoDeps): Promise<SsoConnectionView> {
  assertPlanIncludes(context.caller.plan, 'singleSignOn');
  const request = parseOrRefuse(ssoRequestSchema(context.localProviderHosts), body);
  const connection: SsoConnection = {
    workspaceId: context.caller.accountId,
    domain: request.domain,
    protocol: request.protocol,
    status: 'pending',
    claimId: newClaimId(),
    providerName: providerNameFor(context.caller.accountId, request.domain),
    ...(request.oidc ? { oidc: { issuer: request.oidc.issuer, clientId: request.oidc.clientId } } : {}),
    ...(request.saml ? { saml: request.saml } : {}),
    createdAt: new Date(context.nowMs).toISOString(),
  };
  const added = await deps.sso.add(connection, MAX_SSO_CONNECTIONS, record(context, 'sso.created', connection.domain, undefined, connection));
  if (added === 'taken') throw new SsoDomainInUse(OwnMessages.ssoInUse);
  if (added === 'overLimit') throw new InvalidRequest(OwnMessages.ssoLimit(MAX_SSO_CONNECTIONS));
  try {
    await deps.providers.register({
      providerName: connection.providerName,
      protocol: connection.protocol,
      ...(request.oidc ? { oidc: request.oidc } : {}),
      ...(request.saml ? { saml: request.saml } : {}),
    });
  } catch (error) {
    await deps.sso.remove(connection.workspaceId, connection.domain, record(context, 'sso.deleted', connection.domain, connection, undefined));
    throw error;
  }
  return toSsoView(connection);
}

export async function listSsoConnections(context: SsoContext, deps: Pick<SsoDeps, 'sso'>): Promise<{ connections: SsoConnectionView[] }> {
  const connections = await deps.sso.list(context.caller.accountId);
  return { connections: connections.sort((a, b) => a.domain.localeCompare(b.domain)).map(toSsoView) };
}

/** Another workspace's connection and none at all answer the same. */
async function ownConnection(name: string, context: SsoContext, sso: SsoStore): Promise<SsoConnection> {
  const domain = asciiDomain(name);
  const connection = domain ? await sso.find(context.caller.accountId, domain) : undefined;
  if (!connection) throw new SsoConnectionNotFound(OwnMessages.ssoNotFound);
  return connection;
}

export async function viewSsoConnection(name: string, context: SsoContext, deps: Pick<SsoDeps, 'sso'>): Promise<SsoConnectionView> {
  return toSsoView(await ownConnection(name, context, deps.sso));
}

/**
 * POST /v2/sso/{domain}/verify: with the TXT record in place, the domain's people are sent to the provider from
 * their next sign-in on. Verifying an active connection again changes nothing.
 */
export async function verifySsoConnection(name: string, context: SsoContext, deps: SsoDeps): Promise<SsoConnectionView> {
  const connection = await ownConnection(name, context, deps.sso);
  if (connection.status === 'active') return toSsoView(connection);
  const expected = challengeRecord(connection.domain, connection.claimId);
  if (!challengeMet(await deps.txt.lookup(expected.name), expected)) throw new SsoChallengeMissing(OwnMessages.ssoChallengeMissing(expected.name));
  await deps.providers.enable(connection.providerName, connection.domain);
  const verifiedAt = new Date(context.nowMs).toISOString();
  const active: SsoConnection = { ...connection, status: 'active', verifiedAt };
  const stored = await deps.sso.activate(connection.workspaceId, connection.domain, verifiedAt, record(context, 'sso.verified', connection.domain, connection, active));
  if (!stored) throw new SsoConnectionNotFound(OwnMessages.ssoNotFound);
  return toSsoView(stored);
}

/** DELETE: the provider leaves the pool first, so nobody signs in through a connection the workspace no longer shows. */
export async function removeSsoConnection(name: string, context: SsoContext, deps: SsoDeps): Promise<void> {
  const connection = await ownConnection(name, context, deps.sso);
  await deps.providers.remove(connection.providerName);
  await deps.sso.remove(connection.workspaceId, connection.domain, record(context, 'sso.deleted', connection.domain, connection, undefined));
}
