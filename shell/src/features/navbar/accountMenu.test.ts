import { accountMenuEntries } from './Navbar';

const labels = (roles: { isPartner: boolean; isOrganiser: boolean; isFulfilment?: boolean; emailVerified?: boolean }) => accountMenuEntries(roles).map((e) => e.label);

describe('account dropdown entries by role', () => {
  it('a runner gets orders, change password and log out', () => {
    expect(labels({ isPartner: false, isOrganiser: false })).toEqual(['Orders History', 'Change Password', 'Log out']);
  });
  it('partners add every photographer page named as on the page, organisers Event Dashboard', () => {
    expect(labels({ isPartner: true, isOrganiser: false })).toEqual(['Orders History', 'Change Password', 'Registration', 'Upload', 'My Photos', 'Videos', 'My Share', 'Log out']);
    expect(labels({ isPartner: false, isOrganiser: true })).toEqual(['Orders History', 'Change Password', 'Event Dashboard', 'Log out']);
  });
  it('fulfilment staff (and operators) get the print queue', () => {
    expect(labels({ isPartner: false, isOrganiser: false, isFulfilment: true })).toEqual(['Orders History', 'Change Password', 'Print Orders', 'Log out']);
  });
  it('an account that has not proved its email address is offered Confirm Email', () => {
    expect(labels({ isPartner: false, isOrganiser: false, emailVerified: false })).toEqual(['Orders History', 'Confirm Email', 'Change Password', 'Log out']);
    expect(labels({ isPartner: false, isOrganiser: false, emailVerified: true })).toEqual(['Orders History', 'Change Password', 'Log out']);
  });
});
