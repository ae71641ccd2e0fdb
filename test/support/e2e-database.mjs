// A fresh PostgreSQL database for the e2e suite's second server (playwright.config.ts): drops and creates the database
// named in DATABASE_URL on the server of TEST_DATABASE_URL. The app migrates and seeds it when it starts.
import pg from "pg";

const target = new URL(process.env.DATABASE_URL ?? "");
const name = target.pathname.slice(1);
if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`);
const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
await admin.connect();
try {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
} finally {
  await admin.end();
}
