/**
 * hub tag "User Resource" (7): the caller's hub profile ("me": identity,
 * profile details, speaker aliases, default workspace, workspaces) and the
 * profiles of the people in a workspace the caller belongs to, including
 * mapping meeting attendees' e-mails to workspace users.
 */
import { Effect, Schema } from "effect"
import { Account } from "../../../actors/identity/Account.ts"
import { usersByEmails, usersByIds, workspaceById, workspacesOf } from "../../../actors/identity/IdentityQueries.ts"
import { Role } from "../../../actors/identity/Workspace.ts"
import { Email, Id, Name, normalizeEmail, Timestamp } from "../../../actors/Fields.ts"
import { HubProfile, HubUserProfile, ProfilePatch, SpeakerAliases } from "../../../actors/hub/people/HubUserProfile.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { viewerOf } from "./Viewer.ts"
import { userResourceExamples } from "./UserResource.examples.ts"

const { updatedAt: _updatedAt, ...profileFields } = HubProfile.fields
const HubUser = Schema.Struct({ id: Id, email: Email, name: Schema.String, role: Role, ...profileFields }).annotate({
  identifier: "HubWorkspaceUser"
})
const Me = Schema.Struct({
  id: Id,
  email: Email,
  name: Schema.String,
  ...profileFields,
  workspaces: Schema.Array(Schema.Struct({ id: Id, name: Schema.String, role: Role })),
  updatedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "HubMe" })

const profileOf = (userId: string) => Effect.flatMap(ActorSystem, (system) => HubUserProfile.client(system)(userId).view({}))

/** The caller's "me": workspaces limited to the key's own for an API key. */
const meOf = (context: RequestContext) =>
  Effect.gen(function* () {
    const viewer = yield* viewerOf(context)
    const principal = yield* principalOf(context)
    const { updatedAt, ...profile } = yield* profileOf(viewer.userId)
    const workspaces = (yield* Effect.orDie(workspacesOf(viewer.userId)))
      .filter((ws) => principal.kind !== "apiKey" || ws.id === principal.workspaceId)
      .map((ws) => ({ id: ws.id, name: ws.name, role: ws.members.find((m) => m.userId === viewer.userId)!.role }))
    // The name as the account holds it now (a session token carries the name it was issued with).
    const account = (yield* Effect.orDie(usersByIds([viewer.userId]))).get(viewer.userId)
    return { id: viewer.userId, email: viewer.email, name: account?.name ?? viewer.name, ...profile, workspaces, updatedAt }
  })

/** Workspace members as hub users (those of `only`, when given), by name. */
const membersOf = (context: RequestContext, workspaceId: string, only?: ReadonlySet<string>) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const ws = yield* Effect.orDie(workspaceById(workspaceId))
    const members = (ws?.members ?? []).filter((m) => only === undefined || only.has(m.userId))
    const users = yield* Effect.orDie(usersByIds(members.map((m) => m.userId)))
    const system = yield* ActorSystem
    const rows = yield* Effect.forEach(
      members.filter((m) => users.has(m.userId)),
      (member) =>
        Effect.map(HubUserProfile.client(system)(member.userId).view({}), ({ updatedAt: _, ...profile }) => {
          const user = users.get(member.userId)!
          return { id: user.id, email: user.email, name: user.name, role: member.role, ...profile }
        }),
      { concurrency: 8 }
    )
    return rows.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
  })

const { operation } = tagGroup("hub", "User Resource", userResourceExamples)

