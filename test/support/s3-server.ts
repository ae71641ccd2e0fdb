import path from "node:path";
import S3rver from "s3rver";

/**
 * A real S3-API server for a test file (s3rver, ADR 066) on a port of its own on 127.0.0.1, keeping its objects under
 * `directory`, with one bucket; and the S3_ variables that point the app's storage at it.
 */
export async function startS3Server(directory: string, bucket: string) {
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: path.join(directory, "s3rver"), configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    /** s3rver takes any key pair; this is its documented one. */
    settings: { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: "us-east-1", S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" },
    close: () => server.close(),
  };
}
