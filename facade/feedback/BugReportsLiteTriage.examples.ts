/** Request and response examples of the operations in BugReportsLiteTriage.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "./deskExamples.ts"
import { exampleLite } from "./LiteBugViews.ts"

const refExample = { bugRef: "B-12" }

export const bugReportsLiteTriageExamples = examplesById({
  setBugReportStatusLite: [
    {
      name: "confirm",
      request: { params: refExample, body: { workspaceId: ex.workspaceId, name: "Confirmed" } },
      response: { status: 200, body: { ...exampleLite, status: "Confirmed" } }
    }
  ],
  setBugReportSeverityLite: [
    {
      name: "severity",
      request: { params: refExample, body: { workspaceId: ex.workspaceId, name: "Critical" } },
      response: { status: 200, body: { ...exampleLite, severity: "Critical" } }
    }
  ],
  assignBugReportLite: [
    {
      name: "assign",
      request: { params: refExample, body: { workspaceId: ex.workspaceId, email: "bob@example.com" } },
      response: { status: 200, body: { ...exampleLite, assigneeEmail: "bob@example.com" } }
    }
  ],
  commentOnBugReportLite: [
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
  listBugReportCommentsLite: [
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
  deleteBugReportLite: [
    { name: "delete", request: { params: refExample, query: { workspaceId: ex.workspaceId } }, response: { status: 204 } }
  ]
})
