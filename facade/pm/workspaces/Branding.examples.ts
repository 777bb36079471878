/** Request and response examples of the operations in Branding.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { wsp, exampleBranding } from "./shared.ts"

export const brandingExamples = examplesById({
  getWorkspaceBranding: [{ name: "get", request: { params: wsp }, response: { status: 200, body: exampleBranding } }],
  updateWorkspaceBranding: [
    { name: "color", request: { params: wsp, body: { color: "#7b68ee" } }, response: { status: 200, body: exampleBranding } }
  ],
  uploadWorkspaceLogo: [{ name: "png", request: { params: wsp }, response: { status: 200, body: exampleBranding } }],
  getWorkspaceLogo: [{ name: "logo", request: { params: wsp }, response: { status: 200 } }],
  deleteWorkspaceLogo: [{ name: "remove", request: { params: wsp }, response: { status: 204 } }]
})
