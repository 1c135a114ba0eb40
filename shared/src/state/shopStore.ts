import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';
import { SHOP_STORE_KEY, SHOP_STORE_VERSION } from '../storageKeys';
import { browserStorage } from '../storage/localStore';
import type { BibSearchResult } from '../types/search';
import type { Photo } from '../types/entities';
import type { CollageOrientation, PackageKind, SearchKind } from '../types/cart';

/** A cart line: a photo/video/print/collage, or a pack ('b_premium' / 'b_ultraprem'). */
export interface CartItem extends Omit<Photo, 'id' | 'category'> {
  id: number | string;
  category: Photo['category'] | 'pack';
  /** For prints: the chosen print product id. */
  printProductId?: number;
  /** For collages: the photos composing it. */
  collagePhotoIds?: number[];
}

export interface ShopState {
  version: typeof SHOP_STORE_VERSION;
  eventId: number | null;
  eventName: string | null;
  bibNumber: string | null;
  searchKind: SearchKind | null;
  products: BibSearchResult | null;
  cart: CartItem[];
  nextSeq: number;
  /** Package chosen for the bib: 'a' premium, 'b' ultra premium. */
  packageKind: PackageKind | null;
  sponsor: { appliedDiscount: boolean; discountedPhoto: number[] };
  /** Orientation of the journey-map collage made of the cart's collage items (also stored under Orientation). */
  collageOrientation?: CollageOrientation;
  /** Print instructions typed in the cart, carried to checkout. */
  printInstruction?: string;
}

export const EMPTY_SHOP: ShopState = {
  version: SHOP_STORE_VERSION,
  eventId: null,
  eventName: null,
  bibNumber: null,
  searchKind: null,
  products: null,
  cart: [],
  nextSeq: 1,
  packageKind: null,
  sponsor: { appliedDiscount: false, discountedPhoto: [] },
};

// jotai is handed the Storage object itself (it syncs tabs only for a real Storage); where there is
// none, jotai's optional access keeps the store in memory.
const storage = createJSONStorage<ShopState>(() => browserStorage() as Storage);

/** Migrates what is stored: anything not of the current version starts empty rather than breaking. */
const versionedStorage = {
  ...storage,
  getItem(key: string, initial: ShopState): ShopState {
    const stored = storage.getItem(key, initial) as ShopState;
    return stored && stored.version === SHOP_STORE_VERSION ? { ...EMPTY_SHOP, ...stored } : initial;
  },
};

export const shopAtom = atomWithStorage<ShopState>(SHOP_STORE_KEY, EMPTY_SHOP, versionedStorage, { getOnInit: true });

export const cartCountAtom = atom((get) => get(shopAtom).cart.length);
