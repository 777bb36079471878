/** Request and response examples of the operations in DemoResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleDemo, exampleKey, at } from "./DemoSeeding.ts"
import { DEMO_SPACE, DEMO_LISTS, demoTasks, DEMO_WIKI, demoPages, demoMeetings } from "../../DemoContent.ts"

export const demoResourceExamples = examplesById({
  createDemoWorkspace: [
    {
      name: "create",
      request: { body: { name: "Demo workspace" } },
      response: { status: 201, body: { ...exampleDemo, apiKey: exampleKey } }
    }
  ],
  listDemoWorkspaces: [{ name: "mine", response: { status: 200, body: { items: [exampleDemo] } } }],
  getDemoWorkspace: [{ name: "get", request: { params: { demoId: exampleDemo.id } }, response: { status: 200, body: exampleDemo } }],
  resetDemoWorkspace: [
    {
      name: "reset",
      request: { params: { demoId: exampleDemo.id } },
      response: { status: 200, body: { ...exampleDemo, resets: 1, resetAt: at, apiKey: exampleKey } }
    }
  ],
  deleteDemoWorkspace: [{ name: "delete", request: { params: { demoId: exampleDemo.id } }, response: { status: 204 } }],
  extendDemoWorkspace: [
    {
      name: "extend",
      request: { params: { demoId: exampleDemo.id }, body: { days: 14 } },
      response: { status: 200, body: { ...exampleDemo, expiresAt: "2026-12-05T12:00:00.000Z" } }
    }
  ],
  createDemoApiKey: [
    {
      name: "mint",
      request: { params: { demoId: exampleDemo.id } },
      response: { status: 201, body: { workspaceId: exampleDemo.workspaceId, apiKey: exampleKey } }
    }
  ],
  getDemoContent: [
    {
      name: "content",
      response: {
        status: 200,
        body: {
          space: DEMO_SPACE,
          lists: [...DEMO_LISTS],
          tasks: demoTasks.slice(0, 1).map((t) => ({ list: t.list, name: t.name, priority: t.priority })),
          wikiSpace: { key: DEMO_WIKI.key, name: DEMO_WIKI.name },
          pages: demoPages.slice(0, 1).map((p) => p.title),
          meetings: demoMeetings.slice(0, 1).map((m) => m.name)
        }
      }
    }
  ],
  listAllDemoWorkspaces: [
    {
      name: "expired",
      request: { query: { expired: "true" } },
      response: { status: 200, body: { items: [{ ...exampleDemo, expired: true }] } }
    }
  ],
  purgeExpiredDemoWorkspaces: [{ name: "purge", response: { status: 200, body: { purged: 2 } } }]
})
