import type { MasterConfig } from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import { disabledPrintEventIds } from '../../rules/prints';
import { countryByIso, INDIA } from './countryCodes';

/** Loopback, private, link-local and carrier-grade NAT addresses: development and office networks. */
export function isPrivateAddress(ip: string): boolean {
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (address === '::1' || address === '::' || address === '') return true;
  const v4 = address.match(/^(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  const lower = address.toLowerCase();
  return lower.startsWith('fc') || lower.startsWith('fd') || lower.startsWith('fe80:');
}

type GeoLookup = (ip: string) => { country: string } | null;
let geoLookup: Promise<GeoLookup> | null = null;

/** geoip-lite reads its database (about 100 MB) when imported, so it loads on first use only. */
function loadGeoLookup(): Promise<GeoLookup> {
  geoLookup ??= import('geoip-lite').then((module) => {
    const geoip = (module as { default?: { lookup: GeoLookup } }).default ?? (module as unknown as { lookup: GeoLookup });
    return (ip: string) => geoip.lookup(ip);
  });
  return geoLookup;
}

/**
 * Country and calling code of a client address. Private addresses count as India (+91), and so does
 * an address the database does not know (the spec's default ISD code). A country missing from our
 * calling-code list gets an empty code, which never unlocks prints.
 */
export async function countryOfAddress(ip: string): Promise<{ country: string; country_calling_code: string }> {
  if (isPrivateAddress(ip)) return { country: INDIA.iso, country_calling_code: INDIA.code };
  const lookup = await loadGeoLookup();
  const iso = lookup(ip.startsWith('::ffff:') ? ip.slice(7) : ip)?.country ?? INDIA.iso;
  return { country: iso, country_calling_code: countryByIso(iso)?.code ?? '' };
}

export async function masterConfig(db: Db, ip: string): Promise<MasterConfig> {
  const [DISABLEPRINTS, location] = await Promise.all([disabledPrintEventIds(db), countryOfAddress(ip)]);
  return { DISABLEPRINTS, ...location };
}
