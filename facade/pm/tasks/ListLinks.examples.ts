/** Request and response examples of the operations in ListLinks.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk } from "./shared.ts"
import { exampleList } from "../WorkExamples.ts"

export const listLinksExamples = examplesById({
  listTaskLists: [{ name: "lists", request: { params: tk }, response: { status: 200, body: { items: [{ ...exampleList, home: true }] } } }]
})
