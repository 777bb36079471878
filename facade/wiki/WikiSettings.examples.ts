/** Request and response examples of the operations in WikiSettings.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "../../actors/wiki/DiscoveryViews.ts"

const params = { workspaceId: ex.workspaceId }

const exampleSettings = {
  workspaceId: ex.workspaceId,
  allowPublicWikis: true,
  allowExports: true,
  allowImports: true,
  trackPageViews: true,
  defaultHomeSpaceId: ex.spaceId,
  updatedBy: ex.userId,
  updatedAt: ex.at
}

const exampleBranding = { siteName: "Acme Knowledge Base", logoUrl: "https://acme.example/logo.png", accentColor: "#3355ff" }

export const wikiSettingsExamples = examplesById({
  getWikiSettings: [{ name: "settings", request: { params }, response: { status: 200, body: exampleSettings } }],
  updateWikiSettings: [
    {
      name: "no-exports",
      request: { params, body: { allowExports: false, defaultHomeSpaceId: ex.spaceId } },
      response: { status: 200, body: { ...exampleSettings, allowExports: false } }
    }
  ],
  resetWikiSettings: [
    { name: "reset", request: { params }, response: { status: 200, body: { ...exampleSettings, defaultHomeSpaceId: null } } }
  ],
  getWikiBranding: [{ name: "branding", request: { params }, response: { status: 200, body: exampleBranding } }],
  updateWikiBranding: [{ name: "brand", request: { params, body: exampleBranding }, response: { status: 200, body: exampleBranding } }],
  listWikiSettingsChanges: [
    {
      name: "history",
      request: { params },
      response: {
        status: 200,
        body: {
          items: [
            {
              id: ex.searchId,
              changedBy: { userId: ex.userId, name: "Alice" },
              changedAt: ex.at,
              changes: { allowExports: { from: true, to: false } }
            }
          ]
        }
      }
    }
  ]
})
