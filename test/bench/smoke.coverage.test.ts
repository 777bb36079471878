/** The smoke files together run every scenario the bench declares, each once, and none runs nothing. */
import { readdirSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { scenarios } from "../../bench/scenarios/index.ts"
import { SMOKE_FILES, smokeScenarios } from "../support/benchSmoke.ts"

describe("bench smoke files", () => {
  it("cover every scenario exactly once, each file a few", () => {
    const files = Array.from({ length: SMOKE_FILES }, (_, index) => smokeScenarios(index))
    for (const names of files) expect(names.length).toBeGreaterThan(0)
    expect(files.flat().sort()).toEqual(scenarios.map((s) => s.name).sort())
    const smokeFiles = readdirSync(new URL(".", import.meta.url)).filter(
      (f) => /^smoke\..*\.test\.ts$/.test(f) && f !== "smoke.coverage.test.ts"
    )
    expect(smokeFiles).toHaveLength(SMOKE_FILES)
  })
})
