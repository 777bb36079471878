/** Request and response examples of the operations in CoverImages.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "../../actors/wiki/WikiViews.ts"

export const coverImagesExamples = examplesById({
  listWikiCoverImages: [
    {
      name: "gallery",
      request: { query: { workspaceId: examples.workspaceId, category: "gradient" } },
      response: {
        status: 200,
        body: {
          items: [
            {
              reference: "gallery:gradient-dawn",
              name: "Dawn",
              category: "gradient",
              url: "data:image/svg+xml;base64,PHN2Zy…",
              pageId: null
            }
          ]
        }
      }
    }
  ]
})
