/** Request and response examples of the operations in AdminAlerts.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ids, at } from "./Shared.ts"

const exampleRule = {
  id: "5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e",
  name: "Server errors above 1%",
  metric: "server_error_rate",
  threshold: 0.01,
  windowMinutes: 5,
  createdBy: `user:${ids.owner}`,
  createdAt: at
}

export const adminAlertsExamples = examplesById({
  listPlatformAlerts: [
    {
      name: "all",
      request: { query: {} },
      response: { status: 200, body: { items: [{ ...exampleRule, state: "ok", value: 0, evaluatedAt: at, detail: null }], firing: 0 } }
    }
  ],
  createPlatformAlertRule: [
    {
      name: "server-errors",
      request: { body: { name: "Server errors above 1%", metric: "server_error_rate", threshold: 0.01, windowMinutes: 5 } },
      response: { status: 201, body: exampleRule }
    }
  ],
  deletePlatformAlertRule: [{ name: "remove", request: { params: { ruleId: exampleRule.id } }, response: { status: 204 } }]
})
