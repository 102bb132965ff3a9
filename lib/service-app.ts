import type { App } from 'aws-cdk-lib';
import { ApiGatewayAccountStack } from './api-gateway-account-stack';
import { EDGE_REGION, EdgeFirewallStack } from './edge-firewall-stack';
import { ServiceStack } from './service-stack';
import { readStageConfig, stackName } from './stage-config';

/** Where the service runs when the environment names no region (an offline synth): the template must name one. */
const DEFAULT_REGION = 'eu-west-1';

/**
 * The stacks of one stage: the service in its region, the distributions' web ACLs in us-east-1 (CloudFront's region),
 * and the account's API Gateway settings, shared by every stage of the account and region.
 */
export function addServiceStacks(app: App, environment: { account?: string; region?: string } = {}): ServiceStack {
  const config = readStageConfig(app.node);
  const region = environment.region ?? DEFAULT_REGION;
  const env = { account: environment.account, region };
  const accountSettings = new ApiGatewayAccountStack(app, `${config.appName}-apigateway-account-${region}`, { env });
  const edge = new EdgeFirewallStack(app, `${stackName(config)}-edge`, {
    env: { account: environment.account, region: EDGE_REGION },
    name: `${stackName(config)}-visitors`,
    apiName: `${stackName(config)}-api-callers`,
    crossRegionReferences: true,
  });
  const service = new ServiceStack(app, stackName(config), { config, env, visitorWebAclArn: edge.webAcl.attrArn, apiWebAclArn: edge.apiWebAcl.attrArn, crossRegionReferences: true });
  service.addStackDependency(accountSettings, 'API Gateway needs the account\'s CloudWatch role before a stage can log');
  return service;
}
