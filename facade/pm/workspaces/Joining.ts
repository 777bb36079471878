/**
 * Joining a workspace by e-mail domain.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { AssignableRole } from "../../../actors/identity/Workspace.ts"
import { requireSeats, rosterEntry, storedWorkspace } from "../../../actors/pm/Roster.ts"
import { domainOf, workspacesJoinableFrom } from "../../../actors/pm/WorkspaceConfig.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"
import { orDieSql } from "../WorkAccess.ts"
import { tag, service, Items, WorkspaceParams, identity, summaryOf, configOfWorkspace, Joined } from "./shared.ts"
import { joiningExamples } from "./Joining.examples.ts"

const Joinable = Schema.Struct({ id: Id, name: Schema.String, role: AssignableRole, memberCount: Schema.Number }).annotate({
  identifier: "JoinableWorkspace"
})

/** Workspaces the user may join by their e-mail domain (not already a member). */
const joinableFor = (userId: string, email: string) =>
  Effect.gen(function* () {
    const domain = domainOf(email)
    const workspaceIds = yield* orDieSql(workspacesJoinableFrom(domain))
    const result: Array<{ id: string; name: string; role: typeof AssignableRole.Type; memberCount: number }> = []
    for (const workspaceId of workspaceIds) {
      const workspace = yield* orDieSql(storedWorkspace(workspaceId))
      if (workspace === undefined || workspace.members.some((m) => m.userId === userId)) continue
      const config = yield* configOfWorkspace(workspaceId)
      result.push({ id: workspaceId, name: workspace.name, role: config.security.autoJoinRole, memberCount: workspace.members.length })
    }
    return result.sort((a, b) => a.name.localeCompare(b.name))
  })

const { operation } = tagGroup(service, tag, joiningExamples)

export const workspaceJoiningOperations = [
  operation({
    operationId: "listJoinableWorkspaces",
    method: "GET",
    path: "/v1/workspaces/joinable",
    summary: "Workspaces the caller may join by themselves because of their e-mail domain",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Joinable workspaces", schema: Items(Joinable) } },
    handler: (_r, context) =>
      Effect.flatMap(userOf(context), (user) => Effect.map(joinableFor(user.userId, user.email), (items) => ({ items })))
  }),
  operation({
    operationId: "joinWorkspaceByDomain",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/join",
    summary: "Join a workspace that lets in the caller's e-mail domain (with the policy's auto-join role; takes a seat)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    responses: {
      200: { description: "Joined", schema: Joined },
      404: { description: "No such workspace open to the caller's domain" },
      409: { description: "No free seat" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const joinable = (yield* joinableFor(user.userId, user.email)).find((w) => w.id === params.workspaceId)
        if (joinable === undefined) return yield* reject("not_found", "No such workspace open to your e-mail domain")
        if (joinable.role !== "viewer") yield* orDieSql(requireSeats(params.workspaceId, 1))
        yield* identity(params.workspaceId).admit({ userId: user.userId, role: joinable.role, via: "domain" })
        return {
          workspace: yield* summaryOf(context, params.workspaceId),
          member: yield* orDieSql(rosterEntry(params.workspaceId, user.userId))
        }
      })
  })
]
