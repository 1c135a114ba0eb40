import type { PackId, PackageKind } from '../types/cart';

/**
 * The two BIB packages. The spec names each twice: the package choice ('a' premium, 'b' ultra
 * premium) and the pack line's id ('b_premium', 'b_ultraprem'); this table is the one place that
 * ties them together and names them on screen.
 */
export const PACKAGES: Record<PackageKind, { id: PackId; name: string }> = {
  a: { id: 'b_premium', name: 'Premium' },
  b: { id: 'b_ultraprem', name: 'Ultra premium' },
};

export const PACK_IDS: readonly PackId[] = [PACKAGES.a.id, PACKAGES.b.id];

export function isPackId(value: unknown): value is PackId {
  return PACK_IDS.includes(value as PackId);
}

export function packIdOf(kind: PackageKind): PackId {
  return PACKAGES[kind].id;
}

export function packageKindOf(id: PackId): PackageKind {
  return id === PACKAGES.a.id ? 'a' : 'b';
}

/** 'Premium' or 'Ultra premium'. */
export function packNameOf(id: PackId): string {
  return PACKAGES[packageKindOf(id)].name;
}
