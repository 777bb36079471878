/** Request and response examples of the operations in Filters.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"
import { planningIds } from "./Sprints.ts"

const exampleFilter = {
  id: planningIds.filter,
  listId: ids.list,
  name: "My urgent work",
  criteria: { assigneeIds: [ids.user], priorities: ["urgent", "high"], includeClosed: false },
  shared: false,
  matchingTasks: 4,
  taskQuery: `priorities=urgent%2Chigh&assigneeIds=${ids.user}&includeClosed=false`,
  createdBy: ids.user,
  createdAt: at0
}

export const filtersExamples = examplesById({
  listSavedFilters: [
    { name: "list", request: { params: { listId: ids.list } }, response: { status: 200, body: { items: [exampleFilter] } } }
  ],
  createSavedFilter: [
    {
      name: "save",
      request: {
        params: { listId: ids.list },
        body: { name: "My urgent work", criteria: { assigneeIds: [ids.user], priorities: ["urgent", "high"], includeClosed: false } }
      },
      response: { status: 201, body: exampleFilter }
    }
  ],
  deleteSavedFilter: [
    { name: "delete", request: { params: { listId: ids.list, filterId: planningIds.filter } }, response: { status: 204 } }
  ]
})
