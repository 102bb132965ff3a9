import {
  CloudFrontClient,
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
import { mockClient } from 'aws-sdk-client-mock';
import { CloudFrontAttachments } from '../../../functions/shared/adapters/cloudfront-attachments';

const cloudFront = mockClient(CloudFrontClient);
const distribution = { distributionId: 'E2TENANTS', connectionGroupId: 'cg_1', routingEndpoint: 'd1234.cloudfront.net' };
const attachments = () => new CloudFrontAttachments(new CloudFrontClient({ region: 'us-east-1' }), distribution);
const notFound = () => new EntityNotFound({ message: 'no such tenant', $metadata: {} });
const claimId = '0123456789abcdef0123456789abcdef';
const tenant = (fields: Record<string, unknown> = {}) => ({ DistributionTenant: { Id: 'dt_1', Name: `claim-${claimId}`, DistributionId: 'E2TENANTS', Enabled: true, Status: 'Deployed', ...fields }, ETag: 'E1' });

beforeEach(() => cloudFront.reset());

describe('customer domains as CloudFront distribution tenants', () => {
  it('ask the owner for a CNAME to the connection group\'s routing endpoint', () => {
    expect(attachments().dnsRecordsFor('go.acme.com')).toEqual([{ type: 'CNAME', name: 'go.acme.com', value: 'd1234.cloudfront.net' }]);
  });

  it('create the claim\'s own tenant on its first check, with a CloudFront-managed certificate validated over HTTP, and wait for DNS', async () => {
    cloudFront.on(GetDistributionTenantCommand).rejects(notFound());
    cloudFront.on(CreateDistributionTenantCommand).resolves(tenant());
    cloudFront.on(VerifyDnsConfigurationCommand).resolves({ DnsConfigurationList: [{ Domain: 'go.acme.com', Status: 'invalid-configuration' }] });
    expect(await attachments().check('go.acme.com', claimId)).toEqual({ serving: false, reason: 'The CNAME record of go.acme.com does not point at d1234.cloudfront.net yet' });
    expect(cloudFront.commandCalls(GetDistributionTenantCommand)[0]?.args[0].input).toEqual({ Identifier: `claim-${claimId}` });
    expect(cloudFront.commandCalls(CreateDistributionTenantCommand)[0]?.args[0].input).toEqual({
      DistributionId: 'E2TENANTS',
      Name: `claim-${claimId}`,
      Domains: [{ Domain: 'go.acme.com' }],
      ConnectionGroupId: 'cg_1',
      ManagedCertificateRequest: { ValidationTokenHost: 'cloudfront', PrimaryDomainName: 'go.acme.com' },
      Enabled: true,
    });
    expect(cloudFront.commandCalls(VerifyDnsConfigurationCommand)[0]?.args[0].input).toEqual({ Identifier: 'dt_1', Domain: 'go.acme.com' });
    expect(cloudFront.commandCalls(GetManagedCertificateDetailsCommand)).toHaveLength(0);
  });

  it('serve once DNS is valid and the certificate issued, and say which is missing until then', async () => {
    cloudFront.on(GetDistributionTenantCommand).resolves(tenant());
    cloudFront.on(VerifyDnsConfigurationCommand).resolves({ DnsConfigurationList: [{ Domain: 'go.acme.com', Status: 'valid-configuration' }] });
    cloudFront.on(GetManagedCertificateDetailsCommand).resolvesOnce({ ManagedCertificateDetails: { CertificateStatus: 'pending-validation' } }).resolves({ ManagedCertificateDetails: { CertificateStatus: 'issued' } });
    expect(await attachments().check('go.acme.com', claimId)).toEqual({ serving: false, reason: 'The certificate for go.acme.com is pending-validation' });
    expect(await attachments().check('go.acme.com', claimId)).toEqual({ serving: true });
    expect(cloudFront.commandCalls(CreateDistributionTenantCommand)).toHaveLength(0);
    expect(cloudFront.commandCalls(GetManagedCertificateDetailsCommand)[0]?.args[0].input).toEqual({ Identifier: 'dt_1' });
  });

  it('read back a tenant a concurrent check created, and turn a disabled one back on', async () => {
    cloudFront.on(GetDistributionTenantCommand).rejectsOnce(notFound()).resolves(tenant({ Enabled: false }));
    cloudFront.on(CreateDistributionTenantCommand).rejects(new EntityAlreadyExists({ message: 'exists', $metadata: {} }));
    expect(await attachments().check('go.acme.com', claimId)).toEqual({ serving: false, reason: 'Turning the domain on at the edge' });
    expect(cloudFront.commandCalls(UpdateDistributionTenantCommand)[0]?.args[0].input).toEqual({ Id: 'dt_1', IfMatch: 'E1', Enabled: true, DistributionId: 'E2TENANTS' });
  });

  it('detach in two steps, as CloudFront requires: disable the tenant, then delete it once deployed', async () => {
    cloudFront.on(GetDistributionTenantCommand).resolvesOnce(tenant()).resolvesOnce(tenant({ Enabled: false, Status: 'InProgress' })).resolvesOnce({ ...tenant({ Enabled: false }), ETag: 'E2' }).rejects(notFound());
    cloudFront.on(DeleteDistributionTenantCommand).resolves({});
    expect(await attachments().detach('go.acme.com', claimId)).toBe(false);
    expect(cloudFront.commandCalls(UpdateDistributionTenantCommand)[0]?.args[0].input).toMatchObject({ Id: 'dt_1', Enabled: false, IfMatch: 'E1' });
    expect(await attachments().detach('go.acme.com', claimId)).toBe(false);
    expect(await attachments().detach('go.acme.com', claimId)).toBe(true);
    expect(cloudFront.commandCalls(DeleteDistributionTenantCommand)[0]?.args[0].input).toEqual({ Id: 'dt_1', IfMatch: 'E2' });
    expect(await attachments().detach('go.acme.com', claimId)).toBe(true);
    expect(cloudFront.commandCalls(DeleteDistributionTenantCommand)).toHaveLength(1);
  });

  it('say so when the name is still on another tenant (a former claim\'s, until its cleanup ends) or distribution', async () => {
    cloudFront.on(GetDistributionTenantCommand).rejects(notFound());
    cloudFront.on(CreateDistributionTenantCommand).rejects(new CNAMEAlreadyExists({ message: 'in use', $metadata: {} }));
    expect(await attachments().check('go.acme.com', claimId)).toEqual({ serving: false, reason: 'go.acme.com is still attached to a previous claim or another CloudFront distribution: checked again later' });
  });

  it('never touch a tenant of another distribution, whatever its name', async () => {
    cloudFront.on(GetDistributionTenantCommand).resolves(tenant({ DistributionId: 'E9OTHER' }));
    expect(await attachments().detach('go.acme.com', claimId)).toBe(true);
    cloudFront.on(CreateDistributionTenantCommand).rejects(new EntityAlreadyExists({ message: 'exists', $metadata: {} }));
    await expect(attachments().check('go.acme.com', claimId)).rejects.toBeInstanceOf(EntityAlreadyExists);
    expect(cloudFront.commandCalls(UpdateDistributionTenantCommand)).toHaveLength(0);
    expect(cloudFront.commandCalls(DeleteDistributionTenantCommand)).toHaveLength(0);
  });

  it('find a claim made before claim ids by its domain, the name its tenant was given', async () => {
    cloudFront.on(GetDistributionTenantCommand).resolves(tenant({ Name: 'go.acme.com', Enabled: false }));
    cloudFront.on(DeleteDistributionTenantCommand).resolves({});
    expect(await attachments().detach('go.acme.com', undefined)).toBe(true);
    expect(cloudFront.commandCalls(GetDistributionTenantCommand)[0]?.args[0].input).toEqual({ Identifier: 'go.acme.com' });
  });

  it('let other failures through, for the scheduler to try again', async () => {
    cloudFront.on(GetDistributionTenantCommand).rejects(new Error('throttled'));
    await expect(attachments().check('go.acme.com', claimId)).rejects.toThrow('throttled');
  });
});
