/**
 * A local fake vendor for the connect tests: an OAuth 2.0 authorization
 * server (authorize with PKCE S256, token with authorization_code and
 * refresh_token grants, RFC 7009 revocation) and the REST shapes of every
 * vendor kind the hub's resources speak (projects, tables, spaces, channels;
 * create and read items). Tests can make it answer 429/5xx, hang, or forget
 * its access tokens (to see the hub refresh once).
 */
import { createHash } from "node:crypto"
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Seen {
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: any
}

interface Forced {
  readonly status: number
  readonly headers?: Record<string, string>
  readonly hang?: boolean
}

const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { "content-type": "application/json", ...headers })
  response.end(JSON.stringify(body))
}

export const startFakeVendor = async (options: { expiresIn?: number } = {}) => {
  const seen: Array<Seen> = []
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string }>()
  const accessTokens = new Set<string>()
  const refreshTokens = new Set<string>()
  const revoked: Array<string> = []
  const items = new Map<string, { status: string; assignee: string | null; body: any }>()
  const idempotent = new Map<string, string>()
  const forced: Array<Forced> = []
  let counter = 0
  let expiresIn = options.expiresIn ?? 3600

  const issue = () => {
    counter += 1
    const access = `at-${counter}-secret`
    const refresh = `rt-${counter}-secret`
    accessTokens.add(access)
    refreshTokens.add(refresh)
    return { access_token: access, refresh_token: refresh, token_type: "Bearer", expires_in: expiresIn, scope: "read write" }
  }

  const api = (method: string, path: string, body: any, headers: Seen["headers"], response: ServerResponse) => {
    const token = String(headers.authorization ?? "").replace(/^Bearer /, "")
    if (!accessTokens.has(token)) return send(response, 401, { error: "invalid_token" })
    const next = forced.shift()
    if (next?.hang) return // never answers
    if (next) return send(response, next.status, { error: "forced" }, next.headers)
    const create = (extra: Record<string, unknown> = {}) => {
      const key = String(headers["idempotency-key"] ?? "")
      const known = key ? idempotent.get(key) : undefined
      const id = known ?? String(1000 + items.size + 1)
      if (!known) items.set(id, { status: "open", assignee: body?.assignee ?? body?.fields?.Owner ?? null, body })
      if (key) idempotent.set(key, id)
      return send(response, 201, { id, ...extra })
    }
    const state = (id: string) => items.get(decodeURIComponent(id))
    let match: RegExpExecArray | null
    if (method === "GET" && path === "/projects") return send(response, 200, [{ id: "10000", key: "ENG", name: "Engineering" }])
    if (method === "GET" && path === "/tables") return send(response, 200, { tables: [{ id: "tblActions", name: "Action items" }] })
    if (method === "GET" && path === "/spaces")
      return send(response, 200, { results: [{ id: "98305", key: "NOTES", name: "Meeting notes" }] })
    if (method === "GET" && path === "/conversations") return send(response, 200, { channels: [{ id: "C024BE91L", name: "launch" }] })
    if (method === "POST" && (path === "/issues" || path === "/tasks" || path === "/pages" || /^\/projects\/[^/]+\/tasks$/.test(path)))
      return create()
    if (method === "POST" && /^\/tables\/[^/]+\/records$/.test(path)) return create()
    if (method === "POST" && path === "/chat.postMessage") return create({ ts: `1700000000.${items.size + 1}` })
    if (method === "GET" && (match = /^\/(?:issues|tasks|pages)\/([^/]+)$/.exec(path))) {
      const item = state(match[1]!)
      if (!item) return send(response, 404, { error: "not found" })
      return send(response, 200, { id: match[1], status: item.status, assignee: item.assignee, completed: item.status === "done" })
    }
    if (method === "GET" && (match = /^\/tables\/[^/]+\/records\/([^/]+)$/.exec(path))) {
      const item = state(match[1]!)
      if (!item) return send(response, 404, { error: "not found" })
      return send(response, 200, { id: match[1], fields: { Status: item.status, Owner: item.assignee } })
    }
    return send(response, 404, { error: `no route ${method} ${path}` })
  }

  const server = createServer((request, response) => {
    let text = ""
    request.on("data", (chunk) => (text += chunk))
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://fake")
      const form = String(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")
      const body = text === "" ? undefined : form ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text)
      seen.push({ method: request.method ?? "", path: url.pathname + url.search, headers: request.headers, body })
      if (url.pathname === "/oauth/authorize") {
        // The user consents at once: back to the app with a code bound to the PKCE challenge.
        const code = `code-${++counter}`
        codes.set(code, {
          challenge: url.searchParams.get("code_challenge") ?? "",
          redirectUri: url.searchParams.get("redirect_uri") ?? "",
          clientId: url.searchParams.get("client_id") ?? ""
        })
        const back = new URL(url.searchParams.get("redirect_uri") ?? "")
        back.searchParams.set("code", code)
        back.searchParams.set("state", url.searchParams.get("state") ?? "")
        response.writeHead(302, { location: back.toString() })
        return response.end()
      }
      if (url.pathname === "/oauth/token" && request.method === "POST") {
        if (body?.client_id !== "atrium-client" || body?.client_secret !== "client-secret")
          return send(response, 401, { error: "invalid_client" })
        if (body.grant_type === "authorization_code") {
          const pending = codes.get(body.code)
          codes.delete(body.code)
          const challenge = createHash("sha256")
            .update(String(body.code_verifier ?? ""))
            .digest("base64url")
          if (!pending || pending.challenge !== challenge || pending.redirectUri !== body.redirect_uri)
            return send(response, 400, { error: "invalid_grant" })
          return send(response, 200, issue())
        }
        if (body.grant_type === "refresh_token") {
          if (!refreshTokens.delete(body.refresh_token)) return send(response, 400, { error: "invalid_grant" })
          return send(response, 200, issue())
        }
        return send(response, 400, { error: "unsupported_grant_type" })
      }
      if (url.pathname === "/oauth/revoke" && request.method === "POST") {
        revoked.push(body?.token)
        accessTokens.delete(body?.token)
        refreshTokens.delete(body?.token)
        return send(response, 200, {})
      }
      if (url.pathname.startsWith("/api/")) return api(request.method ?? "", url.pathname.slice(4), body, request.headers, response)
      send(response, 404, { error: "unknown" })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    apiUrl: `${origin}/api`,
    seen,
    revoked,
    items,
    /** Gives a token directly (a connection made with a pasted token). */
    grant: () => issue().access_token,
    /** The next API answers, in order. */
    force: (...answers: Array<Forced>) => forced.push(...answers),
    /** Every access token stops working (as after the vendor expired them). */
    expireAccessTokens: () => accessTokens.clear(),
    /** Every refresh token stops working too (the grant was withdrawn at the vendor). */
    withdrawGrants: () => {
      accessTokens.clear()
      refreshTokens.clear()
    },
    setExpiresIn: (seconds: number) => {
      expiresIn = seconds
    },
    env: (vendor: string) => ({
      [`HUB_OAUTH_${vendor.toUpperCase()}_AUTHORIZE_URL`]: `${origin}/oauth/authorize`,
      [`HUB_OAUTH_${vendor.toUpperCase()}_TOKEN_URL`]: `${origin}/oauth/token`,
      [`HUB_OAUTH_${vendor.toUpperCase()}_REVOKE_URL`]: `${origin}/oauth/revoke`,
      [`HUB_OAUTH_${vendor.toUpperCase()}_CLIENT_ID`]: "atrium-client",
      [`HUB_OAUTH_${vendor.toUpperCase()}_CLIENT_SECRET`]: "client-secret",
      [`HUB_OAUTH_${vendor.toUpperCase()}_API_URL`]: `${origin}/api`,
      [`HUB_OAUTH_${vendor.toUpperCase()}_SCOPES`]: "read write"
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export type FakeVendor = Awaited<ReturnType<typeof startFakeVendor>>