export const userResourceOperations = [
  operation({
    operationId: "getHubMe",
    method: "GET",
    path: "/v1/users/me",
    summary: "Your hub profile: who you are, your profile details, speaker aliases, default workspace and workspaces",
    auth: "both",
    scopes: ["users:read"],
    responses: { 200: { description: "You", schema: Me } },
    handler: (_, context) => meOf(context)
  }),
  operation({
    operationId: "updateHubMe",
    method: "PATCH",
    path: "/v1/users/me",
    summary: "Change your name or profile details (fields left out are unchanged; null clears one)",
    auth: "both",
    scopes: ["users:write"],
    body: Schema.Struct({ name: Schema.optionalKey(Name()), ...ProfilePatch.fields }),
    responses: { 200: { description: "You", schema: Me } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        const system = yield* ActorSystem
        const { name, ...patch } = body
        if (name !== undefined) yield* Account.client(system)(normalizeEmail(viewer.email)).rename({ name })
        yield* HubUserProfile.client(system)(viewer.userId).update(patch)
        return yield* meOf(context)
      })
  }),
  operation({
    operationId: "setMySpeakerAliases",
    method: "PUT",
    path: "/v1/users/me/speaker-aliases",
    summary: "The names transcripts may give you as a speaker, so your talk time and action items are attributed to you",
    auth: "both",
    scopes: ["users:write"],
    body: Schema.Struct({ aliases: SpeakerAliases }),
    responses: { 200: { description: "You", schema: Me } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        yield* HubUserProfile.client(yield* ActorSystem)(viewer.userId).setSpeakerAliases({ aliases: body.aliases })
        return yield* meOf(context)
      })
  }),
  operation({
    operationId: "setMyDefaultWorkspace",
    method: "PUT",
    path: "/v1/users/me/default-workspace",
    summary: "The workspace your new recordings go to by default (null: none)",
    auth: "both",
    scopes: ["users:write"],
    body: Schema.Struct({ workspaceId: Schema.NullOr(Id) }),
    responses: { 200: { description: "You", schema: Me } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        if (body.workspaceId !== null) yield* workspaceRole(context, body.workspaceId, "member")
        yield* HubUserProfile.client(yield* ActorSystem)(viewer.userId).setDefaultWorkspace({ workspaceId: body.workspaceId })
        return yield* meOf(context)
      })
  }),
  operation({
    operationId: "listHubWorkspaceUsers",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/users",
    summary: "The workspace's people with their role and hub profile, by name",
    auth: "both",
    scopes: ["users:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Users", schema: Schema.Struct({ items: Schema.Array(HubUser) }) } },
    handler: ({ params }, context) => Effect.map(membersOf(context, params.workspaceId), (items) => ({ items }))
  }),
  operation({
    operationId: "getHubWorkspaceUser",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/users/{userId}",
    summary: "One person of the workspace with their role and hub profile",
    auth: "both",
    scopes: ["users:read"],
    params: Schema.Struct({ workspaceId: Id, userId: Id }),
    responses: { 200: { description: "The user", schema: HubUser } },
    handler: ({ params }, context) =>
      Effect.flatMap(membersOf(context, params.workspaceId, new Set([params.userId])), ([user]) =>
        user === undefined ? Effect.fail(reject("not_found", "No such user in this workspace")) : Effect.succeed(user)
      )
  }),
  operation({
    operationId: "matchHubWorkspaceUsers",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/users/match",
    summary: "Which of these e-mail addresses (e.g. a meeting's attendees) belong to people of the workspace",
    auth: "both",
    scopes: ["users:read"],
    params: WorkspaceParams,
    body: Schema.Struct({ emails: Schema.Array(Email).check(Schema.isMinLength(1), Schema.isMaxLength(500)) }),
    responses: {
      200: {
        description: "Each address with the user it belongs to (null: not in the workspace)",
        schema: Schema.Struct({ items: Schema.Array(Schema.Struct({ email: Email, user: Schema.NullOr(HubUser) })) })
      }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const emails = [...new Set(body.emails.map(normalizeEmail))]
        const users = yield* Effect.orDie(usersByEmails(emails))
        const members = yield* membersOf(context, params.workspaceId, new Set([...users.values()].map((user) => user.id)))
        const byEmail = new Map(members.map((member) => [member.email, member] as const))
        return { items: emails.map((email) => ({ email, user: byEmail.get(email) ?? null })) }
      })
  })
]
