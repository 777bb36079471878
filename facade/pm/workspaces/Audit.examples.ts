/** Request and response examples of the operations in Audit.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { wsp, alice, bob } from "./shared.ts"
import { at0 } from "../WorkAccess.ts"

export const auditExamples = examplesById({
  listWorkspaceMembershipAudit: [
    {
      name: "audit",
      request: { params: wsp, query: { type: "member" } },
      response: {
        status: 200,
        body: {
          items: [
            {
              seq: 42,
              type: "member.role_changed",
              at: at0,
              by: { id: alice.userId, name: "Alice", email: alice.email },
              user: { id: bob.userId, name: "Bob", email: bob.email },
              data: { from: "member", to: "admin" }
            }
          ],
          nextBefore: null
        }
      }
    }
  ]
})
