/**
 * PGlite's shared_buffers. PostgreSQL's default, 128MB, is allocated and touched when PGlite opens,
 * inside the API's own process: 32MB opens in about 160 MB less resident memory and 40 % less time
 * (docs/supply-line.md, "The API's memory on PGlite"); the embedded database is for one machine's
 * development and demo data, which fits. A PostgreSQL server is tuned on the server.
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS = '32MB';
export const PGLITE_SHARED_BUFFERS_FORMAT = /^[1-9]\d*(kB|MB|GB)$/;
