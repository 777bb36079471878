/**
 * pm tags "Version Resource" (1) and "Public Tenant Resource" (1): what is
 * running (release, commit, database schema), and a workspace's public
 * branding for its login page (name, colours, tagline, logo metadata and
 * how its members sign in). Both without credentials.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { Effect, Schema } from "effect"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { schemaVersion } from "../../../actors/platform/Deployment.ts"
import { WorkspaceSso } from "../../../actors/sso/SsoConfig.ts"
import { Id, Timestamp } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { BrandingView, brandingView, configOfWorkspace } from "../../pm/workspaces/shared.ts"

import { versionResourceExamples, publicTenantResourceExamples } from "./VersionTenant.examples.ts"

const startedAt = new Date().toISOString()

const packageVersion = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version?: string }).version ?? "0.0.0"
  } catch {
    return "0.0.0"
  }
})()

/** ATRIUM_COMMIT (set at build), else the checkout's HEAD, read once at startup. */
const commit = (() => {
  if (process.env.ATRIUM_COMMIT) return process.env.ATRIUM_COMMIT
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], {
      cwd: new URL("../../..", import.meta.url).pathname,
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 2000
    })
      .toString()
      .trim()
  } catch {
    return "unknown"
  }
})()

const VersionInfo = Schema.Struct({
  service: Schema.Literal("atrium"),
  version: Schema.String,
  commit: Schema.String,
  schemaVersion: Schema.Number.annotate({ description: "The latest database migration applied" }),
  schemaMigration: Schema.String,
  node: Schema.String,
  startedAt: Timestamp,
  uptimeSeconds: Schema.Number
}).annotate({ identifier: "VersionInfo" })

const TenantView = Schema.Struct({
  workspaceId: Id,
  branding: BrandingView,
  signIn: Schema.Struct({
    password: Schema.Boolean.annotate({ description: "Whether members may log in with a password (false when SSO is enforced)" }),
    sso: Schema.Boolean,
    ssoStartUrl: Schema.NullOr(Schema.String)
  })
}).annotate({ identifier: "PublicTenant" })

const versionResourceTag = tagGroup("pm", "Version Resource", versionResourceExamples)
const publicTenantResourceTag = tagGroup("pm", "Public Tenant Resource", publicTenantResourceExamples)

export const versionTenantOperations = [
  versionResourceTag.operation({
    operationId: "getVersion",
    method: "GET",
    path: "/v1/version",
    summary: "The running release, its commit and the database schema version",
    auth: "public",
    scopes: [],
    responses: { 200: { description: "Version", schema: VersionInfo } },
    handler: () =>
      Effect.gen(function* () {
        const schema = yield* Effect.orDie(schemaVersion)
        return {
          service: "atrium" as const,
          version: packageVersion,
          commit,
          schemaVersion: schema.version,
          schemaMigration: schema.name,
          node: process.version,
          startedAt,
          uptimeSeconds: Math.floor((Date.now() - Date.parse(startedAt)) / 1000)
        }
      })
  }),
  publicTenantResourceTag.operation({
    operationId: "getPublicTenant",
    method: "GET",
    path: "/v1/public/tenants/{workspaceId}",
    summary: "A workspace's login page: its branding and how its members sign in",
    auth: "public",
    scopes: [],
    params: Schema.Struct({ workspaceId: Id }),
    responses: { 200: { description: "Branding", schema: TenantView }, 404: { description: "No such workspace" } },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const actors = yield* ActorSystem
        const ws = yield* Workspace.client(actors)(params.workspaceId).inspect({})
        if (!ws.exists) return yield* reject("not_found", "No such workspace")
        const config = yield* configOfWorkspace(params.workspaceId)
        const sso = yield* actors.ask(WorkspaceSso, params.workspaceId, "settings", {}).pipe(Effect.option)
        const ssoOn = sso._tag === "Some" && sso.value.enabled
        return {
          workspaceId: params.workspaceId,
          branding: brandingView(params.workspaceId, ws.name, config),
          signIn: {
            password: !(ssoOn && sso.value.enforced),
            sso: ssoOn,
            ssoStartUrl: ssoOn ? `/pm/v1/sso/${params.workspaceId}/start` : null
          }
        }
      })
  })
]
