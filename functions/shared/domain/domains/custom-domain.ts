/** A customer's own host name serving its links (issue 17). Dates are ISO 8601 UTC with milliseconds. */

export const DOMAIN_STATUSES = ['pending', 'active', 'failed', 'disabled'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** What the owner must create at their DNS provider. */
export interface DnsRecord {
  type: 'CNAME' | 'A' | 'TXT';
  name: string;
  value: string;
}

export interface StatusChange {
  status: DomainStatus;
  at: string;
  reason?: string;
}

export interface DomainRecord {
  /** Lower-case ASCII, punycode for an IDN. */
  domain: string;
  owner: string;
  /**
   * Random, one per claim of the name (issue 27): the DNS challenge's value is bound to it, and every link made under
   * the domain carries it, so a reclaimed name serves nothing of its former claim. Absent on claims made before it.
   */
  claimId?: string;
  status: DomainStatus;
  isDefault: boolean;
  dnsRecords: DnsRecord[];
  rootUrl?: string;
  notFoundUrl?: string;
  expiredUrl?: string;
  createdAt: string;
  verifiedAt?: string;
  /** Why the domain is not active (yet), in words for its owner; an operator's reason while disabled. */
  statusReason?: string;
  /** Every status the domain went through, oldest first, each with its time. */
  history: StatusChange[];
  /** Epoch ms of the next scheduled check while pending; absent otherwise. */
  nextCheckAt?: number;
  /** When the current round of checks started (creation or the last re-verify): 7 days later it fails. */
  checksStartedAt?: string;
}

export interface DomainView {
  domain: string;
  status: DomainStatus;
  isDefault: boolean;
  dnsRecords: DnsRecord[];
  rootUrl: string | null;
  notFoundUrl: string | null;
  expiredUrl: string | null;
  createdAt: string;
  verifiedAt: string | null;
  statusReason: string | null;
}

export function toDomainView(record: DomainRecord): DomainView {
  return {
    domain: record.domain,
    status: record.status,
    isDefault: record.isDefault,
    dnsRecords: record.dnsRecords,
    rootUrl: record.rootUrl ?? null,
    notFoundUrl: record.notFoundUrl ?? null,
    expiredUrl: record.expiredUrl ?? null,
    createdAt: record.createdAt,
    verifiedAt: record.verifiedAt ?? null,
    statusReason: record.status === 'active' ? null : (record.statusReason ?? null),
  };
}
