/**
 * The wiki discovery suite on PGlite: one Atrium (starting one costs most of
 * the time) for every case; each case works in workspaces of its own.
 */
import { afterAll, beforeAll } from "vitest"
import { exchangeCases } from "./exchange.cases.ts"
import { type DiscoveryAtrium, startDiscoveryAtrium } from "./harness.ts"
import { publicWikiCases } from "./public.cases.ts"
import { searchCases } from "./search.cases.ts"
import { workspaceCases } from "./workspace.cases.ts"

let atrium: DiscoveryAtrium | undefined
beforeAll(async () => {
  atrium = await startDiscoveryAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

const current = () => atrium!
searchCases(current)
publicWikiCases(current)
exchangeCases(current)
workspaceCases(current)
