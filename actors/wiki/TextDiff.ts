/**
 * A line diff (Myers' O((N+M)·D) algorithm): how to get from `before` to
 * `after` as runs of equal, removed and added lines, with long equal runs
 * cut down to some context around the changes.
 */

export type DiffBlock =
  | { readonly type: "equal"; readonly lines: ReadonlyArray<string>; readonly skipped: number }
  | { readonly type: "removed" | "added"; readonly lines: ReadonlyArray<string> }

type Op = "equal" | "removed" | "added"

/** The edit script, one op per line. */
const script = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): Array<[Op, string]> => {
  const n = a.length
  const m = b.length
  const max = n + m
  const offset = max + 1
  let v = new Int32Array(2 * max + 3)
  const trace: Array<Int32Array> = []
  let found = false
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice())
    const next = v.slice()
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      next[offset + k] = x
      if (x >= n && y >= m) {
        found = true
        break
      }
    }
    v = next
  }
  trace.push(v)
  // Walk back through the saved frontiers.
  const ops: Array<[Op, string]> = []
  let x = n
  let y = m
  for (let d = trace.length - 2; d >= 0 && (x > 0 || y > 0); d--) {
    const frontier = trace[d]!
    const k = x - y
    const down = k === -d || (k !== d && frontier[offset + k - 1]! < frontier[offset + k + 1]!)
    const prevK = down ? k + 1 : k - 1
    const prevX = d === 0 ? 0 : frontier[offset + prevK]!
    const prevY = prevX - prevK
    while (x > prevX && y > prevY) {
      ops.push(["equal", a[x - 1]!])
      x--
      y--
    }
    if (d > 0) {
      if (down) ops.push(["added", b[y - 1]!])
      else ops.push(["removed", a[x - 1]!])
      x = prevX
      y = prevY
    }
  }
  while (x > 0 && y > 0) {
    ops.push(["equal", a[x - 1]!])
    x--
    y--
  }
  return ops.reverse()
}

const linesOf = (text: string): Array<string> => (text === "" ? [] : text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n"))

export interface LineDiff {
  readonly added: number
  readonly removed: number
  readonly blocks: ReadonlyArray<DiffBlock>
}

/** @param context equal lines kept before and after each change (the rest of an equal run is counted in `skipped`) */
export const diffLines = (before: string, after: string, context = 3): LineDiff => {
  const ops = script(linesOf(before), linesOf(after))
  const runs: Array<{ type: Op; lines: Array<string> }> = []
  for (const [type, line] of ops) {
    const last = runs[runs.length - 1]
    if (last !== undefined && last.type === type) last.lines.push(line)
    else runs.push({ type, lines: [line] })
  }
  let added = 0
  let removed = 0
  const blocks = runs.map((run, index): DiffBlock => {
    if (run.type === "added") added += run.lines.length
    if (run.type === "removed") removed += run.lines.length
    if (run.type !== "equal") return { type: run.type, lines: run.lines }
    const keepBefore = index === 0 ? 0 : context
    const keepAfter = index === runs.length - 1 ? 0 : context
    if (run.lines.length <= keepBefore + keepAfter) return { type: "equal", lines: run.lines, skipped: 0 }
    const head = run.lines.slice(0, keepBefore)
    const tail = keepAfter === 0 ? [] : run.lines.slice(-keepAfter)
    return { type: "equal", lines: [...head, ...tail], skipped: run.lines.length - head.length - tail.length }
  })
  return { added, removed, blocks }
}
