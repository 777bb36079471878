/**
 * Runs once in Vitest's main process, before the workers start (they inherit
 * its environment). Test servers keep their PGlite files and blobs in
 * temporary folders; on a VM's disk creating and deleting those costs seconds
 * per server, on tmpfs milliseconds. So when /dev/shm is a tmpfs with room to
 * spare, the run's temporary folder (TMPDIR) is a folder there, removed at the end.
 * Child processes that load the whole app start from bundles built here once
 * (tools/NodeBundle.ts), not through tsx: seconds of CPU less per start.
 */
import { mkdtempSync, rmSync, statfsSync } from "node:fs"
import { buildBundles } from "../../tools/NodeBundle.ts"

const SHM = "/dev/shm"
const ENOUGH_BYTES = 4 * 1024 ** 3

const roomOnShm = (): boolean => {
  try {
    const stats = statfsSync(SHM)
    return stats.bavail * stats.bsize >= ENOUGH_BYTES
  } catch {
    return false
  }
}

export default async function setup(): Promise<() => void> {
  const bundles = await buildBundles()
  if (!roomOnShm()) return bundles.remove
  const scratch = mkdtempSync(`${SHM}/atrium-tests-`)
  process.env.TMPDIR = scratch
  return () => {
    bundles.remove()
    // Retries: a child process a test killed may still be letting go of its files.
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  }
}
