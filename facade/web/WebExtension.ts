/**
 * Serves the web app (`web/`) at `/` from the same uWS app as the API:
 * assets built on first start and read once per process (WebAssets), index.html revalidated (no-cache,
 * ETag), hashed assets cached for a year (immutable), gzip when accepted.
 * The app's own URLs (APP_ROUTES: history-API routes, never an API base
 * path) answer index.html, so a reload or a shared link opens that page.
 * A failed build is logged and `/` answers 503: the API keeps running.
 */
import { Effect, Layer } from "effect"
import { logError } from "../../runtime/Log.ts"
import { extension } from "../Extension.ts"
import type { HttpResponse, TemplatedApp } from "../uws.ts"
import { type Asset, webAssets } from "./WebAssets.ts"

const send = (res: HttpResponse, asset: Asset, ifNoneMatch: string, acceptEncoding: string) => {
  res.cork(() => {
    if (ifNoneMatch === asset.etag) {
      res.writeStatus("304 Not Modified").writeHeader("etag", asset.etag).writeHeader("cache-control", asset.cacheControl).end()
      return
    }
    const gzip = asset.gzip !== undefined && /\bgzip\b/.test(acceptEncoding)
    res
      .writeStatus("200 OK")
      .writeHeader("content-type", asset.contentType)
      .writeHeader("cache-control", asset.cacheControl)
      .writeHeader("etag", asset.etag)
      .writeHeader("x-content-type-options", "nosniff")
      .writeHeader("vary", "accept-encoding")
    if (gzip) res.writeHeader("content-encoding", "gzip")
    res.end(gzip ? asset.gzip! : asset.body)
  })
}

/** The app's history-API routes (web/src/routes.tsx); the API's base paths (/pm, /hub, /wiki, /feedback, /mcp) stay the API's. */
export const APP_ROUTES = ["/", "/index.html", "/sign-in", "/w", "/w/*", "/portal/*", "/oauth/callback", "/unsubscribe"] as const

const notFound = (res: HttpResponse, status: string, message: string) => {
  res.cork(() => {
    res.writeStatus(status).writeHeader("content-type", "text/plain; charset=utf-8").writeHeader("cache-control", "no-store").end(message)
  })
}

export const attachWebApp = (app: TemplatedApp) =>
  Effect.promise(() =>
    webAssets().then(
      (assets) => ({ assets, problem: undefined }),
      (error: unknown) => ({ assets: new Map<string, Asset>(), problem: error })
    )
  ).pipe(
    Effect.tap(({ problem }) =>
      problem === undefined ? Effect.void : Effect.sync(() => logError("web", "the web app build failed", problem))
    ),
    Effect.flatMap(({ assets, problem }) =>
      Effect.sync(() => {
        const handler = (res: HttpResponse, req: { getUrl(): string; getHeader(name: string): string }) => {
          const url = req.getUrl()
          const asset = assets.get(url.startsWith("/assets/") ? url : "/")
          if (asset !== undefined) send(res, asset, req.getHeader("if-none-match"), req.getHeader("accept-encoding"))
          else if (problem !== undefined) notFound(res, "503 Service Unavailable", "The web app could not be built; see the server log.")
          else notFound(res, "404 Not Found", "Not found")
        }
        for (const route of APP_ROUTES) app.get(route, handler)
        app.get("/assets/*", handler)
      })
    )
  )

export const webExtension = extension({
  name: "web",
  layer: () => Layer.empty,
  attach: (app) => attachWebApp(app)
})
