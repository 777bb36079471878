/**
 * wiki tag "Wiki Settings" (6): a workspace's wiki settings — what the wiki
 * allows (public wikis, exports, imports, page-view tracking) and the default
 * home space — its branding (what public wikis show unless they override it),
 * and the history of changes. Members read; workspace admins change.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { Limit } from "../../actors/wiki/DiscoveryViews.ts"
import { readerOf } from "../../actors/wiki/VisiblePages.ts"
import { callerOf } from "../../actors/wiki/WikiAccess.ts"
import {
  BrandingPatch,
  SettingsPatch,
  settingsChanges,
  WikiBranding,
  wikiBrandingOf,
  WikiSettingsView,
  wikiSettingsOf,
  WikiWorkspaceSettings
} from "../../actors/wiki/WikiSettings.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { principalOf } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { wikiSettingsExamples } from "./WikiSettings.examples.ts"

const WorkspaceParams = Schema.Struct({ workspaceId: Id })

const member = (context: RequestContext, workspaceId: string, minimum: "viewer" | "admin" = "viewer") =>
  Effect.gen(function* () {
    const caller = callerOf(yield* principalOf(context))
    yield* readerOf(caller, workspaceId, minimum)
    return caller
  })

const SettingsChange = Schema.Struct({
  id: Schema.String,
  changedBy: Schema.Struct({ userId: Schema.String, name: Schema.String }),
  changedAt: Schema.String,
  changes: Schema.Record(Schema.String, Schema.Struct({ from: Schema.Unknown, to: Schema.Unknown }))
}).annotate({ identifier: "WikiSettingsChange" })

const { operation } = tagGroup("wiki", "Wiki Settings", wikiSettingsExamples)

export const wikiSettingsOperations = [
  operation({
    operationId: "getWikiSettings",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/wiki-settings",
    summary: "The workspace's wiki settings",
    description: "Defaults until an admin changes them: everything allowed, page views tracked, no default home space.",
    auth: "both",
    scopes: ["wiki:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Settings", schema: WikiSettingsView } },
    handler: ({ params }, context) =>
      Effect.andThen(member(context, params.workspaceId), wikiSettingsOf(params.workspaceId).pipe(Effect.orDie))
  }),
  operation({
    operationId: "updateWikiSettings",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/wiki-settings",
    summary: "Change the workspace's wiki settings (workspace admin)",
    description:
      "Fields left out are unchanged. Turning `allowPublicWikis` off takes every public wiki and shared page of the workspace offline at once " +
      "(their settings are kept); `allowExports`/`allowImports` off refuse exports/imports (403); `trackPageViews` off stops recording views. " +
      "`defaultHomeSpaceId` must be an active space of the workspace (null clears it).",
    auth: "both",
    scopes: ["wiki:admin"],
    params: WorkspaceParams,
    body: SettingsPatch,
    responses: { 200: { description: "Updated settings", schema: WikiSettingsView } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* member(context, params.workspaceId, "admin")
        return yield* (yield* ActorSystem).ask(WikiWorkspaceSettings, params.workspaceId, "update", { by: caller.userId, patch: body })
      })
  }),
  operation({
    operationId: "resetWikiSettings",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/wiki-settings",
    summary: "Reset the workspace's wiki settings to the defaults (workspace admin)",
    description: "Branding is kept (reset it with updateWikiBranding).",
    auth: "both",
    scopes: ["wiki:admin"],
    params: WorkspaceParams,
    responses: { 200: { description: "Default settings", schema: WikiSettingsView } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* member(context, params.workspaceId, "admin")
        return yield* (yield* ActorSystem).ask(WikiWorkspaceSettings, params.workspaceId, "reset", { by: caller.userId })
      })
  }),
  operation({
    operationId: "getWikiBranding",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/wiki-settings/branding",
    summary: "The workspace's wiki branding (site name, logo, accent color)",
    description: "Public wikis of the workspace show these unless their own settings override them.",
    auth: "both",
    scopes: ["wiki:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Branding", schema: WikiBranding } },
    handler: ({ params }, context) =>
      Effect.andThen(member(context, params.workspaceId), wikiBrandingOf(params.workspaceId).pipe(Effect.orDie))
  }),
  operation({
    operationId: "updateWikiBranding",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/wiki-settings/branding",
    summary: "Change the workspace's wiki branding (workspace admin)",
    description: "Fields left out are unchanged; null clears one. The logo is an http(s) URL; the accent color #rrggbb.",
    auth: "both",
    scopes: ["wiki:admin"],
    params: WorkspaceParams,
    body: BrandingPatch,
    responses: { 200: { description: "Updated branding", schema: WikiBranding } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* member(context, params.workspaceId, "admin")
        return yield* (yield* ActorSystem).ask(WikiWorkspaceSettings, params.workspaceId, "setBranding", { by: caller.userId, patch: body })
      })
  }),
  operation({
    operationId: "listWikiSettingsChanges",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/wiki-settings/changes",
    summary: "Who changed the workspace's wiki settings and branding, and how (workspace admin)",
    description: "Newest first; each entry lists the changed fields with their old and new values.",
    auth: "both",
    scopes: ["wiki:admin"],
    params: WorkspaceParams,
    query: Schema.Struct({ limit: Schema.optionalKey(Limit(100)) }),
    responses: {
      200: {
        description: "Changes",
        schema: Schema.Struct({ items: Schema.Array(SettingsChange) }).annotate({ identifier: "WikiSettingsChanges" })
      }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* member(context, params.workspaceId, "admin")
        const rows = yield* settingsChanges(params.workspaceId, q.limit ?? 20).pipe(Effect.orDie)
        const users = yield* usersByIds([...new Set(rows.map((row) => row.changedBy))]).pipe(Effect.orDie)
        return {
          items: rows.map((row) => ({ ...row, changedBy: { userId: row.changedBy, name: users.get(row.changedBy)?.name ?? "" } }))
        }
      })
  })
]
