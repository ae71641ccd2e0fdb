import pg from "pg";

/** The benchmarks' PostgreSQL server: DATABASE_URL is its admin URL (a database to connect to while creating others). */
export const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** The URL of another database on the same server. */
export function databaseUrl(name: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the admin database (CREATE or DROP DATABASE). */
export async function admin(query: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}
