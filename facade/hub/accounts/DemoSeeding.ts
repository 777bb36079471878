/**
 * What the hub's demo operations share: the generator (facade/Demo.ts, loaded
 * lazily), seeding a workspace for a user, the bookkeeping of a new demo.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { DemoWorkspace, demoById, markDemoDeleted, recordDemo } from "../../../actors/hub/DemoWorkspaces.ts"
import { Id } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf } from "../../Access.ts"
import { AccessTokens } from "../../../actors/auth/AccessTokens.ts"
import type { RequestContext } from "../../Operation.ts"
import { OperationRegistry } from "../../Registry.ts"
import { caller, mintDemoKey, seedWorkspaceContent } from "../../Demo.ts"

export const at = "2026-11-21T12:00:00.000Z"
const DAY = 86_400_000

export const ttlDays = () => Number(process.env.DEMO_TTL_DAYS) || 7
/** Throwaway demo accounts per hour (the Demo User Resource is public). */
export const demoUsersPerHour = () => Number(process.env.DEMO_USERS_PER_HOUR) || 5
export const MAX_DEMOS_PER_USER = 5
export const MAX_EXTEND_DAYS = 30

export const exampleDemo = {
  id: "8c9d0e1f-2a3b-4c4d-8e5f-6a7b8c9d0e1f",
  workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  ownerId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  name: "Demo workspace",
  contents: { lists: 3, tasks: 30, pages: 4, meetings: 3 },
  resets: 0,
  createdAt: at,
  resetAt: null,
  expiresAt: "2026-11-28T12:00:00.000Z",
  expired: false
}
export const exampleKey = "atr_live_Xy12ab…"

export const SeededDemo = Schema.Struct({
  ...DemoWorkspace.fields,
  apiKey: Schema.String.annotate({ description: "An agent API key for the demo workspace (every scope); shown only now" })
}).annotate({ identifier: "SeededDemoWorkspace" })

export const DemoParams = Schema.Struct({ demoId: Id })

/** Creates a workspace as the holder of `token` and fills it with the demo content. */
export const seedDemo = (context: RequestContext, token: string, email: string, name: string) =>
  Effect.gen(function* () {
    const registry = yield* OperationRegistry
    const call = caller(registry, context.origin)
    const workspace = yield* call("hub", "createHubWorkspace", { body: { name } }, token)
    const workspaceId: string = workspace.id
    const apiKey = yield* mintDemoKey(call, workspaceId, token)
    const contents = yield* seedWorkspaceContent(call, { workspaceId, apiKey, writers: [{ email, token }] }, registry)
    return { workspaceId, apiKey, contents }
  })

/** An access token for the calling user's own session, for the seed's calls on their behalf. */
export const tokenOf = (context: RequestContext) =>
  Effect.gen(function* () {
    const user = yield* userOf(context)
    const issued = yield* (yield* AccessTokens).issue({
      userId: user.userId,
      email: user.email,
      name: user.name,
      sessionId: user.sessionId
    })
    return { user, token: issued.token }
  })

/** The caller's own demo (others' answer 404). */
export const ownDemo = (context: RequestContext, demoId: string) =>
  Effect.gen(function* () {
    const user = yield* userOf(context)
    const demo = yield* demoById(demoId)
    if (demo.ownerId !== user.userId) return yield* reject("not_found", "No such demo workspace")
    return demo
  })

/** Deletes the demo's workspace (already gone: nothing to do). */
export const deleteWorkspaceOf = (demo: DemoWorkspace) =>
  Effect.gen(function* () {
    yield* Workspace.client(yield* ActorSystem)(demo.workspaceId)
      .delete({ by: demo.ownerId })
      .pipe(Effect.catchTag(["WorkspaceNotFound", "WorkspaceSuspended", "RoleRequired"], () => Effect.void))
  })

export const removeDemo = (demo: DemoWorkspace) =>
  Effect.gen(function* () {
    yield* deleteWorkspaceOf(demo)
    yield* markDemoDeleted(demo.id)
  })

export const expiryFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString()

export const createDemoFor = (
  context: RequestContext,
  token: string,
  owner: { userId: string; email: string },
  name: string,
  origin: "user" | "demo_user"
) =>
  Effect.gen(function* () {
    const seeded = yield* seedDemo(context, token, owner.email, name)
    const demo = yield* recordDemo({
      id: randomUUID(),
      workspaceId: seeded.workspaceId,
      ownerId: owner.userId,
      name,
      origin,
      contents: seeded.contents,
      expiresAt: expiryFromNow(ttlDays())
    })

    return { ...demo, apiKey: seeded.apiKey }
  })
