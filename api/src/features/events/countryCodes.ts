import { DEFAULT_ISD_CODE, type CountryCode } from '@finishline/shared/pure';

/**
 * Countries with their international calling codes for the sign-up and contact ISD dropdowns.
 * India comes first (the spec's default +91); the rest are sorted by name.
 */
const OTHERS: CountryCode[] = [
  { country: 'Afghanistan', iso: 'AF', code: '+93' },
  { country: 'Argentina', iso: 'AR', code: '+54' },
  { country: 'Australia', iso: 'AU', code: '+61' },
  { country: 'Austria', iso: 'AT', code: '+43' },
  { country: 'Bahrain', iso: 'BH', code: '+973' },
  { country: 'Bangladesh', iso: 'BD', code: '+880' },
  { country: 'Belgium', iso: 'BE', code: '+32' },
  { country: 'Bhutan', iso: 'BT', code: '+975' },
  { country: 'Brazil', iso: 'BR', code: '+55' },
  { country: 'Canada', iso: 'CA', code: '+1' },
  { country: 'China', iso: 'CN', code: '+86' },
  { country: 'Denmark', iso: 'DK', code: '+45' },
  { country: 'Egypt', iso: 'EG', code: '+20' },
  { country: 'Ethiopia', iso: 'ET', code: '+251' },
  { country: 'Finland', iso: 'FI', code: '+358' },
  { country: 'France', iso: 'FR', code: '+33' },
  { country: 'Germany', iso: 'DE', code: '+49' },
  { country: 'Hong Kong', iso: 'HK', code: '+852' },
  { country: 'Indonesia', iso: 'ID', code: '+62' },
  { country: 'Ireland', iso: 'IE', code: '+353' },
  { country: 'Israel', iso: 'IL', code: '+972' },
  { country: 'Italy', iso: 'IT', code: '+39' },
  { country: 'Japan', iso: 'JP', code: '+81' },
  { country: 'Kenya', iso: 'KE', code: '+254' },
  { country: 'Kuwait', iso: 'KW', code: '+965' },
  { country: 'Malaysia', iso: 'MY', code: '+60' },
  { country: 'Maldives', iso: 'MV', code: '+960' },
  { country: 'Mauritius', iso: 'MU', code: '+230' },
  { country: 'Mexico', iso: 'MX', code: '+52' },
  { country: 'Nepal', iso: 'NP', code: '+977' },
  { country: 'Netherlands', iso: 'NL', code: '+31' },
  { country: 'New Zealand', iso: 'NZ', code: '+64' },
  { country: 'Nigeria', iso: 'NG', code: '+234' },
  { country: 'Norway', iso: 'NO', code: '+47' },
  { country: 'Oman', iso: 'OM', code: '+968' },
  { country: 'Pakistan', iso: 'PK', code: '+92' },
  { country: 'Philippines', iso: 'PH', code: '+63' },
  { country: 'Poland', iso: 'PL', code: '+48' },
  { country: 'Portugal', iso: 'PT', code: '+351' },
  { country: 'Qatar', iso: 'QA', code: '+974' },
  { country: 'Russia', iso: 'RU', code: '+7' },
  { country: 'Saudi Arabia', iso: 'SA', code: '+966' },
  { country: 'Singapore', iso: 'SG', code: '+65' },
  { country: 'South Africa', iso: 'ZA', code: '+27' },
  { country: 'South Korea', iso: 'KR', code: '+82' },
  { country: 'Spain', iso: 'ES', code: '+34' },
  { country: 'Sri Lanka', iso: 'LK', code: '+94' },
  { country: 'Sweden', iso: 'SE', code: '+46' },
  { country: 'Switzerland', iso: 'CH', code: '+41' },
  { country: 'Taiwan', iso: 'TW', code: '+886' },
  { country: 'Thailand', iso: 'TH', code: '+66' },
  { country: 'Turkey', iso: 'TR', code: '+90' },
  { country: 'Uganda', iso: 'UG', code: '+256' },
  { country: 'United Arab Emirates', iso: 'AE', code: '+971' },
  { country: 'United Kingdom', iso: 'GB', code: '+44' },
  { country: 'United States', iso: 'US', code: '+1' },
  { country: 'Vietnam', iso: 'VN', code: '+84' },
];

export const INDIA: CountryCode = { country: 'India', iso: 'IN', code: DEFAULT_ISD_CODE };

export const COUNTRY_CODES: CountryCode[] = [INDIA, ...OTHERS];

const BY_ISO = new Map(COUNTRY_CODES.map((c) => [c.iso, c]));

export function countryByIso(iso: string): CountryCode | undefined {
  return BY_ISO.get(iso.toUpperCase());
}
