/**
 * Every message string of the interface spec (../shared/spec/interface.md, sections 7.2 to 7.4), once.
 * Clients match on these strings: change none without changing the spec.
 */
export const Messages = {
  invalidUrl: 'Please provide a valid URL',
  aliasTaken: 'Alias is already taken',
  aliasReserved: 'This alias is reserved and cannot be used',
  aliasLength: 'Alias must be between 3 and 50 characters',
  passwordLength: 'Password must be between 4 and 100 characters',
  expiresInTooShort: 'expiresIn must be at least 60 seconds (1 minute)',
  unsafeUrl: 'URL appears to be unsafe and cannot be shortened',
  shorteningDisabled: 'URL shortening is currently disabled',
  aliasesDisabled: 'Custom aliases are currently disabled on this platform',
  passwordsDisabled: 'Password protection is currently disabled on this platform',
  expirationDisabled: 'URL expiration is currently disabled on this platform',
  batchTooLarge: 'The urls array cannot exceed 50 items',
  batchEmpty: 'The urls array must contain at least 1 item',
  apiKeyRequired: 'API key required. Pass your key as: Authorization: Bearer <your-key>',
  apiKeyInvalid: 'Invalid or inactive API key.',
  rateLimited: 'Rate limit exceeded. Try again in the next minute.',
  maintenance: 'Service is temporarily unavailable for maintenance',
} as const;

/** Said by every function, the redirect included, so it stands alone rather than in one of the tables below. */
export const DEPENDENCY_UNAVAILABLE_MESSAGE = 'Service is temporarily unavailable, please try again later';

/** Messages the spec leaves to us: kept here too, so each string still has one home. */
export const OwnMessages = {
  aliasCharacters: 'Alias may contain only letters, digits and hyphens',
  maxClicksInvalid: 'maxClicks must be a whole number of at least 1',
  maxClicksTooLarge: 'maxClicks must be at most 1000000000',
  expiresInInvalid: 'expiresIn must be a whole number of seconds',
  expiresInTooLarge: 'expiresIn must be at most 315360000 seconds (10 years)',
  fieldType: (field: string, expected: string) => `${field} must be a ${expected}`,
  bodyNotObject: 'Request body must be a JSON object',
  bodyMalformed: 'Request body is not valid JSON',
  bodyNotUtf8: 'Request body must be valid UTF-8 text, without lone surrogates',
  contentType: 'Content-Type must be application/json',
  bodyTooLarge: 'Request body is too large',
  urlsNotArray: 'urls must be an array of link objects',
  itemNotObject: 'Each link must be a JSON object',
  safetyUnavailable: 'URL safety check is temporarily unavailable, please try again later',
  dependencyUnavailable: DEPENDENCY_UNAVAILABLE_MESSAGE,
  internal: 'Internal server error',
  aliasUnchangeable: 'alias cannot be changed: the short code is the link (create a new link instead)',
  patchEmpty: 'Request body must set at least one of url, expiresIn, maxClicks, password',
  linkNotFound: 'Link not found',
  linkGone: 'This link is no longer available',
  linkDisabled: 'This link has been disabled by the platform',
  linkStillCached: 'This link was visited in the last minute and copies of its redirect may still be served: set a click limit or password again after Retry-After seconds',
  maxClicksBelowClicks: (clicks: number) => `maxClicks cannot be lower than the clicks already used (${clicks})`,
  limitParameter: 'limit must be a whole number from 1 to 100',
  cursorParameter: 'cursor is not valid: pass the nextCursor of a previous page',
  statusParameter: 'status must be one of active, expired, used-up, disabled, deleted',
  formatParameter: 'format must be svg or png',
  sizeParameter: 'size must be a whole number from 128 to 1024',
  daysParameter: 'days must be a whole number from 1 to 90',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
  idempotencyKeyReused: 'Idempotency-Key has already been used with a different request',
  idempotencyKeyInProgress: 'A request with this Idempotency-Key is still in progress',
  domainsDisabled: 'Custom domains are currently disabled on this platform',
  domainInvalid:
    'domain must be a public host name of at least two labels under a public suffix, at most 253 characters: not an IP address, localhost, one of this service\'s own domains, a cloud provider\'s hostname or a look-alike name',
  domainInUse: 'This domain is already in use',
  domainNotFound: 'Domain not found',
  domainNotUsable: (name: string) => `domain ${name} is not an active domain of this account`,
  domainParameter: 'domain must be a host name, such as go.example.com',
  domainPatchEmpty: 'Request body must set at least one of isDefault, rootUrl, notFoundUrl, expiredUrl',
  domainUrl: (field: string) => `${field} must be a valid http(s) URL to a public host, or null`,
  domainUrlUnsafe: (field: string) => `${field}: URL appears to be unsafe and cannot be used`,
  domainFieldType: (field: string) => `${field} must be true or false`,
} as const;

/** What visitors of short links read; kept apart so the redirect bundle carries no creation messages. */
export const VisitorMessages = {
  maintenance: Messages.maintenance,
  unavailable: DEPENDENCY_UNAVAILABLE_MESSAGE,
  notFound: 'Short link not found',
  gone: 'This short link has been used up and is no longer available',
  deleted: 'This short link has been deleted by its owner',
  disabled: 'This link has been disabled',
  passwordRequired: 'This short link is protected by a password',
  wrongPassword: 'Wrong password, please try again',
  formExpired: 'This form has expired, please enter the password again',
  tooManyAttempts: 'Too many password attempts',
  previewOnly: 'Open this link in a browser to continue',
  internal: 'Something went wrong on our side, please try again',
} as const;
