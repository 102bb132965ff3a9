import type { AuditRecord } from '../../functions/shared/domain/audit/audit-record';
import type { IdentityProviders, ProviderRegistration, SsoStore, TxtRecords } from '../../functions/shared/domain/ports';
import type { SsoConnection } from '../../functions/shared/domain/sso/sso-connection';

/** SSO connections in memory, with the records each change wrote, for the domain's unit tests. */
export class InMemorySsoStore implements SsoStore {
  readonly connections = new Map<string, SsoConnection>();
  readonly records: AuditRecord[] = [];

  async list(workspaceId: string): Promise<SsoConnection[]> {
    return [...this.connections.values()].filter((connection) => connection.workspaceId === workspaceId);
  }

  async find(workspaceId: string, domain: string): Promise<SsoConnection | undefined> {
    const connection = this.connections.get(domain);
    return connection?.workspaceId === workspaceId ? connection : undefined;
  }

  async add(connection: SsoConnection, max: number, audit: AuditRecord): Promise<'added' | 'taken' | 'overLimit'> {
    if (this.connections.has(connection.domain)) return 'taken';
    if ((await this.list(connection.workspaceId)).length >= max) return 'overLimit';
    this.connections.set(connection.domain, connection);
    this.records.push(audit);
    return 'added';
  }

  async activate(workspaceId: string, domain: string, verifiedAt: string, audit: AuditRecord): Promise<SsoConnection | undefined> {
    const connection = await this.find(workspaceId, domain);
    if (!connection) return undefined;
    const active: SsoConnection = { ...connection, status: 'active', verifiedAt };
    this.connections.set(domain, active);
    this.records.push(audit);
    return active;
  }

  async remove(workspaceId: string, domain: string, audit: AuditRecord): Promise<boolean> {
    if (!(await this.find(workspaceId, domain))) return false;
    this.connections.delete(domain);
    this.records.push(audit);
    return true;
  }
}

/** The user pool's providers as a list of what was asked of it; `refuse` makes the next registration fail. */
export class RecordingIdentityProviders implements IdentityProviders {
  readonly registered = new Map<string, ProviderRegistration>();
  readonly enabled = new Map<string, string>();
  refuse?: Error;

  async register(registration: ProviderRegistration): Promise<void> {
    if (this.refuse) throw this.refuse;
    this.registered.set(registration.providerName, registration);
  }

  async enable(providerName: string, domain: string): Promise<void> {
    this.enabled.set(providerName, domain);
  }

  async remove(providerName: string): Promise<void> {
    this.registered.delete(providerName);
    this.enabled.delete(providerName);
  }
}

export class MapTxtRecords implements TxtRecords {
  readonly records = new Map<string, string[]>();

  async lookup(name: string): Promise<string[]> {
    return this.records.get(name) ?? [];
  }
}
