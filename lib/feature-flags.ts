import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { FLAG_NAMES, SAFE_DEFAULT_FLAGS, formatFlagValue } from '../functions/shared/domain/limits/flags';

/** The operator's switches as SSM parameters under /<app>/<stage>/flags/, created with the safe defaults. */
export class FeatureFlags extends Construct {
  readonly prefix: string;
  private readonly parameters: StringParameter[];

  constructor(scope: Construct, id: string, props: { prefix: string }) {
    super(scope, id);
    this.prefix = props.prefix;
    this.parameters = FLAG_NAMES.map(
      (flag) =>
        new StringParameter(this, flag, {
          parameterName: `${props.prefix}/${flag}`,
          stringValue: formatFlagValue(SAFE_DEFAULT_FLAGS[flag]),
          description: `Feature flag ${flag} (on|off)`,
        }),
    );
  }

  /** GetParameters is the one call the functions make (all flags at once); no history, no descriptions. */
  grantRead(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['ssm:GetParameters'], resources: this.parameters.map((parameter) => parameter.parameterArn) }),
    );
  }
}
