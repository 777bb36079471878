/** Request and response examples of the operations in BugReports.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex, exampleBugReport } from "./deskExamples.ts"

const bugParams = { bugReportId: ex.bugReportId }

export const bugReportsExamples = examplesById({
  createBugReport: [
    {
      name: "report",
      request: {
        params: { boardId: ex.boardId },
        body: {
          title: "Export button does nothing on Safari",
          stepsToReproduce: "1. Open a board\n2. Click Export",
          expected: "A CSV downloads",
          actual: "Nothing happens",
          environment: { browser: "Safari 18", os: "macOS 15" }
        }
      },
      response: { status: 201, body: exampleBugReport }
    }
  ],
  listBugReports: [
    {
      name: "list",
      request: { params: { boardId: ex.boardId } },
      response: { status: 200, body: { items: [exampleBugReport], total: 1 } }
    }
  ],
  getBugReport: [{ name: "get", request: { params: bugParams }, response: { status: 200, body: exampleBugReport } }],
  updateBugReport: [
    {
      name: "clarify",
      request: { params: bugParams, body: { actual: "Nothing happens; the console shows a CSP error" } },
      response: { status: 200, body: { ...exampleBugReport, actual: "Nothing happens; the console shows a CSP error" } }
    }
  ],
  deleteBugReport: [{ name: "delete", request: { params: bugParams }, response: { status: 204 } }],
  setBugReportStatusLevel: [
    {
      name: "triage",
      request: { params: bugParams, body: { bugStatusLevelId: ex.bugStatusLevelId } },
      response: { status: 200, body: { ...exampleBugReport, bugStatusLevelId: ex.bugStatusLevelId } }
    }
  ],
  setBugReportSeverityLevel: [
    {
      name: "severity",
      request: { params: bugParams, body: { severityLevelId: ex.severityLevelId } },
      response: { status: 200, body: { ...exampleBugReport, severityLevelId: ex.severityLevelId } }
    }
  ],
  assignBugReport: [
    {
      name: "assign",
      request: { params: bugParams, body: { assigneeId: ex.memberId } },
      response: { status: 200, body: { ...exampleBugReport, assigneeId: ex.memberId } }
    }
  ],
  listBugReportHistory: [
    {
      name: "history",
      request: { params: bugParams },
      response: {
        status: 200,
        body: {
          items: [{ id: ex.logEntryId, field: "severityLevel", from: null, to: ex.severityLevelId, changedBy: ex.userId, changedAt: ex.at }]
        }
      }
    }
  ]
})
