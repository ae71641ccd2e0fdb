import { describe, expect, it } from "vitest";
import { clusterEnvProblem, ensureHaproxy, haproxyConfig, MISSING_HAPROXY_LINE } from "../../server/cluster/cluster";

describe("the cluster's HAProxy configuration (ADR 034)", () => {
  const config = haproxyConfig({
    bind: "0.0.0.0:3000",
    statsSocket: "/tmp/gm-cluster-x/haproxy.sock",
    replicas: [
      { name: "replica-1", port: 41001 },
      { name: "replica-2", port: 41002 },
    ],
  });
  const lines = config.split("\n").map((line) => line.trim());

  it("checks /readyz, balances by open connections, pins long polls by cookie, and names each replica", () => {
    expect(lines).toContain("bind 0.0.0.0:3000");
    expect(lines).toContain("option httpchk GET /readyz");
    expect(lines).toContain("http-check expect status 200");
    expect(lines).toContain("balance leastconn");
    expect(lines.some((line) => line.startsWith("cookie gm_replica insert indirect nocache httponly"))).toBe(true);
    expect(lines).toContain("server replica-1 127.0.0.1:41001 cookie replica-1");
    expect(lines).toContain("server replica-2 127.0.0.1:41002 cookie replica-2");
    expect(lines).toContain("stats socket /tmp/gm-cluster-x/haproxy.sock mode 600 level admin");
    expect(config).not.toMatch(/\{\{\w+\}\}/);
  });

  it("takes a replica whose /readyz fails out within the 1 s a draining replica waits before moving its sockets (ADR 048)", () => {
    const server = lines.find((line) => line.startsWith("default-server "))!;
    const ms = (name: string) => {
      const value = new RegExp(`\\b${name} (\\d+)(ms|s)\\b`).exec(server)!;
      return Number(value[1]) * (value[2] === "s" ? 1000 : 1);
    };
    const fall = Number(/\bfall (\d+)/.exec(server)![1]);
    // The first failed check within one interval, the next ones a fast interval apart.
    expect(ms("inter") + (fall - 1) * ms("fastinter")).toBeLessThanOrEqual(750);
  });

  it("retries only what no replica acted on, and keeps WebSockets open between pings", () => {
    expect(lines).toContain("retry-on conn-failure 503");
    expect(config).not.toMatch(/retry-on .*(empty-response|response-timeout)/);
    expect(lines).toContain("timeout tunnel 1h");
  });

  it("refuses a template with a placeholder it does not know", () => {
    expect(() => haproxyConfig({ bind: "x", statsSocket: "y", replicas: [], template: "bind {{BIND}}\n{{NOPE}}" })).toThrow("{{NOPE}}");
  });
});

describe("starting a cluster", () => {
  it("refuses without DATABASE_URL and REDIS_URL, naming what is missing", () => {
    expect(clusterEnvProblem({ DATABASE_URL: "postgres://x", REDIS_URL: "redis://y" })).toBeUndefined();
    expect(clusterEnvProblem({ REDIS_URL: "redis://y" })).toMatch(/^The cluster needs DATABASE_URL:/);
    expect(clusterEnvProblem({})).toMatch(/^The cluster needs DATABASE_URL and REDIS_URL:/);
  });

  it("installs HAProxy when there is none, uses what the installer put there, and says so in a line when it cannot", () => {
    const lines: string[] = [];
    let installed: string | undefined;
    const log = (line: string) => lines.push(line);
    expect(ensureHaproxy({ find: () => "/usr/sbin/haproxy", install: () => expect.fail("nothing to install"), log })).toEqual({ path: "/usr/sbin/haproxy" });
    expect(ensureHaproxy({ find: () => installed, install: () => ((installed = "/usr/sbin/haproxy"), true), log })).toEqual({ path: "/usr/sbin/haproxy" });
    expect(lines).toEqual(["no HAProxy found; installing Debian's haproxy package (apt-get install -y haproxy)"]);
    lines.length = 0;
    expect(ensureHaproxy({ find: () => undefined, install: () => false, log })).toEqual({ error: MISSING_HAPROXY_LINE });
    expect(ensureHaproxy({ find: () => undefined, install: null, log })).toEqual({ error: MISSING_HAPROXY_LINE });
    expect(lines).toEqual(["no HAProxy found; installing Debian's haproxy package (apt-get install -y haproxy)", "Debian's haproxy package could not be installed"]);
    expect(MISSING_HAPROXY_LINE).not.toContain("\n");
  });
});
