import {
  type CloudFrontClient,
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

/** A tenant's name is unique in the AWS account: the domain itself, which is unique in the service too. */
const tenantName = (domain: string) => domain;

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

  async check(domain: string): Promise<AttachmentCheck> {
    const tenant = await this.ensureTenant(domain);
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
  async detach(domain: string): Promise<boolean> {
    const tenant = await this.findTenant(domain);
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

  private async ensureTenant(domain: string): Promise<{ id: string; etag: string; enabled: boolean }> {
    const existing = await this.findTenant(domain);
    if (existing) return existing;
    try {
      const created = await this.client.send(
        new CreateDistributionTenantCommand({
          DistributionId: this.distribution.distributionId,
          Name: tenantName(domain),
          Domains: [{ Domain: domain }],
          ConnectionGroupId: this.distribution.connectionGroupId,
          ManagedCertificateRequest: { ValidationTokenHost: 'cloudfront', PrimaryDomainName: domain },
          Enabled: true,
        }),
      );
      return { id: created.DistributionTenant?.Id ?? tenantName(domain), etag: created.ETag ?? '', enabled: true };
    } catch (error) {
      // Created by a concurrent check: read it back.
      if (!(error instanceof EntityAlreadyExists)) throw error;
      const raced = await this.findTenant(domain);
      if (!raced) throw error;
      return raced;
    }
  }

  private async findTenant(domain: string): Promise<{ id: string; etag: string; enabled: boolean; status?: string } | undefined> {
    try {
      const { DistributionTenant, ETag } = await this.client.send(new GetDistributionTenantCommand({ Identifier: tenantName(domain) }));
      if (!DistributionTenant?.Id) return undefined;
      return { id: DistributionTenant.Id, etag: ETag ?? '', enabled: DistributionTenant.Enabled !== false, ...(DistributionTenant.Status ? { status: DistributionTenant.Status } : {}) };
    } catch (error) {
      if (error instanceof EntityNotFound) return undefined;
      throw error;
    }
  }
}
