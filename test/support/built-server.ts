import { spawn } from "node:child_process";
import { productionStart } from "../../server/start-command.mjs";

export interface BuiltServer {
  url: string;
  /** The server's process id (for reading its memory from /proc). */
  pid: number;
  /** Everything it printed so far, stdout and stderr (its log). */
  output(): string;
  /** Resolves with the exit code (or the signal) once the process is gone. */
  exited: Promise<number | string | null>;
  /** SIGTERM, then waits for the process to exit. */
  stop(): Promise<void>;
  /** SIGKILL (a crash: nothing is finished or flushed by the process), then waits for it to be gone. */
  kill(): Promise<void>;
}

/**
 * The built server as `npm start` runs it (its flags and variables: server/start-command.mjs) in a process of its own,
 * with only PATH, production mode, a free port on 127.0.0.1 and the given environment; resolved once it prints its
 * address.
 */
export async function startBuiltServer(env: Record<string, string>): Promise<BuiltServer> {
  const start = productionStart();
  const child = spawn(process.execPath, [...start.flags, "build/index.js"], {
    env: { PATH: process.env.PATH ?? "", ...start.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: "pipe",
  });
  const exited = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
      const port = /GamerMatch: http:\/\/[^:]+:(\d+)/.exec(output)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    child.once("exit", () => reject(new Error(`the server stopped:\n${output}`)));
  });
  return {
    url,
    pid: child.pid!,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
