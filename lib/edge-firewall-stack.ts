import { Stack, type StackProps } from 'aws-cdk-lib';
import type { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { apiCallerRules, rateLimitingAcl, rateRule } from './api-firewall';
import { WAF_RATE_LIMITS } from './capacity';

/** CloudFront reads web ACLs from us-east-1 only, whatever region the service runs in. */
export const EDGE_REGION = 'us-east-1';

export interface EdgeFirewallStackProps extends StackProps {
  /** The visitors' web ACL (the short domain and the customers' domains). */
  name: string;
  /** The API callers' web ACL (the dashboard's distribution, the API on its host). */
  apiName: string;
}

/**
 * The distributions' web ACLs, in a stack of their own in us-east-1: visitors, and API callers on the dashboard's
 * host, are limited per viewer address at the edge, before a request reaches API Gateway or a Lambda (behind
 * CloudFront the API sees CloudFront's addresses, not the viewers'). The service stack reads their ARNs across
 * regions.
 */
export class EdgeFirewallStack extends Stack {
  readonly webAcl: CfnWebACL;
  readonly apiWebAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeFirewallStackProps) {
    super(scope, id, props);
    this.webAcl = rateLimitingAcl(this, 'VisitorsWebAcl', {
      scope: 'CLOUDFRONT',
      name: props.name,
      rules: [rateRule('VisitorsPerAddress', 0, WAF_RATE_LIMITS.visitorPerAddress)],
    });
    this.apiWebAcl = rateLimitingAcl(this, 'ApiCallersWebAcl', { scope: 'CLOUDFRONT', name: props.apiName, rules: apiCallerRules() });
  }
}
