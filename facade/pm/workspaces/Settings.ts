/**
 * A workspace's pm settings: general preferences, features, default views,
 * the security policy and the seat limit.
 */
import { Effect, Schema } from "effect"
import { Timestamp } from "../../../actors/Fields.ts"
import { PmOrganization } from "../../../actors/pm/OrganizationActors.ts"
import { seatUsage } from "../../../actors/pm/Roster.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import {
  Branding,
  type Config,
  configOf,
  DefaultViews,
  defaults,
  Features as WorkspaceFeatures,
  General,
  Security
} from "../../../actors/pm/WorkspaceConfig.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { inWorkspace, orDieSql } from "../WorkAccess.ts"
import { tag, service, read, write, WorkspaceParams, wsp, admin, owner, partial, updateSection, configOfWorkspace } from "./shared.ts"
import { settingsExamples } from "./Settings.examples.ts"

const { operation } = tagGroup(service, tag, settingsExamples)

const SettingsView = Schema.Struct({
  general: General,
  features: WorkspaceFeatures,
  defaultViews: DefaultViews,
  branding: Branding,
  seatLimit: Schema.NullOr(Schema.Number),
  updatedAt: Schema.NullOr(Timestamp)
}).annotate({
  identifier: "PmWorkspaceSettings",
  description: "Project management's settings of a workspace (the security policy is read separately, by admins)."
})

const settingsView = (config: Config) => ({
  general: config.general,
  features: config.features,
  defaultViews: config.defaultViews,
  branding: config.branding,
  seatLimit: config.seatLimit,
  updatedAt: config.updatedAt
})

const sectionOperations = (
  section: "features" | "defaultViews",
  path: string,
  schema: Schema.Top,
  names: { get: string; update: string; what: string },
  example: Record<string, unknown>,
  patchExample: Record<string, unknown>
) => [
  operation({
    operationId: names.get,
    method: "GET",
    path,
    summary: `The workspace's ${names.what}`,
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: names.what, schema } },
    examples: [{ name: "get", request: { params: wsp }, response: { status: 200, body: example } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        return (yield* orDieSql(configOf(params.workspaceId)))[section]
      })
  }),
  operation({
    operationId: names.update,
    method: "PATCH",
    path,
    summary: `Change the workspace's ${names.what} (admin)`,
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: partial(schema as Schema.Struct<any>),
    responses: { 200: { description: `The ${names.what} now`, schema } },
    examples: [
      { name: "update", request: { params: wsp, body: patchExample }, response: { status: 200, body: { ...example, ...patchExample } } }
    ],
    handler: ({ params, body }, context) =>
      Effect.map(updateSection(context, params.workspaceId, section, body as object), (config) => config[section])
  })
]

export const workspaceSettingsOperations = [
  operation({
    operationId: "getWorkspaceSettings",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/settings",
    summary: "The workspace's settings: preferences, features, default views, branding, seat limit",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "Settings", schema: SettingsView } },
    handler: ({ params }, context) =>
      Effect.andThen(inWorkspace(context, params.workspaceId), Effect.map(configOfWorkspace(params.workspaceId), settingsView))
  }),
  operation({
    operationId: "updateWorkspaceSettings",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/settings",
    summary: "Change the workspace's preferences: time zone, week start, formats, locale, description (admin)",
    description: "The time zone and week start define the days and weeks of the workspace statistics.",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: partial(General),
    responses: { 200: { description: "Settings", schema: SettingsView } },
    handler: ({ params, body }, context) => Effect.map(updateSection(context, params.workspaceId, "general", body), settingsView)
  }),
  operation({
    operationId: "resetWorkspaceSettings",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/settings",
    summary:
      "Reset preferences, features, default views, security policy and branding colors to the defaults (admin; the logo and seat limit stay)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    responses: { 200: { description: "Settings", schema: SettingsView } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        return settingsView(yield* send(PmOrganization, params.workspaceId, "resetConfig", caller.userId, {}))
      })
  }),
  ...sectionOperations(
    "features",
    "/v1/workspaces/{workspaceId}/features",
    WorkspaceFeatures,
    {
      get: "getWorkspaceFeatures",
      update: "updateWorkspaceFeatures",
      what: "features (public sharing, guests, invite links, joining by e-mail domain)"
    },
    defaults.features,
    { publicSharing: false }
  ),
  ...sectionOperations(
    "defaultViews",
    "/v1/workspaces/{workspaceId}/default-views",
    DefaultViews,
    { get: "getWorkspaceDefaultViews", update: "updateWorkspaceDefaultViews", what: "default views per level" },
    defaults.defaultViews,
    { list: "board" }
  ),
  operation({
    operationId: "getWorkspaceSecurityPolicy",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/security",
    summary: "The invitation and sharing policy (admin)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "Policy", schema: Security } },
    handler: ({ params }, context) =>
      Effect.andThen(
        admin(context, params.workspaceId),
        Effect.map(configOfWorkspace(params.workspaceId), (c) => c.security)
      )
  }),
  operation({
    operationId: "updateWorkspaceSecurityPolicy",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/security",
    summary:
      "Change the invitation and sharing policy: allowed and auto-join e-mail domains, who may invite, invitation expiry, longest public link (admin)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: partial(Security),
    responses: { 200: { description: "Policy", schema: Security } },
    handler: ({ params, body }, context) =>
      Effect.map(
        updateSection(context, params.workspaceId, "security", {
          ...body,
          ...(body.allowedEmailDomains ? { allowedEmailDomains: [...new Set(body.allowedEmailDomains.map((d) => d.toLowerCase()))] } : {}),
          ...(body.autoJoinDomains ? { autoJoinDomains: [...new Set(body.autoJoinDomains.map((d) => d.toLowerCase()))] } : {})
        }),
        (c) => c.security
      )
  }),
  operation({
    operationId: "setWorkspaceSeatLimit",
    method: "PUT",
    path: "/v1/workspaces/{workspaceId}/seat-limit",
    summary: "Set how many members (guests excluded) the workspace may have (owner only; null: unlimited)",
    description: "Pending invitations reserve seats. Refused (409) below the current number of members.",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    body: Schema.Struct({ seatLimit: Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))) }),
    responses: {
      200: {
        description: "Seats",
        schema: Schema.Struct({
          limit: Schema.NullOr(Schema.Number),
          members: Schema.Number,
          guests: Schema.Number,
          pendingInvitations: Schema.Number,
          available: Schema.NullOr(Schema.Number)
        }).annotate({ identifier: "WorkspaceSeats" })
      }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* owner(context, params.workspaceId)
        const usage = yield* orDieSql(seatUsage(params.workspaceId))
        if (body.seatLimit !== null && body.seatLimit < usage.members) {
          return yield* reject("conflict", `The workspace has ${usage.members} members; remove some first`, [
            { path: "body.seatLimit", message: `below the ${usage.members} current members` }
          ])
        }
        yield* send(PmOrganization, params.workspaceId, "setSeatLimit", caller.userId, { seatLimit: body.seatLimit })
        return yield* orDieSql(seatUsage(params.workspaceId))
      })
  })
]
