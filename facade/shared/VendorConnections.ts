/**
 * What the hub's "Integrations" and pm's "External Connections" share: both
 * declare operations over the same connection store
 * (actors/hub/connections): the body that connects a vendor system, the
 * admin-only, SSRF-guarded connect itself, and the example connection.
 */
import { Effect, Schema } from "effect"
import { ConnectionSettings, VendorKind, create } from "../../actors/hub/connections/Connections.ts"
import { Name } from "../../actors/Fields.ts"
import { checkOutboundUrl } from "../../actors/webhooks/OutboundAddress.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import type { RequestContext } from "../Operation.ts"

const HttpUrl = Schema.String.check(
  Schema.isMaxLength(2000),
  Schema.isPattern(/^https?:\/\/[^\s/?#]+(?:\/[^\s?#]*)?$/, { expected: "an http(s) base URL without query or fragment" })
)

export const NewConnectionBody = Schema.Struct({
  vendor: VendorKind,
  name: Name(200),
  baseUrl: HttpUrl,
  token: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(4000)),
  settings: Schema.optionalKey(ConnectionSettings)
})

/** Connects a vendor system to the workspace (admin); a base URL inside the network is refused, naming the field. */
export const connectVendor = (workspaceId: string, body: typeof NewConnectionBody.Type, context: RequestContext) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId, "admin")
    const principal = yield* principalOf(context)
    // SSRF guard: a connection may not point inside the network (unless ATRIUM_ALLOW_PRIVATE_URLS=1).
    const refusal = yield* Effect.promise(() => checkOutboundUrl(body.baseUrl))
    if (refusal) return yield* reject("invalid", `The base URL ${refusal.reason}`, [{ path: "body.baseUrl", message: refusal.reason }])
    return yield* Effect.orDie(
      create({
        workspaceId,
        vendor: body.vendor,
        name: body.name.trim(),
        baseUrl: body.baseUrl,
        token: body.token,
        settings: body.settings ?? {},
        createdBy: principal.userId
      })
    )
  })

export const exampleNewConnection = {
  vendor: "tracker",
  name: "Engineering tracker",
  baseUrl: "https://tracker.example.com/api",
  token: "trk_live_secret",
  settings: { project: "ENG" }
}

/** The example connection as a reply shows it (no token). */
export const exampleConnectionOf = (ids: {
  readonly id: string
  readonly workspaceId: string
  readonly createdBy: string
  readonly createdAt: string
}) => {
  const { token: _, ...shown } = exampleNewConnection
  return { ...ids, ...shown, hasToken: true }
}
