import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API_ROUTES,
  PARTNER_MESSAGES,
  type PartnerEventOption,
  type PartnerLookupResult,
  type RegisterPartnerRequest,
  type RegisterPartnerResult,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { keyId, unseal } from '../src/security/sealing';
import { sealContext } from '../src/features/partners';

/**
 * A signed-in runner registers as a photographer (form_type 0, a Welcome reply), becomes a partner
 * with a pending registration, sees the masked details, and updates them (form_type 1) with the nick
 * name locked. The bank account number and PAN are sealed in the database.
 */
describe('partner registration', () => {
  let t: TestApp;
  let eventId: number;
  let hiddenEventId: number;
  let userId: number;
  const tokens: Record<string, string> = {};
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });

  const form = (over: Partial<RegisterPartnerRequest> = {}): RegisterPartnerRequest => ({
    eventId,
    emailId: 'meera@example.com',
    form_type: 0,
    firstname: 'Meera',
    lastname: 'Lens',
    mobilenumber: '9876512345',
    nickname: 'meeraL1',
    bankaccname: 'Meera Lens',
    bankaccnum: '000123456789',
    bankacctype: 1,
    bankname: 'Canara Bank',
    bankbranch: 'Koramangala',
    bankifsc: 'cnrb0001234',
    pannum: 'abcpl1234q',
    isterms: 1,
    partnerremarks: 'Two bodies, 70-200 mm; both days',
    availabledate: ['2026-12-06', '2026-12-07'],
    ...over,
  });

  beforeAll(async () => {
    t = await startTestApp();
    const db = t.ctx.db;
    userId = await createUser(db, { firstName: 'Meera', lastName: 'Lens', email: 'meera@example.com', password: 'Finish@2026' });
    const other = await createUser(db, { firstName: 'Omar', lastName: 'Other', email: 'omar@example.com', password: 'Finish@2026' });
    eventId = (
      await db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, issearchable) values ('Lake Run 2026', '2026-12-06', '2026-12-07', true) returning id`,
      )
    )[0].id;
    hiddenEventId = (
      await db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, issearchable) values ('Lake Secret Run 2026', '2026-12-13', '2026-12-13', false) returning id`,
      )
    )[0].id;
    tokens.meera = (await createSession(db, userId)).token;
    tokens.omar = (await createSession(db, other)).token;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('offers only searchable events, each with its dates, to a signed-in account; a visitor must sign in', async () => {
    const res = await t.request<PartnerEventOption[]>('POST', API_ROUTES.partnerEvents, { search: 'la' }, as('meera'));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([
      {
        event_id: eventId,
        event_name: 'Lake Run 2026',
        event_from_date: '2026-12-06',
        event_to_date: '2026-12-07',
        event_location: null,
        dates: ['2026-12-06', '2026-12-07'],
      },
    ]);
    expect((await t.request('POST', API_ROUTES.partnerEvents, {})).status).toBe(401);
    const lookup = await t.request('POST', API_ROUTES.partnerLookup, { eventId: hiddenEventId }, as('meera'));
    expect([lookup.status, lookup.body.Message]).toEqual([400, 'This event is not open to photographers.']);
  });

  it('answers every rule of the form with the spec’s message', async () => {
    const cases: Array<[Partial<RegisterPartnerRequest>, string]> = [
      [{ emailId: '' }, PARTNER_MESSAGES.emailRequired],
      [{ emailId: 'meera@' }, 'Incorrect email format'],
      [{ firstname: 'Me' }, PARTNER_MESSAGES.firstNameShort],
      [{ lastname: '' }, PARTNER_MESSAGES.lastNameRequired],
      [{ mobilenumber: '12345' }, 'Invalid phone number!'],
      [{ nickname: 'meera' }, 'Nick name must have 6 to 8 characters'],
      [{ nickname: 'meeralens' }, 'Nick name must have 6 to 8 characters'],
      [{ bankaccname: 'ML' }, PARTNER_MESSAGES.accountName],
      [{ bankaccnum: '12345678' }, 'Incorrect account number format'],
      [{ bankaccnum: '1234567890123456789' }, 'Incorrect account number format'],
      [{ bankacctype: 3 as 1 }, PARTNER_MESSAGES.accountType],
      [{ bankname: 'CB' }, PARTNER_MESSAGES.bankName],
      [{ bankbranch: 'Ko' }, PARTNER_MESSAGES.bankBranch],
      [{ bankifsc: 'CNRB0A01234' }, 'Incorrect IFSC Code format'],
      [{ pannum: 'ABCP1234Q' }, 'Incorrect PAN Card format'],
      [{ isterms: 0 }, PARTNER_MESSAGES.terms],
      [{ partnerremarks: ' ' }, PARTNER_MESSAGES.remarks],
      [{ availabledate: [] }, PARTNER_MESSAGES.dates],
    ];
    for (const [change, message] of cases) {
      const res = await t.request('POST', API_ROUTES.registerPartner, form(change), as('meera'));
      expect([JSON.stringify(change), res.status, res.body.Message]).toEqual([JSON.stringify(change), 400, message]);
    }
    const outside = await t.request('POST', API_ROUTES.registerPartner, form({ availabledate: ['2026-12-08'] }), as('meera'));
    expect(outside.body.Message).toBe('Please tick only dates of the event.');
    const someoneElse = await t.request('POST', API_ROUTES.registerPartner, form({ emailId: 'omar@example.com' }), as('meera'));
    expect(someoneElse.body.Message).toBe('Please use the email of the account you are signed in with.');
    expect((await t.request('POST', API_ROUTES.registerPartner, form())).status).toBe(401);
    // Nothing was stored by the refused attempts.
    expect(await t.ctx.db.query('select 1 from partner_profiles where user_id = $1', [userId])).toEqual([]);
  });

  it('registers (form_type 0) with a Welcome reply, a pending registration and the partner role', async () => {
    const before = await t.request<PartnerLookupResult>('POST', API_ROUTES.partnerLookup, { eventId }, as('meera'));
    expect(before.body.result).toEqual({ form_type: 0, email: 'meera@example.com', partner: null, registration: null });
    const res = await t.request<RegisterPartnerResult>('POST', API_ROUTES.registerPartner, form(), as('meera'));
    expect(res.status).toBe(200);
    expect(res.body.Message).toBe("Welcome to Finishline, Meera! Your registration for Lake Run 2026 is waiting for the organiser's approval.");
    expect(res.body.result.partner).toMatchObject({
      nickname: 'meeraL1',
      bankaccnum: 'XXXXXX6789',
      pannum: 'XXXXXX234Q',
      bankifsc: 'CNRB0001234',
      bankacctype: 1,
    });
    expect(res.body.result.registration).toEqual({
      eventId,
      status: 'pending',
      datesAvailable: ['2026-12-06', '2026-12-07'],
      remarks: 'Two bodies, 70-200 mm; both days',
      sharePercent: 70,
    });
    expect((await t.ctx.db.query<{ is_partner: boolean }>('select is_partner from users where id = $1', [userId]))[0].is_partner).toBe(true);
    // A second new registration is refused: the form turns into an update.
    const again = await t.request('POST', API_ROUTES.registerPartner, form(), as('meera'));
    expect(again.body.Message).toBe('You are already registered as a partner: update your details instead.');
  });

  it('stores the account number and PAN sealed: no plain value in the row, and they open only with the key in their own place', async () => {
    const [row] = await t.ctx.db.query<Record<string, string>>('select * from partner_profiles where user_id = $1', [userId]);
    const text = JSON.stringify(row);
    expect(text).not.toContain('000123456789');
    expect(text).not.toContain('ABCPL1234Q');
    expect(row.bank_account_number_enc).toMatch(new RegExp(`^v2\\.${keyId(t.ctx.config.partnerDataKey)}\\.`));
    expect(unseal(t.ctx.config.partnerDataKey, row.bank_account_number_enc, sealContext('bank_account_number_enc', userId))).toBe('000123456789');
    expect(unseal(t.ctx.config.partnerDataKey, row.pan_enc, sealContext('pan_enc', userId))).toBe('ABCPL1234Q');
    // Moved to another column or row, or opened with another key, it does not open.
    expect(() => unseal(t.ctx.config.partnerDataKey, row.pan_enc, sealContext('bank_account_number_enc', userId))).toThrow();
    expect(() => unseal(t.ctx.config.partnerDataKey, row.pan_enc, sealContext('pan_enc', userId + 1))).toThrow();
    expect(() => unseal(Buffer.alloc(32, 7), row.pan_enc, sealContext('pan_enc', userId))).toThrow();
  });

  it('shows the partner masked details only, to themselves only', async () => {
    const mine = await t.request<PartnerLookupResult>('POST', API_ROUTES.partnerLookup, { eventId }, as('meera'));
    expect(mine.body.result.form_type).toBe(1);
    expect(mine.body.result.partner).toMatchObject({ partnerid: userId, partnername: 'Meera Lens', bankaccnum: 'XXXXXX6789', pannum: 'XXXXXX234Q' });
    expect(JSON.stringify(mine.body)).not.toMatch(/000123456789|ABCPL1234Q|v1\./);
    // Another account looking up the same event sees only its own (none).
    const other = await t.request<PartnerLookupResult>('POST', API_ROUTES.partnerLookup, { eventId, partnerid: userId }, as('omar'));
    expect(other.body.result).toEqual({ form_type: 0, email: 'omar@example.com', partner: null, registration: null });
  });

  it('updates (form_type 1): the nick name stays locked, empty account number and PAN keep the stored ones', async () => {
    const locked = await t.request('POST', API_ROUTES.registerPartner, form({ form_type: 1, nickname: 'meeraL2' }), as('meera'));
    expect([locked.status, locked.body.Message]).toEqual([400, 'The nick name cannot be changed once set']);
    const res = await t.request<RegisterPartnerResult>(
      'POST',
      API_ROUTES.registerPartner,
      form({ form_type: 1, bankaccnum: '', pannum: '', bankbranch: 'Indiranagar', bankacctype: 2, availabledate: ['2026-12-07'] }),
      as('meera'),
    );
    expect(res.status).toBe(200);
    expect(res.body.Message).toBe('Your partner details are updated.');
    expect(res.body.result.partner).toMatchObject({
      nickname: 'meeraL1',
      bankbranch: 'Indiranagar',
      bankacctype: 2,
      bankaccnum: 'XXXXXX6789',
      pannum: 'XXXXXX234Q',
    });
    expect(res.body.result.registration).toMatchObject({ status: 'pending', datesAvailable: ['2026-12-07'] });
    const changed = await t.request<RegisterPartnerResult>(
      'POST',
      API_ROUTES.registerPartner,
      form({ form_type: 1, bankaccnum: '98765432100', pannum: '' }),
      as('meera'),
    );
    expect(changed.body.result.partner.bankaccnum).toBe('XXXXXX2100');
    // An update of an account with no partner details is refused.
    const none = await t.request('POST', API_ROUTES.registerPartner, form({ form_type: 1, emailId: 'omar@example.com', nickname: 'omarsho' }), as('omar'));
    expect(none.body.Message).toBe('There are no partner details to update yet: please register first.');
    // A nick name another partner holds is refused on registration.
    const taken = await t.request('POST', API_ROUTES.registerPartner, form({ emailId: 'omar@example.com', nickname: 'MEERAl1' }), as('omar'));
    expect(taken.body.Message).toBe('This nick name is taken: please choose another.');
  });
});
