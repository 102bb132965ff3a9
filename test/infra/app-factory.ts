import { App } from 'aws-cdk-lib';
import { addServiceStacks } from '../../lib/service-app';
import type { ServiceStack } from '../../lib/service-stack';

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
      mailFrom: 'invitations@example.com',
      // Asset metadata (where each bundle lands) is what the CLI adds for the local stack too.
      ...(options.bundle ? { 'aws:cdk:enable-asset-metadata': true } : { 'aws:cdk:bundling-stacks': [] }),
      ...context,
    },
    ...(options.outdir ? { outdir: options.outdir } : {}),
  });
  const stack = addServiceStacks(app);
  return { app, stack };
}
