/**
 * Workspace statistics: task counts, per-space figures, workload, throughput and usage.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../../actors/Fields.ts"
import type { Role } from "../../../actors/identity/Workspace.ts"
import { rosterOf, seatUsage } from "../../../actors/pm/Roster.ts"
import { outlineOf } from "../../../actors/pm/WorkspaceOutline.ts"
import * as Stats from "../../../actors/pm/WorkspaceStats.ts"
import { tagGroup } from "../../Operation.ts"
import { inWorkspace, orDieSql } from "../WorkAccess.ts"
import { tag, service, read, Items, WorkspaceParams, admin, Counts, configOfWorkspace } from "./shared.ts"
import { statsExamples } from "./Stats.examples.ts"

const { operation } = tagGroup(service, tag, statsExamples)

export const workspaceStatsOperations = [
  operation({
    operationId: "getWorkspaceStats",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/stats",
    summary:
      "Workspace statistics: spaces, folders, lists, tasks by status type, overdue, unassigned, this week's due and finished tasks, members by role",
    description: 'Counts what the caller can see. "This week" follows the workspace\'s time zone and week start.',
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: {
      200: {
        description: "Statistics",
        schema: Schema.Struct({
          spaces: Schema.Number,
          folders: Schema.Number,
          lists: Schema.Number,
          tasks: Counts,
          unassigned: Schema.Number,
          thisWeek: Schema.Struct({ from: Timestamp, to: Timestamp, due: Schema.Number, completed: Schema.Number, created: Schema.Number }),
          members: Schema.Struct({
            owner: Schema.Number,
            admin: Schema.Number,
            member: Schema.Number,
            viewer: Schema.Number,
            guests: Schema.Number
          }),
          timeZone: Schema.String
        }).annotate({ identifier: "WorkspaceStats" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const config = yield* configOfWorkspace(params.workspaceId)
        const outline = yield* orDieSql(outlineOf(params.workspaceId, caller.viewer))
        const counts = yield* orDieSql(Stats.countsBySpace(params.workspaceId, caller.viewer))
        const week = Stats.currentWeek(new Date(), config.general.timeZone, config.general.weekStart)
        const window = yield* orDieSql(Stats.taskWindow(params.workspaceId, caller.viewer, week.start, week.end))
        const roster = yield* orDieSql(rosterOf(params.workspaceId))
        const byRole = (role: Role) => roster.filter((m) => m.role === role).length
        return {
          spaces: outline.spaces.length,
          folders: outline.folders.length,
          lists: outline.lists.length,
          tasks: Stats.sum(counts.values()),
          unassigned: window.unassigned,
          thisWeek: {
            from: week.start.toISOString(),
            to: week.end.toISOString(),
            due: window.dueInWindow,
            completed: window.completedInWindow,
            created: window.createdInWindow
          },
          members: {
            owner: byRole("owner"),
            admin: byRole("admin"),
            member: byRole("member"),
            viewer: byRole("viewer"),
            guests: roster.filter((m) => m.guest).length
          },
          timeZone: config.general.timeZone
        }
      })
  }),
  operation({
    operationId: "getWorkspaceSpaceStats",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/stats/spaces",
    summary: "Task counts by status type for each space the caller can see",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: {
      200: {
        description: "Per space",
        schema: Items(
          Schema.Struct({
            spaceId: Id,
            shortId: Schema.String,
            name: Schema.String,
            isPrivate: Schema.Boolean,
            folders: Schema.Number,
            lists: Schema.Number,
            tasks: Counts
          }).annotate({ identifier: "WorkspaceSpaceStats" })
        )
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const outline = yield* orDieSql(outlineOf(params.workspaceId, caller.viewer))
        const counts = yield* orDieSql(Stats.countsBySpace(params.workspaceId, caller.viewer))
        return {
          items: outline.spaces.map((s) => ({
            spaceId: s.id,
            shortId: s.shortId,
            name: s.name,
            isPrivate: s.isPrivate,
            folders: outline.folders.filter((f) => f.spaceId === s.id).length,
            lists: outline.lists.filter((l) => l.spaceId === s.id).length,
            tasks: Stats.sum([counts.get(s.id) ?? { total: 0, open: 0, active: 0, done: 0, closed: 0, overdue: 0 }])
          }))
        }
      })
  }),
  operation({
    operationId: "getWorkspaceWorkload",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/stats/workload",
    summary: "Each member's unfinished tasks: how many, overdue, due within the next days, estimated minutes; and the unassigned ones",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({
      days: Schema.optionalKey(
        Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 90 })).annotate({
          description: '"Due soon" window in days (default 7)'
        })
      )
    }),
    responses: {
      200: {
        description: "Workload",
        schema: Schema.Struct({
          items: Schema.Array(
            Schema.Struct({
              userId: Id,
              name: Schema.String,
              email: Schema.String,
              openTasks: Schema.Number,
              overdueTasks: Schema.Number,
              dueSoon: Schema.Number,
              estimateMinutes: Schema.Number
            })
          ),
          unassigned: Schema.Number,
          days: Schema.Number
        }).annotate({ identifier: "WorkspaceWorkload" })
      }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const days = q.days ?? 7
        const load = yield* orDieSql(Stats.workload(params.workspaceId, caller.viewer, new Date(Date.now() + days * 86_400_000)))
        const roster = yield* orDieSql(rosterOf(params.workspaceId))
        const window = yield* orDieSql(Stats.taskWindow(params.workspaceId, caller.viewer, new Date(), new Date()))
        const items = roster
          .map((m) => ({
            userId: m.userId,
            name: m.name,
            email: m.email,
            openTasks: load.get(m.userId)?.openTasks ?? 0,
            overdueTasks: load.get(m.userId)?.overdueTasks ?? 0,
            dueSoon: load.get(m.userId)?.dueSoon ?? 0,
            estimateMinutes: load.get(m.userId)?.estimateMinutes ?? 0
          }))
          .sort((a, b) => b.openTasks - a.openTasks || a.name.localeCompare(b.name))
        return { items, unassigned: window.unassigned, days }
      })
  }),
  operation({
    operationId: "getWorkspaceThroughput",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/stats/throughput",
    summary: "Tasks created and finished per day (in the workspace's time zone) over the last days",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({
      days: Schema.optionalKey(
        Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 90 })).annotate({
          description: "How many days, today included (default 14)"
        })
      )
    }),
    responses: {
      200: {
        description: "Per day, oldest first",
        schema: Schema.Struct({
          timeZone: Schema.String,
          from: Timestamp,
          days: Schema.Array(Schema.Struct({ date: Schema.String, created: Schema.Number, completed: Schema.Number }))
        }).annotate({ identifier: "WorkspaceThroughput" })
      }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const timeZone = (yield* configOfWorkspace(params.workspaceId)).general.timeZone
        return { timeZone, ...(yield* orDieSql(Stats.throughput(params.workspaceId, caller.viewer, q.days ?? 14, timeZone))) }
      })
  }),
  operation({
    operationId: "getWorkspaceUsage",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/usage",
    summary:
      "What the workspace uses: seats against the limit, storage (attachments, logo), counts of spaces, lists, tasks, comments and public links (admin)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: {
      200: {
        description: "Usage",
        schema: Schema.Struct({
          seats: Schema.Struct({
            limit: Schema.NullOr(Schema.Number),
            members: Schema.Number,
            guests: Schema.Number,
            pendingInvitations: Schema.Number,
            available: Schema.NullOr(Schema.Number)
          }),
          storage: Schema.Struct({
            attachments: Schema.Number,
            attachmentBytes: Schema.Number,
            logoBytes: Schema.Number,
            totalBytes: Schema.Number
          }),
          counts: Schema.Struct({
            spaces: Schema.Number,
            folders: Schema.Number,
            lists: Schema.Number,
            tasks: Schema.Number,
            comments: Schema.Number,
            activeShareLinks: Schema.Number
          })
        }).annotate({ identifier: "WorkspaceUsage" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* admin(context, params.workspaceId)
        const usage = yield* orDieSql(Stats.usageOf(params.workspaceId))
        const logoBytes = (yield* configOfWorkspace(params.workspaceId)).logo?.size ?? 0
        return {
          seats: yield* orDieSql(seatUsage(params.workspaceId)),
          storage: {
            attachments: usage.attachmentCount,
            attachmentBytes: usage.attachmentBytes,
            logoBytes,
            totalBytes: usage.attachmentBytes + logoBytes
          },
          counts: {
            spaces: usage.spaces,
            folders: usage.folders,
            lists: usage.lists,
            tasks: usage.tasks,
            comments: usage.comments,
            activeShareLinks: usage.activeShareLinks
          }
        }
      })
  })
]
