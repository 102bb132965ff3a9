import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { addServiceStacks } from '../lib/service-app';

const app = new App();
addServiceStacks(app, { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION });
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
