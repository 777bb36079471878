/** Request and response examples of the operations in ViewsLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleLiteTask } from "./LiteShared.ts"
import { exampleIds as ids } from "./WorkAccess.ts"
import { planningIds } from "./Sprints.ts"

const ws = ids.workspace

const exampleLiteView = {
  id: planningIds.view,
  shortId: "V-3",
  name: "Sprint board",
  type: "board",
  scope: "list Engineering / Backlog",
  isPrivate: false,
  columns: [
    { name: "Name", width: 320 },
    { name: "Assignees", width: null },
    { name: "Story points", width: 120 }
  ],
  groupBy: { column: "Status", direction: "asc", collapsed: ["closed"], showEmpty: true },
  sortBy: [{ column: "Priority", direction: "asc" }],
  filters: { includeClosed: false, assignees: ["bob@example.com"] },
  settings: {}
}

const refOnly = { workspaceId: ws, list: "Backlog" }

export const viewsLiteExamples = examplesById({
  createViewLite: [
    {
      name: "board of a list",
      request: {
        body: {
          workspaceId: ws,
          space: "Engineering",
          list: "Backlog",
          name: "Sprint board",
          type: "board",
          columns: ["Name", "Assignees", "Story points"],
          groupBy: "Status",
          sortBy: [{ column: "Priority" }],
          filters: { includeClosed: false, assignees: ["bob@example.com"] }
        }
      },
      response: { status: 201, body: exampleLiteView }
    }
  ],
  listViewsLite: [{ name: "of a list", request: { query: refOnly }, response: { status: 200, body: { items: [exampleLiteView] } } }],
  getViewLite: [
    {
      name: "by short id",
      request: { params: { viewRef: "V-3" }, query: { workspaceId: ws } },
      response: { status: 200, body: exampleLiteView }
    }
  ],
  updateViewLite: [
    {
      name: "rename",
      request: { params: { viewRef: "Sprint board" }, body: { ...refOnly, newName: "Board", filters: { includeClosed: false } } },
      response: { status: 200, body: { ...exampleLiteView, name: "Board" } }
    }
  ],
  deleteViewLite: [{ name: "delete", request: { params: { viewRef: "V-3" }, query: { workspaceId: ws } }, response: { status: 204 } }],
  setViewColumnsLite: [
    {
      name: "columns",
      request: {
        params: { viewRef: "Sprint board" },
        body: { ...refOnly, columns: ["Name", "Assignees", "Story points"], widths: { Name: 320, "Story points": 120 } }
      },
      response: { status: 200, body: exampleLiteView }
    }
  ],
  moveViewColumnLite: [
    {
      name: "after",
      request: { params: { viewRef: "V-3" }, body: { workspaceId: ws, column: "Due date", after: "Name" } },
      response: { status: 200, body: exampleLiteView }
    }
  ],
  setViewGroupingLite: [
    {
      name: "by status",
      request: { params: { viewRef: "V-3" }, body: { workspaceId: ws, groupBy: "Status", collapsed: ["closed"], showEmpty: true } },
      response: { status: 200, body: exampleLiteView }
    }
  ],
  setViewSortLite: [
    {
      name: "priority then due",
      request: {
        params: { viewRef: "V-3" },
        body: { workspaceId: ws, sortBy: [{ column: "Priority" }, { column: "Due date", direction: "asc" }] }
      },
      response: { status: 200, body: exampleLiteView }
    }
  ],
  duplicateViewLite: [
    {
      name: "to a space",
      request: { params: { viewRef: "V-3" }, body: { workspaceId: ws, to: { space: "Engineering" } } },
      response: {
        status: 201,
        body: {
          view: { ...exampleLiteView, shortId: "V-4", name: "Sprint board (copy)", scope: "space Engineering" },
          droppedColumns: ["Story points"]
        }
      }
    }
  ],
  getViewTasksLite: [
    {
      name: "board",
      request: { params: { viewRef: "V-3" }, query: { workspaceId: ws } },
      response: {
        status: 200,
        body: {
          view: "Sprint board",
          total: 1,
          truncated: false,
          tasks: [exampleLiteTask],
          groups: [{ key: "in progress", label: "in progress", count: 1, collapsed: false, tasks: [exampleLiteTask] }]
        }
      }
    }
  ]
})
