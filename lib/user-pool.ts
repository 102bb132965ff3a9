import { Aws, Duration, Stack, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnManagedLoginBranding,
  FeaturePlan,
  LambdaVersion,
  ManagedLoginVersion,
  Mfa,
  OAuthScope,
  PasskeyUserVerification,
  StandardThreatProtectionMode,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
  UserPoolOperation,
} from 'aws-cdk-lib/aws-cognito';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { CLI_CALLBACK_PORTS, cliCallbackUrl } from '../clients/sign-in/cli-callback';
import { EnvNames } from '../functions/shared/config';
import type { DashboardSignIn } from './dashboard';
import { ServiceFunction } from './service-function';

/** The dashboard's page that receives the authorization code (under its /app/ URL): the only sign-in callback. */
export const SIGN_IN_CALLBACK_PAGE = 'signed-in';
/** A person's access token lives 15 minutes: a removed member's token is refused at once anyway (membership read per request). */
export const ACCESS_TOKEN_MINUTES = 15;
/** How long a dashboard tab may renew its access token without signing in again. */
export const REFRESH_TOKEN_HOURS = 12;
/** How long `shortener login` lasts on one machine before signing in again (its refresh token). */
export const CLI_REFRESH_TOKEN_DAYS = 30;

export interface PeopleSignInProps {
  /** `<appName>-<stage>`: the pool's name and the managed login domain's prefix (with the account id). */
  name: string;
  /** https://<dashboard>/app/: its sign-in callback page is the client's only redirect URI. */
  dashboardUrl: string;
  /** Whether people may create their own account (context `selfSignUp=true`); otherwise an admin or an invitation does. */
  selfSignUp: boolean;
  removalPolicy: RemovalPolicy;
}

/**
 * People sign in with Amazon Cognito (issue 29): a user pool (email as the user name, TOTP optional, threat
 * protection on the Plus plan), its managed login pages, and one public app client for the dashboard (authorization
 * code with PKCE, no secret, exact callback), and one for the command line (`shortener login`, the same flow with
 * loopback callbacks). The authorizer verifies the pool's access tokens with the issuer, JWKS
 * and client ids this construct puts in its environment (`environment`); locally, bin/local/oidc-provider.ts plays
 * the pool and the client from the template.
 */
