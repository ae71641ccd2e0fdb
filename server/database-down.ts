import type { ServerBuild } from "@remix-run/node";
import { databaseUnavailable, isConnectionError } from "../app/infra/db/errors";
import { log } from "../app/infra/logger.server";

type RouteModule = ServerBuild["routes"][string]["module"];
type Handler = NonNullable<RouteModule["loader"]>;

const answered = new WeakMap<ServerBuild, ServerBuild>();

/**
 * The build with every route's loader and action answering the database's absence as the session check does: a
 * thrown 503 with Retry-After and the product's message (`databaseUnavailable`, ADR 049), on every page and resource
 * route. Thrown as a Response, it reaches the error boundary as a 503 with its message, the same in the server's
 * HTML, in the data the browser hydrates and in a client-side navigation's data request; a loader's own error would
 * reach it sanitized (production hides an error's message), as the generic error page. The routes' modules are
 * wrapped, not changed (as error-reporting SDKs instrument a Remix build); the same build gives the same answer.
 */
export function answeringDatabaseDown(build: ServerBuild): ServerBuild {
  let wrapped = answered.get(build);
  if (!wrapped) {
    const routes = Object.fromEntries(Object.entries(build.routes).map(([id, route]) => [id, { ...route, module: wrapModule(route.module) }]));
    wrapped = { ...build, routes };
    answered.set(build, wrapped);
  }
  return wrapped;
}

function wrapModule(module: RouteModule): RouteModule {
  return {
    ...module,
    ...(module.loader ? { loader: wrap(module.loader) } : {}),
    ...(module.action ? { action: wrap(module.action) as RouteModule["action"] } : {}),
  };
}

function wrap(handler: Handler): Handler {
  return async (args) => {
    try {
      return await handler(args);
    } catch (error) {
      if (!isConnectionError(error)) throw error;
      log.warn({ err: error, path: new URL(args.request.url).pathname }, "remix: the database is out of reach");
      throw databaseUnavailable();
    }
  };
}
