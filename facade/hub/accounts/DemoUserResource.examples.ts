/** Request and response examples of the operations in DemoUserResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { examplePair } from "../../../actors/auth/SessionTokens.ts"
import { exampleDemo, exampleKey } from "./DemoSeeding.ts"

export const demoUserResourceExamples = examplesById({
  createDemoUser: [
    {
      name: "try",
      request: { body: { name: "Visitor" } },
      response: {
        status: 201,
        body: {
          email: "demo-q3k9x2@demo.atrium.local",
          password: "Xy3kQm9b2fA7cD4eF6gH8iJ0",
          session: { ...examplePair, user: { ...examplePair.user, email: "demo-q3k9x2@demo.atrium.local", name: "Visitor" } },
          demo: { ...exampleDemo, apiKey: exampleKey }
        }
      }
    }
  ]
})
