/** Request and response examples of the operations in ResourceViews.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { planningIds } from "./Sprints.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"

export const exampleView = {
  id: planningIds.view,
  workspaceId: ids.workspace,
  shortId: "V-3",
  scopeType: "list",
  scopeId: ids.list,
  spaceId: ids.space,
  name: "Sprint board",
  type: "board",
  columns: [
    { field: "name", width: 320 },
    { field: "assignees", width: null },
    { field: `cf:${ids.field}`, width: 120 }
  ],
  groupBy: { field: "status", direction: "asc", collapsed: ["closed"], showEmpty: true },
  sortBy: [
    { field: "priority", direction: "asc" },
    { field: "dueDate", direction: "asc" }
  ],
  filters: { includeClosed: false },
  settings: {},
  isPrivate: false,
  position: 1,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

const ws = { workspaceId: ids.workspace }

export const resourceViewsExamples = examplesById({
  createView: [
    {
      name: "board",
      request: {
        params: ws,
        body: {
          scopeType: "list",
          scopeId: ids.list,
          name: "Sprint board",
          type: "board",
          groupBy: { field: "status", collapsed: ["closed"], showEmpty: true },
          sortBy: [{ field: "priority", direction: "asc" }],
          filters: { includeClosed: false }
        }
      },
      response: { status: 201, body: exampleView }
    }
  ],
  listViews: [
    {
      name: "of a list",
      request: { params: ws, query: { scopeType: "list", scopeId: ids.list } },
      response: { status: 200, body: { items: [exampleView] } }
    }
  ],
  updateView: [
    {
      name: "reorder columns",
      request: {
        params: { ...ws, viewId: planningIds.view },
        body: { columns: [{ field: "name", width: 320 }, { field: "assignees" }, { field: `cf:${ids.field}`, width: 120 }] }
      },
      response: { status: 200, body: exampleView }
    }
  ],
  deleteView: [{ name: "delete", request: { params: { ...ws, viewId: planningIds.view } }, response: { status: 204 } }]
})
