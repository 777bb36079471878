/** Request and response examples of the operations in AiFlows.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./Examples.ts"
import { flows } from "./Flows.ts"

const exampleSegments = [
  { speaker: "Alice", startMs: 0, endMs: 4000, text: "I'll send the revised launch timeline by Friday." },
  { speaker: "Bob", startMs: 4100, endMs: 9000, text: "The login bug is fixed, the release can go out." }
]

export const aiFlowFunctionResourceExamples = examplesById({
  listAiFlowFunctions: [{ name: "list", response: { status: 200, body: { items: flows } } }],
  runAiFlowFunction: [
    {
      name: "action-items",
      request: {
        params: { name: "action-items" },
        body: { workspaceId: exampleIds.workspaceId, segments: exampleSegments, meetingDate: "2026-11-20" }
      },
      response: {
        status: 200,
        body: {
          flow: "action-items",
          version: 1,
          engine: "local",
          actionItems: [{ id: "a1b2c3d4", text: "Send the revised launch timeline by Friday", owner: "Alice", dueDate: "2026-11-20" }]
        }
      }
    }
  ]
})
export const aiMethodResourceExamples = examplesById({
  listAiMethods: [
    {
      name: "methods",
      response: { status: 200, body: { engine: "local", items: [{ output: "summary", flow: "meeting-summary", version: 1 }] } }
    }
  ]
})
