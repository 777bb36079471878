/**
 * Memory as it settles, for per-connection figures that do not depend on when
 * the garbage collector last ran: on SIGUSR2 a server started with
 * `--expose-gc` collects fully (twice, the second after a turn so finalizers
 * and weak callbacks have run) and prints `MEM <process.memoryUsage() JSON>`.
 * Imported by Atrium's bench server and by the stock Hocuspocus baseline
 * alike, so both are measured the same way. With `BENCH_HEAP_SNAPSHOTS=<dir>`
 * each reading also writes a heap snapshot there (for finding what a
 * connection holds; writing one costs RSS, so the figures are then off).
 */
import { join } from "node:path"
import { writeHeapSnapshot } from "node:v8"

const collect = (globalThis as { gc?: () => void }).gc

export const reportSettledMemoryOnSignal = (): void => {
  if (collect === undefined) return
  process.on("SIGUSR2", () => {
    collect()
    setTimeout(() => {
      collect()
      const usage = process.memoryUsage()
      const snapshots = process.env.BENCH_HEAP_SNAPSHOTS
      if (snapshots) writeHeapSnapshot(join(snapshots, `${process.pid}-${Date.now()}.heapsnapshot`))
      process.stdout.write(`MEM ${JSON.stringify(usage)}\n`)
    }, 50)
  })
}
