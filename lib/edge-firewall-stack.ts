import { Stack, type StackProps } from 'aws-cdk-lib';
import type { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { rateLimitingAcl, rateRule } from './api-firewall';
import { WAF_RATE_LIMITS } from './capacity';

/** CloudFront reads web ACLs from us-east-1 only, whatever region the service runs in. */
export const EDGE_REGION = 'us-east-1';

/**
 * The short domain's web ACL, in a stack of its own in us-east-1: visitors are limited per viewer address at the
 * edge, before a request reaches API Gateway or a Lambda. The service stack reads its ARN across regions.
 */
export class EdgeFirewallStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: StackProps & { name: string }) {
    super(scope, id, props);
    this.webAcl = rateLimitingAcl(this, 'VisitorsWebAcl', {
      scope: 'CLOUDFRONT',
      name: props.name,
      rules: [rateRule('VisitorsPerAddress', 0, WAF_RATE_LIMITS.visitorPerAddress)],
    });
  }
}
