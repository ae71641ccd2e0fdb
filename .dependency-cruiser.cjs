/**
 * The floors of the code base (docs/architecture.md, ADR 036), checked by `npm run lint:deps` in `npm test`.
 * An import points to the same floor or a lower one, never up, and never in a circle; type-only imports count too.
 *
 *   host        server/                      Express + Socket.IO composition, CLIs, cluster, sweeper schedule, seed
 *   routes      app/routes/, app/root.tsx, app/entry.*, app/load-context.ts, app/http/
 *   components  app/components/
 *   models      app/models/
 *   infra       app/infra/                   database, auth sessions and tokens, realtime emitter, storage, payments,
 *                                            logger, config
 *   lib         app/lib/                     constants, messages, time, schemas: code for both sides
 */
const floors = [
  { name: "host", path: "^server/" },
  { name: "routes", path: "^app/(routes/|http/|root\\.tsx$|entry\\.[a-z]+\\.tsx?$|load-context\\.ts$)" },
  { name: "components", path: "^app/components/" },
  { name: "models", path: "^app/models/" },
  { name: "infra", path: "^app/infra/" },
  { name: "lib", path: "^app/lib/" },
];

/** One rule per floor: nothing on it may import a floor above it. */
const noClimbing = floors.slice(1).map((floor, index) => ({
  name: `${floor.name}-not-up`,
  comment: `${floor.name} imports only from its own floor or lower: not from ${floors
    .slice(0, index + 1)
    .map((f) => f.name)
    .join(", ")}.`,
  severity: "error",
  from: { path: floor.path },
  to: { path: floors.slice(0, index + 1).map((f) => f.path) },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import circles, type-only imports included: a circle makes two modules one, and load order fragile.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...noClimbing,
    {
      name: "app-knows-its-floors",
      comment: "Every module under app/ lives on a floor; a new top-level folder there gets a place in this file first.",
      severity: "error",
      from: { path: "^app/", pathNot: floors.map((f) => f.path) },
      to: {},
    },
    {
      name: "no-tests-in-product",
      comment: "Product code never imports test code.",
      severity: "error",
      from: { path: "^(app|server|migrations)/" },
      to: { path: "^test/" },
    },
    {
      name: "migrations-stand-alone",
      comment: "A migration is frozen once landed: it may not follow code that keeps changing (kysely and node only).",
      severity: "error",
      from: { path: "^migrations/" },
      to: { path: "^(app|server)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|build|public)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mjs", ".js", ".cjs", ".d.ts"],
    },
  },
};
