/**
 * The operations that a space, a folder and a list answer alike: get,
 * delete, archive and restore, the tasks below (spaces and folders) and
 * their task counts' schema. Declared once here and stamped out in each
 * tag's file (Spaces.ts, Folders.ts, Lists.ts) under the ids, summaries and
 * examples its catalog has; what differs by level (the read, and which
 * actor command deletes or archives) comes with the level.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { findTasks } from "../../actors/pm/TaskReads.ts"
import { type Folder, type List, Page, type Space, Task } from "../../actors/pm/WorkRecords.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import type { ActorSystem } from "../../runtime/ActorSystem.ts"
import type { Rejection } from "../../runtime/Rejection.ts"
import type { DomainError } from "../HttpError.ts"
import { type Example, tagGroup } from "../Operation.ts"
import type { ScopeKind } from "./ScopeProperties.ts"
import { filterOf, pageFrom, TaskQuery } from "./TaskFilters.ts"
import { type CallerAt, onScope, orDieSql } from "./WorkAccess.ts"

type Refused = Rejection | ActorError | DomainError

/** Task counts by status type (the stats operations). */
export const Counts = Schema.Struct({
  total: Schema.Number,
  open: Schema.Number,
  active: Schema.Number,
  done: Schema.Number,
  closed: Schema.Number,
  overdue: Schema.Number
})

/** The levels' records: one schema per level, so a level's handlers answer its own. */
type LevelRecord = typeof Space | typeof Folder | typeof List

export interface Level<R> {
  readonly scope: ScopeKind
  readonly schema: LevelRecord
  /** The tag's examples by operation id. */
  readonly examples: Readonly<Record<string, ReadonlyArray<Example>>>
  readonly summaries: { readonly delete: string; readonly archive: string }
  readonly read: (id: string) => Effect.Effect<LevelRecord["Type"], Refused, R>
  readonly remove: (caller: CallerAt, id: string) => Effect.Effect<void, Refused, ActorSystem>
  readonly archive: (caller: CallerAt, id: string, archived: boolean) => Effect.Effect<LevelRecord["Type"], Refused, ActorSystem>
}

export const levelOperations = <R>(level: Level<R>) => {
  const { scope, schema, examples } = level
  const { operation } = tagGroup("pm", scope.tag)
  const path = `/v1/${scope.type === "space" ? "spaces" : scope.type === "folder" ? "folders" : "lists"}/{${scope.param}}`
  const Params = Schema.Struct({ [scope.param]: Id } as Record<typeof scope.param, typeof Id>)
  const idOf = (params: Record<string, string>) => params[scope.param]!
  const examplesOf = (operationId: string) => ({ operationId, examples: examples[operationId] ?? [] })
  const archiving = (archived: boolean) =>
    operation({
      ...examplesOf(`${archived ? "archive" : "restore"}${scope.noun}`),
      method: "POST",
      path: `${path}/${archived ? "archive" : "restore"}`,
      summary: archived ? level.summaries.archive : `Restore an archived ${scope.type}`,
      auth: "both",
      scopes: ["tasks:write"],
      params: Params,
      responses: {
        200: { description: archived ? "Archived" : "Restored", schema },
        409: { description: archived ? "Already archived" : "Not archived" }
      },
      handler: ({ params }, context) =>
        Effect.flatMap(onScope(context, scope.type, idOf(params), "member"), (caller) => level.archive(caller, idOf(params), archived))
    })
  return {
    get: operation({
      ...examplesOf(`get${scope.noun}`),
      method: "GET",
      path,
      summary: `Get a ${scope.type}`,
      auth: "both",
      scopes: ["tasks:read"],
      params: Params,
      responses: { 200: { description: `The ${scope.type}`, schema } },
      handler: ({ params }, context) => Effect.andThen(onScope(context, scope.type, idOf(params)), level.read(idOf(params)))
    }),
    delete: operation({
      ...examplesOf(`delete${scope.noun}`),
      method: "DELETE",
      path,
      summary: level.summaries.delete,
      auth: "both",
      scopes: ["tasks:write"],
      params: Params,
      responses: { 204: { description: "Deleted" } },
      handler: ({ params }, context) =>
        Effect.flatMap(onScope(context, scope.type, idOf(params), "admin"), (caller) => level.remove(caller, idOf(params)))
    }),
    archive: archiving(true),
    restore: archiving(false),
    /** The tasks anywhere below the level, filtered and paged. */
    tasks: (summary: string) =>
      operation({
        ...examplesOf(`list${scope.noun}Tasks`),
        method: "GET",
        path: `${path}/tasks`,
        summary,
        auth: "both",
        scopes: ["tasks:read"],
        params: Params,
        query: TaskQuery,
        responses: { 200: { description: "A page of tasks", schema: Page(Task) } },
        handler: ({ params, query: q }, context) =>
          Effect.gen(function* () {
            const id = idOf(params)
            const caller = yield* onScope(context, scope.type, id)
            const within = scope.type === "space" ? { spaceIds: [id] } : scope.type === "folder" ? { folderIds: [id] } : { listIds: [id] }
            return yield* orDieSql(
              findTasks(filterOf(q, { workspaceId: caller.at.workspaceId, viewer: caller.viewer, ...within }), pageFrom(q))
            )
          })
      })
  }
}
