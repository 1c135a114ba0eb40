import { describe, expect, it } from '@jest/globals';
import { BIB_FORMAT_MESSAGES, bibFormatProblem, formatRupees, matchesBibFormat, participantRowSchema, toCsv } from '../src/pure';

describe('the event BIB format', () => {
  it('is anchored, case-insensitive; empty means 1 to 12 letters and digits', () => {
    expect(matchesBibFormat('^TT\\d{5}$', 'tt20608')).toBe(true);
    expect(matchesBibFormat('^TT\\d{5}$', 'TT2060')).toBe(false);
    expect(matchesBibFormat(null, 'AB12')).toBe(true);
    expect(matchesBibFormat(null, 'A-12')).toBe(false);
    expect(matchesBibFormat('', 'ABCDEFGHIJKLM')).toBe(false);
  });

  it('names what is wrong with a format the organiser types', () => {
    expect(bibFormatProblem('^TT\\d{5}$')).toBeNull();
    expect(bibFormatProblem('TT\\d{5}')).toBe(BIB_FORMAT_MESSAGES.anchored);
    expect(bibFormatProblem('^TT\\d{5}\\$')).toBe(BIB_FORMAT_MESSAGES.anchored);
    expect(bibFormatProblem('^TT(\\d{5}$')).toBe(BIB_FORMAT_MESSAGES.invalid);
    expect(bibFormatProblem(`^${'A'.repeat(120)}$`)).toBe(BIB_FORMAT_MESSAGES.tooLong);
  });
});

describe('CSV export', () => {
  it('quotes commas, quotes and line breaks, and never lets a cell become a formula', () => {
    expect(
      toCsv(
        ['Name', 'Amount'],
        [
          ['Rao, Asha', '₹1,234'],
          ['Say "hi"', 5],
          ['=SUM(A1)', null],
          ['line\nbreak', true],
        ],
      ),
    ).toBe('Name,Amount\r\n"Rao, Asha","₹1,234"\r\n"Say ""hi""",5\r\n\'=SUM(A1),\r\n"line\nbreak",true\r\n');
  });

  it('rupees in Indian grouping, paise only when there are any', () => {
    expect(formatRupees(1234567)).toBe('₹12,34,567');
    expect(formatRupees(8403.5)).toBe('₹8,403.50');
    expect(formatRupees(0)).toBe('₹0');
  });
});

describe('a participant row', () => {
  it('needs a BIB and a name; finish time, email and phone are checked when given', () => {
    expect(participantRowSchema.validateSync({ bib_number: ' JP1 ', name: 'Diya Reddy', finish_time: '0:51:40', email: '', phone: '' })).toMatchObject({
      bib_number: 'JP1',
      finish_time: '0:51:40',
    });
    expect(() => participantRowSchema.validateSync({ bib_number: 'JP1', name: '' })).toThrow('the name is missing');
    expect(() => participantRowSchema.validateSync({ bib_number: 'JP1', name: 'A', finish_time: '51 min' })).toThrow('the finish time must look like 3:45:12');
    expect(() => participantRowSchema.validateSync({ bib_number: 'JP1', name: 'A', email: 'not-mail' })).toThrow('the email is not valid');
  });
});
