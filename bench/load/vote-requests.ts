/**
 * The feedback-votes scenario's requests, made inside each loader worker
 * (`HttpLoad.generate`): worker `w` of `W` owns the voters `u` with
 * `u % W == w`, and walks its (voter, request) pairs in a fixed order, voting
 * on the first pass, withdrawing on the second, and so on. A pair is thus
 * never in flight on two connections at once (unless one response lags a
 * whole pass behind), and the final state follows from how many requests the
 * worker completed (`expectedVotes`): the exactly-once check's ledger.
 */
import type { GeneratedRequest, RequestGenerator } from "./http.ts"

export interface VoteArgs {
  /** The board's feature requests. */
  readonly requestIds: ReadonlyArray<string>
  readonly voters: number
  /** Makes the voters' e-mails unique to one load (each load starts from no votes). */
  readonly tag: string
}

const pairsOf = (args: VoteArgs, worker: number, workers: number) => {
  const mine = Math.floor(args.voters / workers) + (worker < args.voters % workers ? 1 : 0)
  return mine * args.requestIds.length
}

/** Votes standing after worker `worker` completed `completed` requests in order. */
export const expectedVotes = (args: VoteArgs, worker: number, workers: number, completed: number): number => {
  const pairs = pairsOf(args, worker, workers)
  if (pairs === 0) return 0
  const passes = Math.floor(completed / pairs)
  const rest = completed % pairs
  return passes % 2 === 0 ? rest : pairs - rest
}

export const voterEmail = (tag: string, voter: number) => `voter-${tag}-${voter}@bench.example`

const generate: RequestGenerator = (args: VoteArgs, worker, workers) => {
  const pairs = pairsOf(args, worker, workers)
  const requests = args.requestIds.length
  return (n): GeneratedRequest => {
    const i = (n - 1) % pairs
    const pass = Math.floor((n - 1) / pairs)
    const voter = worker + workers * Math.floor(i / requests)
    const path = `/feedback/v1/feature-requests/${args.requestIds[i % requests]}/votes?onBehalfOfEmail=${encodeURIComponent(voterEmail(args.tag, voter))}`
    return { method: pass % 2 === 0 ? "POST" : "DELETE", path }
  }
}

export default generate
