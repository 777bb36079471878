/**
 * Atrium as `npm start` runs it (server/main.ts, a child process) on a fresh
 * embedded PGlite in a temporary DATA_DIR (a copy of the migrated template), alone (no NATS, no demo data),
 * for the scenarios that drive it over HTTP; `env` adds to that. Stopping it
 * removes its data.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { seedPglite } from "../../tools/PgliteTemplate.ts"
import { type Server, startHttpServer, tsNode } from "../process.ts"

export const startEmbeddedAtrium = async (root: string, env: Record<string, string> = {}): Promise<Server> => {
  const dataDir = mkdtempSync(join(tmpdir(), "atrium-bench-"))
  const [command, args] = tsNode(join(root, "server/main.ts"))
  try {
    // A copy of the migrated template: no initdb and migrations per start.
    await seedPglite(dataDir)
    const server = await startHttpServer({
      label: "server/main.ts",
      command,
      args,
      cwd: root,
      env: { HOST: "127.0.0.1", NATS_URL: "", DEMO: "", DATABASE_URL: "", DATA_DIR: dataDir, ...env },
      readyPath: "/healthz",
      timeoutMs: 180_000
    })
    return {
      ...server,
      stop: async (graceMs) => {
        await server.stop(graceMs)
        rmSync(dataDir, { recursive: true, force: true })
      }
    }
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
}
