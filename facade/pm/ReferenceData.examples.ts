/** Request and response examples of the operations in ReferenceData.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"

export const referenceDataExamples = examplesById({
  listReferenceDataSets: [
    {
      name: "index",
      response: {
        status: 200,
        body: {
          items: [
            {
              id: "priorities",
              name: "Priorities",
              description: "Task priorities, most urgent first",
              count: 4,
              path: "/pm/v1/reference-data/priorities"
            }
          ]
        }
      }
    }
  ]
})
