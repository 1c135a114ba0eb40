export * from './pure';
export * from './runtime/runtimeConfig';
export * from './api/errors';
export * from './api/client';
export * from './api/endpoints';
export * from './state/shopStore';
export * from './api/cartApi';
export * from './state/cartActions';
