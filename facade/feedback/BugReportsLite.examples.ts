/** Request and response examples of the operations in BugReportsLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "./deskExamples.ts"
import { exampleLite } from "./LiteBugViews.ts"

const refExample = { bugRef: "B-12" }

export const bugReportsLiteExamples = examplesById({
  createBugReportLite: [
    {
      name: "report",
      request: {
        body: {
          workspaceId: ex.workspaceId,
          board: ex.slug,
          title: "Export button does nothing on Safari",
          stepsToReproduce: "1. Open a board\n2. Click Export",
          expected: "A CSV downloads",
          actual: "Nothing happens",
          environment: { browser: "Safari 18" }
        }
      },
      response: { status: 201, body: exampleLite }
    }
  ],
  getBugReportLite: [
    { name: "get", request: { params: refExample, query: { workspaceId: ex.workspaceId } }, response: { status: 200, body: exampleLite } }
  ],
  updateBugReportLite: [
    {
      name: "clarify",
      request: { params: refExample, body: { workspaceId: ex.workspaceId, actual: "Nothing happens; a CSP error is logged" } },
      response: { status: 200, body: { ...exampleLite, actual: "Nothing happens; a CSP error is logged" } }
    }
  ],
  searchBugReportsLite: [
    {
      name: "critical",
      request: { query: { workspaceId: ex.workspaceId, board: ex.slug, severity: "High" } },
      response: { status: 200, body: { items: [exampleLite], nextCursor: null } }
    }
  ]
})
