import { Validations } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { SECRETS_MANAGER_REFERENCE_PREFIX } from '../functions/shared/config';
import { allowGetParameter } from './parameter-grants';

export interface DeploymentSecretProps {
  secretName: string;
  description: string;
  /** Generate `{"<jsonKey>": "<value>"}` instead of a bare value, so that more fields can sit beside it later. */
  jsonKey?: string;
  /** How this secret is rotated: the reason given to cdk-nag for having no rotation Lambda. */
  rotation: string;
}

/**
 * A secret Secrets Manager generates at deploy time, which functions read through SSM's Secrets Manager reference,
 * so their bundles carry no extra client. Locally the SSM stand-in holds a random value of the same shape.
 */
export class DeploymentSecret extends Construct {
  readonly secret: Secret;
  /** The SSM parameter name that resolves to the secret's value. */
  readonly parameterName: string;

  constructor(scope: Construct, id: string, props: DeploymentSecretProps) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      secretName: props.secretName,
      description: props.description,
      generateSecretString: {
        passwordLength: 48,
        excludePunctuation: true,
        ...(props.jsonKey ? { secretStringTemplate: '{}', generateStringKey: props.jsonKey } : {}),
      },
    });
    this.parameterName = `${SECRETS_MANAGER_REFERENCE_PREFIX}${props.secretName}`;
    Validations.of(this.secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: props.rotation });
  }

  /** Reading through the SSM reference needs both the SSM parameter and the secret itself. */
  grantRead(grantee: IGrantable): void {
    this.secret.grantRead(grantee);
    allowGetParameter(this, grantee, this.parameterName);
  }
}
