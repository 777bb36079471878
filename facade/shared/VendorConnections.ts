/**
 * What the hub's "Integrations" and pm's "External Connections" share: both
 * declare operations over the same connection store
 * (actors/hub/connections): the body that connects a vendor system, the
 * SSRF-guarded connect itself, who may see and change which connection, and
 * the example connection. A workspace connection takes an admin to connect,
 * test or disconnect; a calendar connection is personal (`isPersonal`): any
 * member connects their own, and only they see or change it.
 */
import { Effect, Schema } from "effect"
import { ConnectionSettings, create, getSeenBy, isPersonal, listSeenBy, VendorKind } from "../../actors/hub/connections/Connections.ts"
import { Name } from "../../actors/Fields.ts"
import { checkOutboundUrl } from "../../actors/webhooks/OutboundAddress.ts"
import { reject } from "../../runtime/Rejection.ts"
import { atLeast, type Role } from "../../actors/identity/Workspace.ts"
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

/** Who may connect, test or disconnect a connection of `vendor`: any member their personal one, else an admin. */
export const changerRole = (vendor: VendorKind): Role => (isPersonal(vendor) ? "member" : "admin")

/** Connects a vendor system to the workspace (admin; a member their own calendar); a base URL inside the network is refused, naming the field. */
export const connectVendor = (workspaceId: string, body: typeof NewConnectionBody.Type, context: RequestContext) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId, changerRole(body.vendor))
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

/** The workspace's connections the caller sees (members; other users' calendars left out). */
export const connectionsSeen = (workspaceId: string, context: RequestContext) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    return yield* Effect.orDie(listSeenBy(workspaceId, principal.userId))
  })

/** One connection the caller sees (404 for another user's calendar, as if it did not exist). */
export const connectionSeen = (workspaceId: string, connectionId: string, context: RequestContext) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    return yield* getSeenBy(workspaceId, connectionId, principal.userId)
  })

/** One connection the caller may change: seen (404 otherwise), and theirs if personal or they are an admin (403 otherwise). */
export const connectionToChange = (workspaceId: string, connectionId: string, context: RequestContext) =>
  Effect.gen(function* () {
    const role = yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    const connection = yield* getSeenBy(workspaceId, connectionId, principal.userId)
    const minimum = changerRole(connection.vendor)
    if (!atLeast(role, minimum)) return yield* reject("forbidden", `Requires the ${minimum} role in this workspace`)
    return connection
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
