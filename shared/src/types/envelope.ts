/** Every API response is wrapped in this envelope (spec: StatusCode, Message, HasError, result). */
export interface ApiEnvelope<T> {
  StatusCode: number;
  Message: string;
  HasError: boolean;
  result: T;
}

/**
 * GET /health: the database the API opened, and where the demo seed of a first start is ('seeding'
 * while it fills the demo in behind an API that already answers; 'off' where the process seeds nothing,
 * or has nothing left to seed and its job work is still starting).
 */
export interface HealthResult {
  status: 'ok';
  database: 'pglite' | 'postgres';
  demo: 'off' | 'seeding' | 'ready';
}
