/**
 * The published OpenAPI documents are usable by real clients: types are
 * generated from each service's document (openapi-typescript, in
 * tools/openapi-client because it needs TypeScript 5), a scenario written
 * against the generated paths with openapi-fetch is type-checked with the
 * project's tsc and then run against the server (create a workspace, space,
 * list and task and read the task back; a wiki space and page).
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "./support/atrium.ts"

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, "..")
const generator = path.join(root, "tools/openapi-client/node_modules/openapi-typescript/bin/cli.js")
const validator = path.join(root, "tools/openapi-client/validate.cjs")
const services = ["hub", "pm", "wiki", "feedback"] as const

/** Written as a client developer would, against the generated types only. */
const scenario = `import createClient from "openapi-fetch"
import type { paths as HubPaths } from "./hub.ts"
import type { paths as PmPaths } from "./pm.ts"
import type { paths as WikiPaths } from "./wiki.ts"

const must = <T>(result: { data?: T; error?: unknown; response: Response }, what: string): T => {
  if (result.data === undefined) throw new Error(what + " failed with " + result.response.status + ": " + JSON.stringify(result.error))
  return result.data
}

export const runScenario = async (origin: string, token: string) => {
  const headers = { authorization: "Bearer " + token }
  const hub = createClient<HubPaths>({ baseUrl: origin + "/hub", headers })
  const pm = createClient<PmPaths>({ baseUrl: origin + "/pm", headers })
  const wiki = createClient<WikiPaths>({ baseUrl: origin + "/wiki", headers })

  const catalog = must(await hub.GET("/v1/api-catalog"), "the hub catalog")
  const tagCount = catalog.services[0]!.tagCount

  const workspace = must(await pm.POST("/v1/workspaces", { body: { name: "Client Co" } }), "createWorkspace")
  const space = must(await pm.POST("/v1/workspaces/{workspaceId}/spaces", { params: { path: { workspaceId: workspace.id } }, body: { name: "Engineering" } }), "createSpace")
  const list = must(await pm.POST("/v1/spaces/{spaceId}/lists", { params: { path: { spaceId: space.id } }, body: { name: "Backlog" } }), "createList")
  const created = must(await pm.POST("/v1/lists/{listId}/tasks", {
    params: { path: { listId: list.id } },
    body: { name: "Ship the generated client", priority: "high", tags: ["api"] }
  }), "createTask")
  const task = must(await pm.GET("/v1/tasks/{taskId}", { params: { path: { taskId: created.id } } }), "getTask")
  const statusName: string = task.status.name
  const tasks = must(await pm.GET("/v1/lists/{listId}/tasks", { params: { path: { listId: list.id } } }), "listTasks")
  const missing = await pm.GET("/v1/tasks/{taskId}", { params: { path: { taskId: "00000000-0000-4000-8000-000000000000" } } })
  const errorCode: string | undefined = missing.error?.error.code

  const wikiSpace = must(await wiki.POST("/v1/spaces", { body: { workspaceId: workspace.id, name: "Handbook" } }), "createWikiSpace")
  const page = must(await wiki.POST("/v1/spaces/{spaceId}/pages", { params: { path: { spaceId: wikiSpace.id } }, body: { title: "Welcome", markdown: "# Hello" } }), "createWikiPage")
  const readBack = must(await wiki.GET("/v1/pages/{pageId}", { params: { path: { pageId: page.id } } }), "getWikiPage")
  const title: string = readBack.title

  return {
    tagCount,
    task: { id: task.id, name: task.name, priority: task.priority, tags: task.tags.map((t) => t.name), statusName },
    listed: tasks.items.map((t) => t.id),
    errorCode,
    page: { id: readBack.id, title }
  }
}
`

let atrium: TestServer
let token: string
let dir: string

beforeAll(async () => {
  atrium = await startAtrium()
  token = (await signUp(atrium, "Client")).token
  dir = mkdtempSync(path.join(tmpdir(), "atrium-client-"))
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"))
})
afterAll(async () => {
  await atrium?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe("a client generated from the OpenAPI documents", () => {
  it("generates types from every service's document, each a valid OpenAPI document", async () => {
    for (const service of services) {
      const response = await atrium.request("GET", `/${service}/v1/openapi.json`)
      expect(response.status, service).toBe(200)
      expect(response.body.openapi).toBe("3.1.0")
      writeFileSync(path.join(dir, `${service}.json`), response.text)
      await run(process.execPath, [generator, path.join(dir, `${service}.json`), "-o", path.join(dir, `${service}.ts`)], { cwd: dir })
      const types = readFileSync(path.join(dir, `${service}.ts`), "utf8")
      expect(types, service).toMatch(/export (?:interface|type) paths\b/)
      expect(Object.keys(response.body.paths).length, service).toBeGreaterThan(10)
    }
    // A valid OpenAPI document (Redocly's structural rules).
    const validated = await run(process.execPath, [validator, ...services.map((service) => path.join(dir, `${service}.json`))]).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? "invalid"
    )
    expect(validated).toBe("")
    writeFileSync(path.join(dir, "invalid.json"), JSON.stringify({ openapi: "3.1.0", paths: {} }))
    await expect(run(process.execPath, [validator, path.join(dir, "invalid.json")])).rejects.toMatchObject({
      stdout: expect.stringContaining("info")
    })
  }, 120_000)

  /** The project's tsc on one file of the temp dir: its errors, or "". */
  const typeCheck = async (file: string) => {
    writeFileSync(
      path.join(dir, `tsconfig.${file}.json`),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          lib: ["ES2023", "DOM"],
          types: []
        },
        files: [file]
      })
    )
    const tsc = path.join(root, "node_modules/.bin/tsc")
    return run(tsc, ["--noEmit", "-p", path.join(dir, `tsconfig.${file}.json`)], { cwd: dir }).then(
      () => "",
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`
    )
  }

  it("type-checks a scenario written against the generated paths with the project's tsc", async () => {
    writeFileSync(path.join(dir, "scenario.ts"), scenario)
    expect(await typeCheck("scenario.ts")).toBe("")
    // The check has teeth: a path the document does not have, or a wrong field type, is a type error.
    writeFileSync(
      path.join(dir, "wrong.ts"),
      `import createClient from "openapi-fetch"
import type { paths } from "./pm.ts"
const pm = createClient<paths>({ baseUrl: "http://localhost/pm" })
export const wrong = async () => {
  await pm.GET("/v1/no-such-path")
  await pm.POST("/v1/workspaces", { body: { name: 42 } })
}
`
    )
    const errors = await typeCheck("wrong.ts")
    expect(errors).toContain("wrong.ts(5,")
    expect(errors).toContain("wrong.ts(6,")
  }, 120_000)

  it("drives the scenario against the server", async () => {
    const { runScenario } = await import(pathToFileURL(path.join(dir, "scenario.ts")).href)
    const outcome = await runScenario(atrium.origin, token)
    expect(outcome.tagCount).toBeGreaterThan(0)
    expect(outcome.task).toEqual({
      id: expect.any(String),
      name: "Ship the generated client",
      priority: "high",
      tags: ["api"],
      statusName: expect.any(String)
    })
    expect(outcome.listed).toContain(outcome.task.id)
    expect(outcome.errorCode).toBe("not_found")
    expect(outcome.page).toEqual({ id: expect.any(String), title: "Welcome" })
  }, 60_000)
})
