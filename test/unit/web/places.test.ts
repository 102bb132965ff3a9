import { placeOf } from '../../../web/dashboard/places';

describe('the dashboard\'s pages by path (issue 20)', () => {
  it.each([
    ['/app', { page: 'overview' }],
    ['/app/', { page: 'overview' }],
    ['/app/links', { page: 'links' }],
    ['/app/settings', { page: 'settings' }],
    ['/app/new', { page: 'new' }],
    ['/app/import', { page: 'import' }],
    ['/app/domains', { page: 'domains' }],
    ['/app/webhooks', { page: 'webhooks' }],
    ['/app/usage', { page: 'usage' }],
    ['/app/members', { page: 'members' }],
    ['/app/keys', { page: 'keys' }],
    ['/app/audit', { page: 'audit' }],
    ['/app/security', { page: 'security' }],
    ['/app/keys/extra', { page: 'missing' }],
    ['/app/invitations/tok_abc', { page: 'invitation', token: 'tok_abc' }],
    ['/app/invitations', { page: 'missing' }],
    ['/app/constructor', { page: 'missing' }],
    ['/app/links/abc-1', { page: 'link', code: 'abc-1' }],
    ['/app/links/%C3%BC', { page: 'link', code: 'ü' }],
    ['/app/links/%E0%A4%A', { page: 'missing' }],
    ['/app/nothing/here', { page: 'missing' }],
  ])('%s is %j', (pathname, place) => {
    expect(placeOf(pathname)).toEqual(place);
  });
});
