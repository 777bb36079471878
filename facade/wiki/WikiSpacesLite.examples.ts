/** Request and response examples of the operations in WikiSpacesLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "../../actors/wiki/WikiViews.ts"

export const wikiSpacesLiteExamples = examplesById({
  discoverWikiSpaces: [
    {
      name: "all",
      response: {
        status: 200,
        body: {
          items: [
            {
              workspaceId: examples.workspaceId,
              key: "ENG",
              name: "Engineering",
              description: "How we build things",
              role: "editor",
              canEdit: true,
              pageCount: 12,
              homePage: { slug: "onboarding", title: "Onboarding" },
              topPages: [
                { slug: "onboarding", title: "Onboarding" },
                { slug: "architecture", title: "Architecture" }
              ]
            }
          ]
        }
      }
    },
    {
      name: "by-key",
      request: { query: { key: "ENG" } },
      response: {
        status: 200,
        body: {
          items: [
            {
              workspaceId: examples.workspaceId,
              key: "ENG",
              name: "Engineering",
              description: "How we build things",
              role: "editor",
              canEdit: true,
              pageCount: 12,
              homePage: { slug: "onboarding", title: "Onboarding" },
              topPages: [{ slug: "onboarding", title: "Onboarding" }]
            }
          ]
        }
      }
    }
  ]
})
