import { AdminGetUserCommand, AdminUserGlobalSignOutCommand, UserNotFoundException, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { PeopleDirectory } from '../domain/ports';

/** The user pool's record of a person (AdminGetUser by their `sub`, the user name of a pool with email as user name). */
export class CognitoPeopleDirectory implements PeopleDirectory {
  constructor(
    private readonly client: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  async verifiedEmailOf(userId: string): Promise<string | undefined> {
    try {
      const { UserAttributes = [] } = await this.client.send(new AdminGetUserCommand({ UserPoolId: this.userPoolId, Username: userId }));
      const attribute = (name: string) => UserAttributes.find((candidate) => candidate.Name === name)?.Value;
      return attribute('email_verified') === 'true' ? attribute('email') : undefined;
    } catch (error) {
      if (isUserNotFound(error)) return undefined;
      throw error;
    }
  }

  async signOutEverywhere(userId: string): Promise<void> {
    try {
      await this.client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.userPoolId, Username: userId }));
    } catch (error) {
      if (!isUserNotFound(error)) throw error;
    }
  }
}

const isUserNotFound = (error: unknown) => error instanceof UserNotFoundException || (error as { name?: string }).name === 'UserNotFoundException';
