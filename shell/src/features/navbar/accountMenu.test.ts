import { accountMenuEntries } from './Navbar';

const labels = (roles: { isPartner: boolean; isOrganiser: boolean; isFulfilment?: boolean; isOperator?: boolean; emailVerified?: boolean }) =>
  accountMenuEntries(roles).map((e) => e.label);

describe('account dropdown entries by role', () => {
  it('a runner gets orders, change password, List your race and log out', () => {
    expect(labels({ isPartner: false, isOrganiser: false })).toEqual(['Orders History', 'Change Password', 'List your race', 'Log out']);
  });
  it('partners add every photographer page named as on the page, organisers Event Dashboard', () => {
    expect(labels({ isPartner: true, isOrganiser: false })).toEqual([
      'Orders History',
      'Change Password',
      'Registration',
      'Upload',
      'My Photos',
      'Videos',
      'My Share',
      'List your race',
      'Log out',
    ]);
    expect(labels({ isPartner: false, isOrganiser: true })).toEqual(['Orders History', 'Change Password', 'Event Dashboard', 'Log out']);
  });
  it('fulfilment staff (and operators) get the print queue', () => {
    expect(labels({ isPartner: false, isOrganiser: false, isFulfilment: true })).toEqual([
      'Orders History',
      'Change Password',
      'List your race',
      'Print Orders',
      'Log out',
    ]);
  });
  it('operators get the Operator Console', () => {
    expect(labels({ isPartner: false, isOrganiser: false, isFulfilment: true, isOperator: true })).toEqual([
      'Orders History',
      'Change Password',
      'List your race',
      'Print Orders',
      'Operator Console',
      'Log out',
    ]);
  });
  it('an account that has not proved its email address is offered Confirm Email', () => {
    expect(labels({ isPartner: false, isOrganiser: false, emailVerified: false })).toEqual([
      'Orders History',
      'Confirm Email',
      'Change Password',
      'List your race',
      'Log out',
    ]);
    expect(labels({ isPartner: false, isOrganiser: false, emailVerified: true })).toEqual(['Orders History', 'Change Password', 'List your race', 'Log out']);
  });
});
