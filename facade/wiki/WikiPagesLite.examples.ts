/** Request and response examples of the operations in WikiPagesLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "../../actors/wiki/WikiViews.ts"

const exampleLite = {
  id: examples.childPageId,
  spaceKey: "ENG",
  slug: "laptop-setup",
  title: "Laptop setup",
  parentSlug: "onboarding",
  path: ["Onboarding", "Laptop setup"],
  childSlugs: [],
  markdown: "# Laptop setup\n\n1. Install the VPN\n2. Clone the repo\n",
  access: "edit",
  updatedAt: examples.at
}

const refParams = { spaceKey: "ENG", pageRef: "laptop-setup" }

export const wikiPagesLiteExamples = examplesById({
  listWikiPagesLite: [
    {
      name: "outline",
      request: { params: { spaceKey: "ENG" } },
      response: {
        status: 200,
        body: {
          space: { key: "ENG", name: "Engineering", workspaceId: examples.workspaceId },
          items: [
            { slug: "onboarding", title: "Onboarding", parentSlug: null, depth: 0, updatedAt: examples.at },
            { slug: "laptop-setup", title: "Laptop setup", parentSlug: "onboarding", depth: 1, updatedAt: examples.at }
          ]
        }
      }
    }
  ],
  getWikiPageLite: [{ name: "by-slug", request: { params: refParams }, response: { status: 200, body: exampleLite } }],
  createWikiPageLite: [
    {
      name: "child",
      request: {
        params: { spaceKey: "ENG" },
        body: { title: "Laptop setup", parent: "onboarding", markdown: "# Laptop setup\n\n1. Install the VPN\n2. Clone the repo\n" }
      },
      response: { status: 201, body: exampleLite }
    }
  ],
  updateWikiPageLite: [
    {
      name: "rewrite",
      request: {
        params: refParams,
        body: { markdown: "# Laptop setup\n\n1. Install the VPN\n2. Clone the repo\n3. Run `make setup`\n" }
      },
      response: {
        status: 200,
        body: { ...exampleLite, markdown: "# Laptop setup\n\n1. Install the VPN\n2. Clone the repo\n3. Run `make setup`\n" }
      }
    }
  ],
  appendWikiPageLite: [
    {
      name: "append",
      request: { params: refParams, body: { markdown: "## Troubleshooting\n\nAsk in #it-help." } },
      response: { status: 200, body: { ...exampleLite, markdown: `${exampleLite.markdown}\n## Troubleshooting\n\nAsk in #it-help.\n` } }
    }
  ]
})
