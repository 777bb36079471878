/**
 * Memory as it settles, for per-connection figures that do not depend on when
 * the garbage collector last ran: on SIGUSR2 a server started with
 * `--expose-gc` collects fully (twice, the second after a turn so finalizers
 * and weak callbacks have run) and prints `MEM <process.memoryUsage() JSON>`.
 * Imported by Atrium's bench server and by the stock Hocuspocus baseline
 * alike, so both are measured the same way.
 */
const collect = (globalThis as { gc?: () => void }).gc

export const reportSettledMemoryOnSignal = (): void => {
  if (collect === undefined) return
  process.on("SIGUSR2", () => {
    collect()
    setTimeout(() => {
      collect()
      process.stdout.write(`MEM ${JSON.stringify(process.memoryUsage())}\n`)
    }, 50)
  })
}
