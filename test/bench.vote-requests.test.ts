/**
 * The feedback-votes scenario's exactly-once check rests on its request
 * generator: applied in order, no request may vote twice or withdraw a vote
 * that isn't there, and `expectedVotes` must be the votes standing after any
 * number of requests, for every worker.
 */
import { describe, expect, it } from "vitest"
import generate, { expectedVotes, type VoteArgs } from "../bench/load/vote-requests.ts"

const replay = (args: VoteArgs, worker: number, workers: number, count: number, check: (n: number, standing: number) => void) => {
  const next = generate(args, worker, workers)
  const standing = new Set<string>()
  let refused = 0
  for (let n = 1; n <= count; n++) {
    const { method, path } = next(n)
    if (method === "POST") standing.has(path) ? refused++ : standing.add(path)
    else standing.delete(path) || refused++
    check(n, standing.size)
  }
  return refused
}

describe("bench/load/vote-requests", () => {
  const requestIds = Array.from({ length: 50 }, (_, i) => `request-${i}`)

  it.each([
    [20, 2, 3000],
    [1000, 2, 60_000],
    [7, 3, 12_345]
  ])("%i voters over %i workers: every request applies, the ledger matches", (voters, workers, count) => {
    const args: VoteArgs = { requestIds, voters, tag: "t" }
    for (let worker = 0; worker < workers; worker++) {
      const refused = replay(args, worker, workers, count, (n, standing) => {
        if (n % 101 === 0 || n === count) expect(standing, `worker ${worker} after ${n}`).toBe(expectedVotes(args, worker, workers, n))
      })
      expect(refused, `worker ${worker}`).toBe(0)
    }
  })

  it("keeps two requests on one pair far apart, and workers on distinct voters", () => {
    const args: VoteArgs = { requestIds, voters: 1000, tag: "t" }
    const last = new Map<string, number>()
    let closest = Number.POSITIVE_INFINITY
    const next = generate(args, 0, 2)
    for (let n = 1; n <= 20_000; n++) {
      const { path } = next(n)
      const seen = last.get(path)
      if (seen !== undefined) closest = Math.min(closest, n - seen)
      last.set(path, n)
    }
    expect(closest).toBeGreaterThanOrEqual(256)
    const other = generate(args, 1, 2)
    for (let n = 1; n <= 2000; n++) expect(last.has(other(n).path)).toBe(false)
  })
})
