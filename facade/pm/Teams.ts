/** pm tag "Teams" (5): team CRUD and member management within a workspace (writes: workspace admins). */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { NewTeam, PmTeam, Team, TeamMembersChange, TeamPatch, teamMemberRows, teamRows, teamWorkspace } from "../../actors/pm/Team.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { teamsExamples } from "./Teams.examples.ts"

const TeamParams = Schema.Struct({ teamId: Id })
const WorkspaceParams = Schema.Struct({ workspaceId: Id })

/** Teams of a workspace as clients see them, members named. */
const teamsOf = (workspaceId: string, teamIds?: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const rows = yield* teamRows(workspaceId, teamIds).pipe(Effect.orDie)
    if (rows.length === 0) return []
    const members = yield* teamMemberRows(rows.map((r) => r.id)).pipe(Effect.orDie)
    const users = yield* usersByIds([...new Set(members.map((m) => m.userId))]).pipe(Effect.orDie)
    return rows.map((row): typeof Team.Type => {
      const own = members
        .filter((m) => m.teamId === row.id)
        .map((m) => ({
          userId: m.userId,
          name: users.get(m.userId)?.name ?? "",
          email: users.get(m.userId)?.email ?? "",
          role: m.role,
          addedAt: m.addedAt
        }))
      return { ...row, members: own, memberCount: own.length }
    })
  })

const oneTeam = (workspaceId: string, teamId: string) =>
  Effect.flatMap(teamsOf(workspaceId, [teamId]), (teams) =>
    teams[0] ? Effect.succeed(teams[0]) : Effect.fail(reject("not_found", "No such team"))
  )

/** The team's workspace, when the caller may manage it (404 when they may not see it, 403 below admin). */
const manageable = (context: RequestContext, teamId: string) =>
  Effect.gen(function* () {
    const workspaceId = yield* teamWorkspace(teamId).pipe(Effect.orDie)
    if (workspaceId === undefined) return yield* reject("not_found", "No such team")
    yield* workspaceRole(context, workspaceId).pipe(Effect.catchTag("Rejection", () => Effect.fail(reject("not_found", "No such team"))))
    yield* workspaceRole(context, workspaceId, "admin")
    return workspaceId
  })

const { operation } = tagGroup("pm", "Teams", teamsExamples)

export const teamsOperations = [
  operation({
    operationId: "listTeams",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/teams",
    summary: "List a workspace's teams with their members",
    auth: "both",
    scopes: ["workspaces:read"],
    params: WorkspaceParams,
    query: Schema.Struct({
      q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100)).annotate({ description: "Part of the team name" })),
      memberId: Schema.optionalKey(Id.annotate({ description: "Only teams this user belongs to" }))
    }),
    responses: { 200: { description: "Teams, by name", schema: Schema.Struct({ items: Schema.Array(Team) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const q = query.q?.trim().toLowerCase()
        const items = (yield* teamsOf(params.workspaceId)).filter(
          (team) =>
            (q === undefined || team.name.toLowerCase().includes(q)) &&
            (query.memberId === undefined || team.members.some((m) => m.userId === query.memberId))
        )
        return { items }
      })
  }),
  operation({
    operationId: "createTeam",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/teams",
    summary: "Create a team (admin)",
    description: "Members must belong to the workspace. Team names are unique per workspace (case-insensitive).",
    auth: "both",
    scopes: ["workspaces:write"],
    params: WorkspaceParams,
    body: NewTeam,
    responses: { 201: { description: "Created", schema: Team }, 409: { description: "A team with that name exists" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "admin")
        const principal = yield* principalOf(context)
        const { id } = yield* send(PmTeam, crypto.randomUUID(), "create", principal.userId, { workspaceId: params.workspaceId, ...body })
        return yield* oneTeam(params.workspaceId, id)
      })
  }),
  operation({
    operationId: "updateTeam",
    method: "PATCH",
    path: "/v1/teams/{teamId}",
    summary: "Rename a team or change its description or color (admin)",
    auth: "both",
    scopes: ["workspaces:write"],
    params: TeamParams,
    body: TeamPatch,
    responses: { 200: { description: "Updated", schema: Team }, 409: { description: "A team with that name exists" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const workspaceId = yield* manageable(context, params.teamId)
        const principal = yield* principalOf(context)
        yield* send(PmTeam, params.teamId, "update", principal.userId, body)
        return yield* oneTeam(workspaceId, params.teamId)
      })
  }),
  operation({
    operationId: "deleteTeam",
    method: "DELETE",
    path: "/v1/teams/{teamId}",
    summary: "Delete a team (admin); its members stay in the workspace",
    auth: "both",
    scopes: ["workspaces:write"],
    params: TeamParams,
    responses: { 204: { description: "Deleted" }, 404: { description: "No such team" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* manageable(context, params.teamId)
        const principal = yield* principalOf(context)
        yield* send(PmTeam, params.teamId, "delete", principal.userId, {})
      })
  }),
  operation({
    operationId: "updateTeamMembers",
    method: "POST",
    path: "/v1/teams/{teamId}/members",
    summary: "Add, re-role and remove team members in one go (admin)",
    description:
      "`add` adds members or changes the role of existing ones; `remove` takes user ids. New members must belong to the workspace.",
    auth: "both",
    scopes: ["workspaces:write"],
    params: TeamParams,
    body: TeamMembersChange,
    responses: { 200: { description: "The team", schema: Team } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const workspaceId = yield* manageable(context, params.teamId)
        const principal = yield* principalOf(context)
        yield* send(PmTeam, params.teamId, "updateMembers", principal.userId, body)
        return yield* oneTeam(workspaceId, params.teamId)
      })
  })
]
