import { App } from 'aws-cdk-lib';
import { ServiceStack } from '../../lib/service-stack';
import { readStageConfig, stackName } from '../../lib/stage-config';

/**
 * Builds the real app for a stage, with the context an operator would pass on the command line. Bundling is
 * skipped unless asked for: assertions look at the template, not at the code inside the assets.
 */
export function buildStack(
  context: Record<string, string> = {},
  options: { outdir?: string; bundle?: boolean } = {},
): { app: App; stack: ServiceStack } {
  const app = new App({
    context: {
      upgradeUrl: 'https://example.com/pricing',
      // Asset metadata (where each bundle lands) is what the CLI adds for the local stack too.
      ...(options.bundle ? { 'aws:cdk:enable-asset-metadata': true } : { 'aws:cdk:bundling-stacks': [] }),
      ...context,
    },
    ...(options.outdir ? { outdir: options.outdir } : {}),
  });
  const config = readStageConfig(app.node);
  const stack = new ServiceStack(app, stackName(config), { config });
  return { app, stack };
}
