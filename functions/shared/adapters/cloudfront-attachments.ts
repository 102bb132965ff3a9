import {
  type CloudFrontClient,
  CNAMEAlreadyExists,
  CreateDistributionTenantCommand,
  DeleteDistributionTenantCommand,
  EntityAlreadyExists,
  EntityNotFound,
  GetDistributionTenantCommand,
  GetManagedCertificateDetailsCommand,
  UpdateDistributionTenantCommand,
  VerifyDnsConfigurationCommand,
} from '@aws-sdk/client-cloudfront';
import type { DnsRecord } from '../domain/domains/custom-domain';
import type { AttachmentCheck, DomainAttachments } from '../domain/ports';

export interface TenantDistribution {
  distributionId: string;
  connectionGroupId: string;
  /** The connection group's routing endpoint: what customers point their CNAME at. */
  routingEndpoint: string;
}

/**
 * A tenant's name is unique in the AWS account: the claim's id (hex), so a tenant belongs to one claim of a name and
 * the next claim never inherits it (issue 27); claims made before claim ids kept the domain as the name.
 */
const tenantName = (domain: string, claimId: string | undefined) => (claimId ? `claim-${claimId}` : domain);

interface Tenant {
  id: string;
  etag: string;
  enabled: boolean;
  status?: string;
}

/**
 * Customer domains as tenants of the service's multi-tenant CloudFront distribution (CloudFront SaaS Manager). A
 * tenant gets a CloudFront-managed certificate, validated over HTTP by CloudFront itself once the customer's CNAME
 * points at the connection group's routing endpoint; the domain serves when DNS is valid and the certificate issued.
 */
export class CloudFrontAttachments implements DomainAttachments {
  constructor(
    private readonly client: CloudFrontClient,
    private readonly distribution: TenantDistribution,
  ) {}

  dnsRecordsFor(domain: string): DnsRecord[] {
    return [{ type: 'CNAME', name: domain, value: this.distribution.routingEndpoint }];
  }

  async check(domain: string, claimId: string | undefined): Promise<AttachmentCheck> {
    let tenant: Tenant;
    try {
      tenant = await this.ensureTenant(domain, claimId);
    } catch (error) {
      // The name is still on another tenant (a former claim's, until its cleanup removes it) or distribution.
      if (error instanceof CNAMEAlreadyExists) return { serving: false, reason: `${domain} is still attached to a previous claim or another CloudFront distribution: checked again later` };
      throw error;
    }
    if (!tenant.enabled) {
      await this.client.send(
        new UpdateDistributionTenantCommand({ Id: tenant.id, IfMatch: tenant.etag, Enabled: true, DistributionId: this.distribution.distributionId }),
      );
      return { serving: false, reason: 'Turning the domain on at the edge' };
    }
    const dns = await this.client.send(new VerifyDnsConfigurationCommand({ Identifier: tenant.id, Domain: domain }));
    const configured = dns.DnsConfigurationList?.find((entry) => entry.Domain === domain);
    if (configured?.Status !== 'valid-configuration') {
      return { serving: false, reason: `The CNAME record of ${domain} does not point at ${this.distribution.routingEndpoint} yet` };
    }
    const { ManagedCertificateDetails } = await this.client.send(new GetManagedCertificateDetailsCommand({ Identifier: tenant.id }));
    const status = ManagedCertificateDetails?.CertificateStatus;
    if (status === 'issued') return { serving: true };
    return { serving: false, reason: `The certificate for ${domain} is ${status ?? 'not requested yet'}` };
  }

  /** A tenant is disabled before it can be deleted: the first call disables it, a later one deletes it. */
  async detach(domain: string, claimId: string | undefined): Promise<boolean> {
    const tenant = await this.findTenant(tenantName(domain, claimId));
    if (!tenant) return true;
    if (tenant.enabled) {
      await this.client.send(
        new UpdateDistributionTenantCommand({ Id: tenant.id, IfMatch: tenant.etag, Enabled: false, DistributionId: this.distribution.distributionId }),
      );
      return false;
    }
    if (tenant.status !== 'Deployed') return false;
    try {
      await this.client.send(new DeleteDistributionTenantCommand({ Id: tenant.id, IfMatch: tenant.etag }));
    } catch (error) {
      if (!(error instanceof EntityNotFound)) throw error;
    }
    return true;
  }

  private async ensureTenant(domain: string, claimId: string | undefined): Promise<Tenant> {
    const name = tenantName(domain, claimId);
    const existing = await this.findTenant(name);
    if (existing) return existing;
    try {
      const created = await this.client.send(
        new CreateDistributionTenantCommand({
          DistributionId: this.distribution.distributionId,
          Name: name,
          Domains: [{ Domain: domain }],
          ConnectionGroupId: this.distribution.connectionGroupId,
          ManagedCertificateRequest: { ValidationTokenHost: 'cloudfront', PrimaryDomainName: domain },
          Enabled: true,
        }),
      );
      return { id: created.DistributionTenant?.Id ?? name, etag: created.ETag ?? '', enabled: true };
    } catch (error) {
      // Created by a concurrent check: read it back.
      if (!(error instanceof EntityAlreadyExists)) throw error;
      const raced = await this.findTenant(name);
      if (!raced) throw error;
      return raced;
    }
  }

  /** The tenant of that name, if it is one of this distribution's: another distribution's is never changed or removed. */
  private async findTenant(name: string): Promise<Tenant | undefined> {
    try {
      const { DistributionTenant, ETag } = await this.client.send(new GetDistributionTenantCommand({ Identifier: name }));
      if (!DistributionTenant?.Id || DistributionTenant.DistributionId !== this.distribution.distributionId) return undefined;
      return { id: DistributionTenant.Id, etag: ETag ?? '', enabled: DistributionTenant.Enabled !== false, ...(DistributionTenant.Status ? { status: DistributionTenant.Status } : {}) };
    } catch (error) {
      if (error instanceof EntityNotFound) return undefined;
      throw error;
    }
  }
}
