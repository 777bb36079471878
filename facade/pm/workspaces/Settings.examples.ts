/** Request and response examples of the operations in Settings.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { wsp } from "./shared.ts"
import { defaults } from "../../../actors/pm/WorkspaceConfig.ts"
import { at0 } from "../WorkAccess.ts"

const exampleSettings = {
  general: defaults.general,
  features: defaults.features,
  defaultViews: defaults.defaultViews,
  branding: defaults.branding,
  seatLimit: null,
  updatedAt: at0
}

export const settingsExamples = examplesById({
  getWorkspaceSettings: [{ name: "get", request: { params: wsp }, response: { status: 200, body: exampleSettings } }],
  updateWorkspaceSettings: [
    {
      name: "berlin",
      request: { params: wsp, body: { timeZone: "Europe/Berlin", weekStart: "monday" } },
      response: { status: 200, body: { ...exampleSettings, general: { ...defaults.general, timeZone: "Europe/Berlin" } } }
    }
  ],
  resetWorkspaceSettings: [{ name: "reset", request: { params: wsp }, response: { status: 200, body: exampleSettings } }],
  getWorkspaceSecurityPolicy: [{ name: "get", request: { params: wsp }, response: { status: 200, body: defaults.security } }],
  updateWorkspaceSecurityPolicy: [
    {
      name: "domains",
      request: { params: wsp, body: { allowedEmailDomains: ["acme.com"], maxShareLinkDays: 30 } },
      response: { status: 200, body: { ...defaults.security, allowedEmailDomains: ["acme.com"], maxShareLinkDays: 30 } }
    }
  ],
  setWorkspaceSeatLimit: [
    {
      name: "ten",
      request: { params: wsp, body: { seatLimit: 10 } },
      response: { status: 200, body: { limit: 10, members: 3, guests: 1, pendingInvitations: 1, available: 6 } }
    }
  ]
})
