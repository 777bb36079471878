/** Request and response examples of the operations in AdminAutomations.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"

export const adminAutomationsExamples = examplesById({
  listFailingAutomations: [
    {
      name: "failing",
      response: {
        status: 200,
        body: {
          items: [
            {
              ruleId: "b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e",
              workspaceId: ids.workspace,
              name: "Urgent bugs go to review",
              enabled: true,
              failures: 3,
              runs: 40,
              lastFailureAt: at0,
              lastError: 'set_status: No status named "in review" in this list'
            }
          ]
        }
      }
    }
  ]
})
