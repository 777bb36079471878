/**
 * The feedback-votes scenario's requests, made inside each loader worker
 * (`HttpLoad.generate`): worker `w` of `W` owns the voters `u` with
 * `u % W == w`, hence `P` (voter, request) pairs. It walks them in blocks of
 * `D` pairs: the block's `D` votes, then the same `D` withdrawn, then the
 * next `D` pairs. Two requests on one pair are thus at least `D` requests
 * apart (never in flight together while fewer than `D` are), every block
 * leaves no vote standing, and the votes standing at the end follow from how
 * many requests the worker completed (`expectedVotes`): the exactly-once
 * check's ledger.
 */
import type { GeneratedRequest, RequestGenerator } from "./http.ts"

export interface VoteArgs {
  /** The board's feature requests. */
  readonly requestIds: ReadonlyArray<string>
  readonly voters: number
  /** Makes the voters' e-mails unique to one load (each load starts from no votes). */
  readonly tag: string
}

/** The most requests a block keeps apart; far more than one worker has in flight. */
const MAX_BLOCK = 512

const shape = (args: VoteArgs, worker: number, workers: number) => {
  const voters = Math.floor(args.voters / workers) + (worker < args.voters % workers ? 1 : 0)
  const pairs = voters * args.requestIds.length
  // At most half the pairs: a block's pairs never meet the next block's, even when they wrap around.
  return { pairs, block: Math.max(1, Math.min(MAX_BLOCK, Math.floor(pairs / 2))) }
}

/** Votes standing after worker `worker` completed `completed` requests in order. */
export const expectedVotes = (args: VoteArgs, worker: number, workers: number, completed: number): number => {
  const { pairs, block } = shape(args, worker, workers)
  if (pairs === 0) return 0
  const into = completed % (2 * block)
  return into < block ? into : 2 * block - into
}

export const voterEmail = (tag: string, voter: number) => `voter-${tag}-${voter}@bench.example`

const generate: RequestGenerator = (args: VoteArgs, worker, workers) => {
  const { pairs, block } = shape(args, worker, workers)
  const requests = args.requestIds.length
  return (n): GeneratedRequest => {
    const k = n - 1
    const round = Math.floor(k / (2 * block))
    const into = k % (2 * block)
    const withdraw = into >= block
    const pair = (round * block + (withdraw ? into - block : into)) % pairs
    const voter = worker + workers * Math.floor(pair / requests)
    const email = encodeURIComponent(voterEmail(args.tag, voter))
    return {
      method: withdraw ? "DELETE" : "POST",
      path: `/feedback/v1/feature-requests/${args.requestIds[pair % requests]}/votes?onBehalfOfEmail=${email}`
    }
  }
}

export default generate
