import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { CloudFrontAttachments } from './adapters/cloudfront-attachments';
import { ResolverTxtRecords } from './adapters/dns-txt-records';
import { ResolverAttachments } from './adapters/resolver-attachments';
import { besideTheBundle } from './bundle-beside';
import { BESIDE_THE_BUNDLE, config } from './config';
import type { ClaimableDomain } from './domain/domains/domain-name';
import type { DomainAttachments, TxtRecords } from './domain/ports';

/**
 * CloudFront tenants on AWS; the resolver in a local run (the local stack says so in LOCAL_DOMAINS). Apart from
 * wiring.ts, so only the two functions that attach domains carry the CloudFront client.
 */
export function domainAttachments(): DomainAttachments {
  if (config.localDomains()) return new ResolverAttachments(config.localHostsFile());
  // CloudFront's control plane lives in us-east-1, whatever the region of the stack.
  return new CloudFrontAttachments(new CloudFrontClient({ region: 'us-east-1' }), config.tenantDistribution());
}

/** DNS TXT records, where claims prove themselves: the resolver's, after a local run's file (LOCAL_DNS_TXT_FILE). */
export function txtRecords(): TxtRecords {
  return new ResolverTxtRecords(config.localDnsTxtFile());
}

/** The claim rules, a bundle beside the function's (lib/custom-domains.ts): read by the first POST /v2/domains only. */
export function claimRulesOnFirstUse(): () => Promise<ClaimableDomain> {
  return besideTheBundle(BESIDE_THE_BUNDLE.domainNames, (bundle: { claimableDomain: ClaimableDomain }) => bundle.claimableDomain);
}
