import pg from 'pg';

/** Runs one statement on the PostgreSQL server itself (create or drop a test's own database). */
export async function onPgServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The address of database `name` on the server at serverUrl. */
export function databaseOn(serverUrl: string, name: string): string {
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return target.toString();
}
