/** Parts of shared that carry no browser or React code: the server imports only these. */
export * from './types/envelope';
export * from './types/entities';
export * from './types/search';
export * from './types/config';
export * from './storageKeys';
export * from './api/routes';
export * from './types/cart';
export * from './types/otp';
export * from './schemas/cart';
export * from './pricing/pricing';
export * from './schemas/search';
export * from './pricing/cartRequest';
export * from './types/faces';
export * from './types/discovery';
export * from './schemas/discovery';
export * from './types/accounts';
export * from './schemas/accounts';
