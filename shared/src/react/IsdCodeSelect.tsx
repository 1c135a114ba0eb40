import { useEffect, useState } from 'react';
import { Select } from 'antd';
import { DEFAULT_ISD_CODE } from '../schemas/accounts';
import { eventsApi } from '../api/endpoints';
import type { CountryCode } from '../types/entities';

/** Used until the country list arrives (or if it cannot be loaded). */
const FALLBACK: CountryCode[] = [{ country: 'India', iso: 'IN', code: DEFAULT_ISD_CODE }];

let cached: Promise<CountryCode[]> | null = null;
function loadCountryCodes(): Promise<CountryCode[]> {
  cached ??= eventsApi
    .eventNames()
    .then((answer) => (answer.result.country_codes?.length ? answer.result.country_codes : FALLBACK))
    .catch(() => {
      cached = null;
      return FALLBACK;
    });
  return cached;
}

/** ISD code dropdown, searchable by code ("+44") or by country name ("united"). */
export function IsdCodeSelect({ id, value, onChange }: { id: string; value: string; onChange: (code: string) => void }) {
  const [codes, setCodes] = useState<CountryCode[]>(FALLBACK);
  useEffect(() => {
    let alive = true;
    void loadCountryCodes().then((list) => alive && setCodes(list));
    return () => {
      alive = false;
    };
  }, []);
  // One entry per code: several countries share +1 or +7; the label names them all.
  const byCode = new Map<string, string[]>();
  codes.forEach((c) => byCode.set(c.code, [...(byCode.get(c.code) ?? []), c.country]));
  const options = [...byCode.entries()].map(([code, countries]) => ({
    value: code,
    label: `${code} ${countries.join(', ')}`,
    search: `${code} ${countries.join(' ')}`.toLowerCase(),
  }));
  return (
    <Select
      id={id}
      aria-label="ISD code"
      data-testid="isd-code"
      showSearch={{ filterOption: (input, option) => (option?.search ?? '').includes(input.trim().toLowerCase()) }}
      value={value}
      onChange={onChange}
      options={options}
      optionLabelProp="value"
      popupMatchSelectWidth={260}
      style={{ width: 110 }}
    />
  );
}
