/**
 * wiki tag "Users" (1): the members of a workspace as the wiki needs them —
 * to @-mention someone, pick an author filter, or grant a permission —
 * searchable by name or e-mail.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { Role } from "../../actors/identity/Workspace.ts"
import { Limit } from "../../actors/wiki/DiscoveryViews.ts"
import { readerOf } from "../../actors/wiki/VisiblePages.ts"
import { callerOf } from "../../actors/wiki/WikiAccess.ts"
import { workspaceMembers } from "../../actors/wiki/WikiQueries.ts"
import { principalOf } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { usersExamples } from "./Users.examples.ts"

const WikiUser = Schema.Struct({
  userId: Schema.String,
  name: Schema.String,
  email: Schema.String,
  role: Role.annotate({ description: "Workspace role" })
}).annotate({ identifier: "WikiUser" })

const rank: Record<string, number> = { owner: 0, admin: 1, member: 2, viewer: 3 }

const { operation } = tagGroup("wiki", "Users", usersExamples)

export const usersOperations = [
  operation({
    operationId: "listWikiUsers",
    method: "GET",
    path: "/v1/users",
    summary: "Workspace members, searchable by name or e-mail (for mentions and pickers)",
    description:
      "Without `q`: every member, by name. With `q`: members whose name or e-mail starts with it (any word of the name), " +
      "names starting with it first. Members of the workspace only; a non-member gets 404.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({
      workspaceId: Id,
      q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100)).annotate({ description: "Name or e-mail prefix" })),
      limit: Schema.optionalKey(Limit(100))
    }),
    responses: {
      200: { description: "Members", schema: Schema.Struct({ items: Schema.Array(WikiUser) }).annotate({ identifier: "WikiUsers" }) }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const caller = callerOf(yield* principalOf(context))
        yield* readerOf(caller, query.workspaceId)
        const members = yield* workspaceMembers(query.workspaceId).pipe(Effect.orDie)
        const users = yield* usersByIds([...members.keys()]).pipe(Effect.orDie)
        const needle = (query.q ?? "").trim().toLowerCase()
        const score = (name: string, email: string) => {
          if (needle === "") return 0
          const lowerName = name.toLowerCase()
          if (lowerName.startsWith(needle)) return 0
          if (lowerName.split(/\s+/).some((word) => word.startsWith(needle))) return 1
          if (email.toLowerCase().startsWith(needle)) return 2
          return undefined
        }
        const items = [...members].flatMap(([userId, role]) => {
          const user = users.get(userId)
          if (user === undefined) return []
          const s = score(user.name, user.email)
          return s === undefined ? [] : [{ userId, name: user.name, email: user.email, role, s }]
        })
        items.sort((a, b) => a.s - b.s || a.name.localeCompare(b.name) || rank[a.role]! - rank[b.role]! || a.userId.localeCompare(b.userId))
        return { items: items.slice(0, query.limit ?? 50).map(({ s: _s, ...user }) => user) }
      })
  })
]
