import { AdminGetUserCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { MfaSettings } from '../domain/ports';

/**
 * A person's MFA methods, read with AdminGetUser. The pool is the trigger event's own (its id cannot be in the
 * trigger's environment: the pool names the trigger, so the trigger naming the pool would be a cycle).
 */
export class CognitoMfaSettings implements MfaSettings {
  constructor(private readonly client: CognitoIdentityProviderClient) {}

  async methodsOf(userPoolId: string, userName: string): Promise<string[]> {
    const { UserMFASettingList = [] } = await this.client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: userName }));
    return UserMFASettingList;
  }
}