export class PeopleSignIn extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  /** The command line's own public client (`shortener login`): the same flow, loopback callbacks only. */
  readonly cliClient: UserPoolClient;
  readonly domain: UserPoolDomain;
  /** Writes the access token's `mfa` claim (functions/pre-token-generation). */
  readonly signInClaims: ServiceFunction;
  /** The app client's one callback URL (the dashboard's sign-in page) and its sign-out URL. */
  readonly callbackUrl: string;
  readonly signOutUrl: string;

  constructor(scope: Construct, id: string, props: PeopleSignInProps) {
    super(scope, id);
    // Prefixes are unique per region across all accounts: the account id makes this one ours.
    const domainPrefix = `${props.name}-${Aws.ACCOUNT_ID}`;
    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: props.name,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      selfSignUpEnabled: props.selfSignUp,
      // TOTP only: SMS would need a phone number and an SNS spending limit, and is weaker.
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: { minLength: 12, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true, tempPasswordValidity: Duration.days(7) },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Plus: threat protection (compromised credentials, risky sign-ins blocked) and passkeys on the managed pages.
      featurePlan: FeaturePlan.PLUS,
      // Passkeys as a first factor beside the password (choice-based sign-in on the managed pages). The relying party
      // is the managed login domain, where people use their passkeys: Cognito wants the pool's domain there, and a
      // browser lets only pages of that host (or below it) make or use them. Written out, not read off the domain
      // construct, which depends on the pool. User verification required: a passkey is then possession plus a PIN or
      // biometric, which the mfa claim's rule relies on (functions/shared/domain/accounts/sign-in-mfa.ts).
      signInPolicy: { allowedFirstAuthFactors: { password: true, passkey: true } },
      passkeyRelyingPartyId: `${domainPrefix}.auth.${Stack.of(this).region}.amazoncognito.com`,
      passkeyUserVerification: PasskeyUserVerification.REQUIRED,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: false,
      removalPolicy: props.removalPolicy,
    });
    // Access tokens say whether their sign-in used MFA (`mfa: true`), which a workspace that requires it checks:
    // Cognito's own carry no `amr`. V2 events customize access tokens (the Plus plan has them).
    this.signInClaims = new ServiceFunction(this, 'SignInClaims', {
      name: 'pre-token-generation',
      description: 'The user pool\'s pre-token-generation trigger: the access token\'s mfa claim',
      removalPolicy: props.removalPolicy,
    });
    this.userPool.addTrigger(UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG, this.signInClaims, LambdaVersion.V2_0);
    // A policy of its own, not the role's default one: the function must not wait for the pool that names it (a cycle).
    new Policy(this, 'SignInClaimsReadsMfa', {
      roles: [this.signInClaims.role!],
      statements: [new PolicyStatement({ actions: ['cognito-idp:AdminGetUser'], resources: [this.userPool.userPoolArn] })],
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason: 'MFA (TOTP) is optional in the pool and enforced per workspace by its owner (issue 29): API machines use keys, not people.',
    });

    const signedIn = (this.callbackUrl = `${props.dashboardUrl}${SIGN_IN_CALLBACK_PAGE}`);
    this.signOutUrl = props.dashboardUrl;
    this.client = this.userPool.addClient('DashboardClient', {
      userPoolClientName: `${props.name}-dashboard`,
      // A browser page holds no secret: the authorization code is bound to the tab by PKCE instead.
      generateSecret: false,
      // `user`: choice-based sign-in (ALLOW_USER_AUTH), which passkeys on the managed pages go through.
      authFlows: { userSrp: true, user: true },
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false, clientCredentials: false },
        // COGNITO_ADMIN: the person's own user API with their access token (turning on an authenticator app).
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE, OAuthScope.COGNITO_ADMIN],
        callbackUrls: [signedIn],
        logoutUrls: [this.signOutUrl],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      accessTokenValidity: Duration.minutes(ACCESS_TOKEN_MINUTES),
      idTokenValidity: Duration.minutes(ACCESS_TOKEN_MINUTES),
      refreshTokenValidity: Duration.hours(REFRESH_TOKEN_HOURS),
      enableTokenRevocation: true,
      preventUserExistenceErrors: true,
    });
    this.cliClient = this.userPool.addClient('CliClient', {
      userPoolClientName: `${props.name}-cli`,
      // A command on someone's machine holds no secret either: PKCE, and a code delivered to a loopback port.
      generateSecret: false,
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false, clientCredentials: false },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: CLI_CALLBACK_PORTS.map(cliCallbackUrl),
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      accessTokenValidity: Duration.minutes(ACCESS_TOKEN_MINUTES),
      idTokenValidity: Duration.minutes(ACCESS_TOKEN_MINUTES),
      refreshTokenValidity: Duration.days(CLI_REFRESH_TOKEN_DAYS),
      enableTokenRevocation: true,
      preventUserExistenceErrors: true,
    });
    this.domain = this.userPool.addDomain('ManagedLogin', {
      cognitoDomain: { domainPrefix },
      managedLoginVersion: ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });
    // The newer managed login pages need a style for the client; Cognito's own is enough.
    new CfnManagedLoginBranding(this, 'ManagedLoginBranding', {
      userPoolId: this.userPool.userPoolId,
      clientId: this.client.userPoolClientId,
      useCognitoProvidedValues: true,
    });
    new CfnManagedLoginBranding(this, 'CliLoginBranding', { userPoolId: this.userPool.userPoolId, clientId: this.cliClient.userPoolClientId, useCognitoProvidedValues: true });
  }

  /** The issuer of the pool's tokens, as their `iss` claim names it. */
  get issuer(): string {
    return `https://cognito-idp.${Stack.of(this).region}.${Stack.of(this).urlSuffix}/${this.userPool.userPoolId}`;
  }

  /**
   * What the dashboard's page needs to sign people in (lib/dashboard.ts writes it beside the page): the callback is
   * the client's own, so the page and the pool cannot disagree. Cognito's discovery document names no revocation
   * endpoint, so it is given here; its hosts are the issuer's (discovery) and the managed login domain's (tokens).
   */
  get dashboardSignIn(): DashboardSignIn {
    const stack = Stack.of(this);
    return {
      config: { issuer: this.issuer, clientId: this.client.userPoolClientId, redirectUri: this.callbackUrl, signOutRedirectUri: this.signOutUrl, revocationEndpoint: `${this.domain.baseUrl()}/oauth2/revoke` },
      providerOrigins: [`https://cognito-idp.${stack.region}.${stack.urlSuffix}`, this.domain.baseUrl()],
    };
  }

  /** What a function that verifies people's access tokens needs (functions/shared/adapters/access-token-verifier.ts). */
  get environment(): Record<string, string> {
    return {
      [EnvNames.tokenIssuer]: this.issuer,
      [EnvNames.tokenJwksUrl]: `${this.issuer}/.well-known/jwks.json`,
      [EnvNames.tokenClientId]: this.client.userPoolClientId,
      [EnvNames.tokenCliClientId]: this.cliClient.userPoolClientId,
    };
  }
}
