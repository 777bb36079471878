/** Request and response examples of the operations in Joining.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { wsp, exampleJoined, ws } from "./shared.ts"

export const joiningExamples = examplesById({
  listJoinableWorkspaces: [
    { name: "joinable", response: { status: 200, body: { items: [{ id: ws, name: "Acme", role: "member", memberCount: 12 }] } } }
  ],
  joinWorkspaceByDomain: [{ name: "join", request: { params: wsp }, response: { status: 200, body: exampleJoined } }]
})
