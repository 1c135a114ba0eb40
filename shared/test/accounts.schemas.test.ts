import { describe, expect, it } from '@jest/globals';
import type { Schema } from 'yup';
import {
  changePasswordSchema,
  contactSchema,
  forgotPasswordSchema,
  isValidPhone,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
} from '../src/schemas/accounts';

/** The first message a schema gives for the input, or null when it is valid. */
async function firstError(schema: Schema, input: unknown): Promise<string | null> {
  try {
    await schema.validate(input);
    return null;
  } catch (error) {
    return (error as { errors: string[] }).errors[0];
  }
}

const CAPTCHA = 'eyJjaGFsbGVuZ2UiOnt9fQ==';

describe('sign-in schema (forms and server)', () => {
  const valid = { email: 'runner@finishline.test', password: 'Finish@2026', gCaptchToken: CAPTCHA };
  it('accepts a valid form', async () => expect(await firstError(signInSchema, valid)).toBeNull());
  it.each([
    [{ email: '' }, 'Required'],
    [{ email: 'runner@' }, 'Invalid email'],
    [{ password: '' }, 'Required!'],
    [{ password: 'short' }, 'Must be atleast 8 letters long!'],
    [{ gCaptchToken: '' }, 'Please complete the captcha.'],
  ])('%o gives "%s"', async (change, message) => expect(await firstError(signInSchema, { ...valid, ...change })).toBe(message));
});

describe('sign-up schema', () => {
  const valid = {
    firstName: 'Meera',
    lastName: 'Iyer',
    email: 'meera@example.com',
    isdCode: '+91',
    primaryPhone: '9876543210',
    password: 'anything8',
    confirmPassword: 'anything8',
    gCaptchToken: CAPTCHA,
  };
  it('accepts a valid form (sign-up asks only for 8 characters)', async () => expect(await firstError(signUpSchema, valid)).toBeNull());
  it.each([
    [{ firstName: ' ' }, 'Required'],
    [{ lastName: '' }, 'Required'],
    [{ primaryPhone: '5876543210' }, 'Invalid phone number!'],
    [{ primaryPhone: '98765' }, 'Invalid phone number!'],
    [{ confirmPassword: 'anything9' }, 'Passwords must match'],
    [{ password: 'seven77', confirmPassword: 'seven77' }, 'Must be atleast 8 letters long!'],
  ])('%o gives "%s"', async (change, message) => expect(await firstError(signUpSchema, { ...valid, ...change })).toBe(message));

  it('takes international numbers with another ISD code and defaults to +91', async () => {
    expect(await firstError(signUpSchema, { ...valid, isdCode: '+1', primaryPhone: '415 555 2671' })).toBeNull();
    expect((await signUpSchema.validate({ ...valid, isdCode: undefined })).isdCode).toBe('+91');
  });
});

describe('phone rule', () => {
  it('knows Indian mobiles and international numbers', () => {
    expect(isValidPhone('98765-43210', '+91')).toBe(true);
    expect(isValidPhone('0987654321', '+91')).toBe(false);
    expect(isValidPhone('7911123456', '+44')).toBe(true);
    expect(isValidPhone('12ab', '+44')).toBe(false);
  });
});

describe('password schemas', () => {
  const strong = 'Strong2026';
  it.each([
    ['weakpass1', 'Password must be at least eight characters long and should include one each of uppercase, lowercase, number, special character.'],
    ['WEAKPASS1', 'Password must be at least eight characters long and should include one each of uppercase, lowercase, number, special character.'],
    ['Weakpass', 'Password must be at least eight characters long and should include one each of uppercase, lowercase, number, special character.'],
    ['Sh0rt', 'Password must be at least eight characters long and should include one each of uppercase, lowercase, number, special character.'],
  ])('change password refuses new password %s', async (newPassword, message) => {
    expect(await firstError(changePasswordSchema, { currentPassword: 'oldpass12', newPassword, confirmPassword: newPassword })).toBe(message);
  });
  it('change password needs confirm to match and accepts an old sign-up password', async () => {
    expect(await firstError(changePasswordSchema, { currentPassword: 'oldpass12', newPassword: strong, confirmPassword: 'Strong2027' })).toBe(
      'Passwords must match',
    );
    expect(await firstError(changePasswordSchema, { currentPassword: '', newPassword: strong, confirmPassword: strong })).toBe('Required!');
    expect(await firstError(changePasswordSchema, { currentPassword: 'oldpass12', newPassword: strong, confirmPassword: strong })).toBeNull();
  });
  it('reset password checks passcode, mail and passwords with the spec messages', async () => {
    const valid = { passCode: '482913', email: 'meera@example.com', newPassword: strong, confirmPassword: strong };
    expect(await firstError(resetPasswordSchema, valid)).toBeNull();
    expect(await firstError(resetPasswordSchema, { ...valid, passCode: 'a123' })).toBe('Enter the passcode');
    expect(await firstError(resetPasswordSchema, { ...valid, passCode: '12' })).toBe('Enter the passcode');
    expect(await firstError(resetPasswordSchema, { ...valid, email: 'meera@example' })).toBe('Enter a Valid mail');
    expect(await firstError(resetPasswordSchema, { ...valid, confirmPassword: 'x' })).toBe('Passwords must match');
  });
  it('forgot password needs a valid email', async () => {
    expect(await firstError(forgotPasswordSchema, { email: 'x' })).toBe('Invalid email');
    expect(await firstError(forgotPasswordSchema, { email: '' })).toBe('Required');
  });
});

describe('contact schema', () => {
  const valid = {
    firstName: 'Kavya',
    lastName: 'Menon',
    email: 'kavya@example.com',
    isdCode: '+91',
    phoneNo: '9123456780',
    message: 'Hello',
    gCaptchToken: CAPTCHA,
  };
  it('accepts a valid form', async () => expect(await firstError(contactSchema, valid)).toBeNull());
  it.each([
    [{ firstName: 'Ka' }, 'Too Short!'],
    [{ firstName: 'Kavya2' }, 'only alphabets'],
    [{ lastName: '' }, 'Required'],
    [{ phoneNo: '912345' }, 'Must contain 10 Digits!'],
    [{ phoneNo: '1123456780' }, 'Invalid phone number!'],
    [{ phoneNo: '' }, 'Required'],
    [{ email: 'kavya' }, 'Invalid email'],
    [{ gCaptchToken: undefined }, 'Please complete the captcha.'],
  ])('%o gives "%s"', async (change, message) => expect(await firstError(contactSchema, { ...valid, ...change })).toBe(message));
});
