/**
 * feedback tag "Bug Reports (Lite)", triage and discussion (5 of 10): bug
 * status level and severity by name, assignee by e-mail, comments by short
 * id — the team's work on a report.
 */
import { Effect, Schema } from "effect"
import { bugComments } from "../../actors/feedback/DeskQueries.ts"
import { deskSend } from "../../actors/feedback/FeedbackDesk.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { Workspace } from "../../actors/identity/Workspace.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { operation } from "../Operation.ts"
import { commentOnBug, CommentBody, visibleComments } from "./BugComments.ts"
import { orDieSql } from "./DeskAccess.ts"
import { ex } from "./deskExamples.ts"
import { Id, LiteEmail, NameRef, userByEmail, Where } from "./LiteRefs.ts"

import { LiteBugReport, RefParams, bugByRef, exampleLite, liteOne, mayEdit, setLevel, teamOnly } from "./LiteBugViews.ts"

const service = "feedback"
const tag = "Bug Reports (Lite)"
const read = ["feedback:read"]
const write = ["feedback:write"]

const refExample = { bugRef: "B-12" }

export const bugReportsLiteTriageOperations = [
  operation({
    service,
    tag,
    operationId: "setBugReportStatusLite",
    method: "POST",
    path: "/v1/lite/bug-reports/{bugRef}/status",
    summary: "Move a bug report to a bug status level by name (team); null clears",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, name: Schema.NullOr(NameRef) }),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    examples: [
      {
        name: "confirm",
        request: { params: refExample, body: { workspaceId: ex.workspaceId, name: "Confirmed" } },
        response: { status: 200, body: { ...exampleLite, status: "Confirmed" } }
      }
    ],
    handler: setLevel("bugStatusLevel", "bug_status", "body.name")
  }),
  operation({
    service,
    tag,
    operationId: "setBugReportSeverityLite",
    method: "POST",
    path: "/v1/lite/bug-reports/{bugRef}/severity",
    summary: "Set a bug report's severity level by name (team); null clears",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, name: Schema.NullOr(NameRef) }),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    examples: [
      {
        name: "severity",
        request: { params: refExample, body: { workspaceId: ex.workspaceId, name: "Critical" } },
        response: { status: 200, body: { ...exampleLite, severity: "Critical" } }
      }
    ],
    handler: setLevel("severityLevel", "severity", "body.name")
  }),
  operation({
    service,
    tag,
    operationId: "assignBugReportLite",
    method: "POST",
    path: "/v1/lite/bug-reports/{bugRef}/assignee",
    summary: "Assign a bug report to a workspace member by e-mail (team); null unassigns",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, email: Schema.NullOr(LiteEmail) }),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    examples: [
      {
        name: "assign",
        request: { params: refExample, body: { workspaceId: ex.workspaceId, email: "bob@example.com" } },
        response: { status: 200, body: { ...exampleLite, assigneeEmail: "bob@example.com" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugByRef(context, body, params.bugRef, "body.board")
        yield* teamOnly(caller)
        let assigneeId: string | null = null
        if (body.email !== null) {
          const user = yield* userByEmail(body.email, "body.email")
          const role = yield* (yield* ActorSystem)
            .ask(Workspace, caller.view.board.workspaceId, "roleOf", { userId: user.id })
            .pipe(Effect.option)
          if (role._tag === "None")
            return yield* reject("invalid", `${body.email} is not a member of this workspace`, [
              { path: "body.email", message: "not a member" }
            ])
          assigneeId = user.id
        }
        return yield* liteOne(
          caller,
          yield* deskSend(caller.view.board.id, "setBugField", caller.userId, { bugReportId: bug.id, field: "assignee", value: assigneeId })
        )
      })
  }),
  operation({
    service,
    tag,
    operationId: "commentOnBugReportLite",
    method: "POST",
    path: "/v1/lite/bug-reports/{bugRef}/comments",
    summary: "Comment on a bug report by short id; the team may add internal notes",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, body: CommentBody, internal: Schema.optionalKey(Schema.Boolean) }),
    responses: {
      201: {
        description: "Posted",
        schema: Schema.Struct({
          id: Id,
          shortId: Schema.String,
          body: Schema.String,
          internal: Schema.Boolean,
          moderation: Schema.String,
          createdAt: Schema.String
        })
      }
    },
    examples: [
      {
        name: "comment",
        request: { params: refExample, body: { workspaceId: ex.workspaceId, body: "Reproduced on Safari 18.1" } },
        response: {
          status: 201,
          body: {
            id: ex.bugCommentId,
            shortId: "B-12",
            body: "Reproduced on Safari 18.1",
            internal: false,
            moderation: "approved",
            createdAt: ex.at
          }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { bug } = yield* bugByRef(context, body, params.bugRef, "body.board")
        const comment = yield* commentOnBug(context, bug.id, body.body, body.internal ?? false)
        return {
          id: comment.id,
          shortId: bug.shortId,
          body: comment.body,
          internal: comment.internal,
          moderation: comment.moderation,
          createdAt: comment.createdAt
        }
      })
  }),
  operation({
    service,
    tag,
    operationId: "listBugReportCommentsLite",
    method: "GET",
    path: "/v1/lite/bug-reports/{bugRef}/comments",
    summary: "The comments on a bug report, oldest first, authors by name and e-mail",
    auth: "both",
    scopes: read,
    params: RefParams,
    query: Schema.Struct(Where),
    responses: {
      200: {
        description: "Comments",
        schema: Schema.Struct({
          items: Schema.Array(
            Schema.Struct({
              id: Id,
              authorName: Schema.NullOr(Schema.String),
              authorEmail: Schema.NullOr(Schema.String),
              body: Schema.String,
              internal: Schema.Boolean,
              createdAt: Schema.String
            })
          )
        })
      }
    },
    examples: [
      {
        name: "comments",
        request: { params: refExample, query: { workspaceId: ex.workspaceId } },
        response: {
          status: 200,
          body: {
            items: [
              {
                id: ex.bugCommentId,
                authorName: "Bob",
                authorEmail: "bob@example.com",
                body: "Reproduced",
                internal: false,
                createdAt: ex.at
              }
            ]
          }
        }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugByRef(context, query, params.bugRef, "query.board")
        const comments = visibleComments(caller, yield* orDieSql(bugComments(bug.id)))
        const users = yield* orDieSql(usersByIds(comments.map((c) => c.authorId)))
        return {
          items: comments.map((c) => ({
            id: c.id,
            authorName: users.get(c.authorId)?.name ?? null,
            authorEmail: caller.team ? (users.get(c.authorId)?.email ?? null) : null,
            body: c.body,
            internal: c.internal,
            createdAt: c.createdAt
          }))
        }
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteBugReportLite",
    method: "DELETE",
    path: "/v1/lite/bug-reports/{bugRef}",
    summary: "Delete a bug report by short id (its reporter or the team)",
    auth: "both",
    scopes: write,
    params: RefParams,
    query: Schema.Struct(Where),
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: refExample, query: { workspaceId: ex.workspaceId } }, response: { status: 204 } }],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugByRef(context, query, params.bugRef, "query.board")
        yield* mayEdit(caller, bug)
        yield* deskSend(caller.view.board.id, "deleteBug", caller.userId, { bugReportId: bug.id })
      })
  })
]
