/** Request and response examples of the operations in CustomFieldValues.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk } from "./shared.ts"
import { exampleIds as ids } from "../WorkAccess.ts"
import { exampleTask } from "../WorkExamples.ts"

export const customFieldValuesExamples = examplesById({
  listTaskCustomFields: [
    {
      name: "values",
      request: { params: tk },
      response: {
        status: 200,
        body: { items: [{ fieldId: ids.field, name: "Story points", type: "number", value: 5, required: false, config: {} }] }
      }
    }
  ],
  setTaskCustomFieldValue: [
    {
      name: "points",
      request: { params: { ...tk, fieldId: ids.field }, body: { value: 5 } },
      response: { status: 200, body: exampleTask }
    }
  ],
  clearTaskCustomFieldValue: [{ name: "clear", request: { params: { ...tk, fieldId: ids.field } }, response: { status: 204 } }],
  setTaskCustomFieldValues: [
    { name: "values", request: { params: tk, body: { values: { [ids.field]: 5 } } }, response: { status: 200, body: exampleTask } }
  ]
})
