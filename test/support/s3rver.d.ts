// s3rver ships no types: the part of its API test/integration/object-storage.test.ts uses (node_modules/s3rver/README.md).
declare module "s3rver" {
  export default class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      silent?: boolean;
      directory?: string;
      configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
    });
    /** Answers the address it listens on. */
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
