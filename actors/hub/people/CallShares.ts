/**
 * Calls shared with people and teams of the workspace: one `hubCallShares`
 * actor per workspace, persisted before every reply. A share names a call,
 * one recipient (a user or a pm team of the workspace), who shared it and an
 * optional message; sharing the same call with the same recipient again
 * keeps one share (with the newer message).
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Actor } from "../../../runtime/Actor.ts"
import { Id, now, Timestamp } from "../../Fields.ts"

export const MAX_SHARES = 20_000

export const Recipient = Schema.Struct({ type: Schema.Literals(["user", "team"]), id: Id })
export type Recipient = typeof Recipient.Type

export const StoredShare = Schema.Struct({
  id: Id,
  callId: Schema.Number,
  recipient: Recipient,
  message: Schema.String,
  sharedBy: Id,
  createdAt: Timestamp
})
export type StoredShare = typeof StoredShare.Type

export const SharesState = Schema.Struct({ shares: Schema.Record(Schema.String, StoredShare) })
export type SharesState = typeof SharesState.Type

const sameRecipient = (a: Recipient, b: Recipient) => a.type === b.type && a.id === b.id

/** A workspace holds a bounded number of shares. */
export class TooManyShares extends Schema.TaggedError<TooManyShares>()("TooManyShares", {}) {
  override get message() {
    return "This workspace holds too many shares; revoke some first"
  }
}

export class CallShareNotFound extends Schema.TaggedError<CallShareNotFound>()("CallShareNotFound", {}) {
  override get message() {
    return "No such share of this call"
  }
}

export type CallShareError = TooManyShares | CallShareNotFound

export const CallShares = Actor<SharesState>()({
  kind: "hubCallShares",
  state: SharesState,
  initial: () => ({ shares: {} }),
  messages: {
    view: { payload: Schema.Struct({}), success: SharesState, error: Schema.Never },
    share: {
      payload: Schema.Struct({ callId: Schema.Number, recipients: Schema.Array(Recipient), message: Schema.String, by: Id }),
      success: Schema.Array(StoredShare),
      error: TooManyShares
    },
    revoke: { payload: Schema.Struct({ callId: Schema.Number, shareId: Id }), success: StoredShare, error: CallShareNotFound }
  },
  handlers: {
    view: (_, ctx) => Effect.succeed(ctx.state),
    share: ({ callId, recipients, message, by }, ctx) =>
      Effect.gen(function* () {
        const existing = Object.values(ctx.state.shares).filter((share) => share.callId === callId)
        if (Object.keys(ctx.state.shares).length + recipients.length > MAX_SHARES) return yield* new TooManyShares()
        const at = now()
        const result = recipients.map((recipient): StoredShare => {
          const earlier = existing.find((share) => sameRecipient(share.recipient, recipient))
          return earlier !== undefined
            ? { ...earlier, message: message === "" ? earlier.message : message }
            : { id: randomUUID(), callId, recipient, message, sharedBy: by, createdAt: at }
        })
        ctx.setState({ shares: { ...ctx.state.shares, ...Object.fromEntries(result.map((share) => [share.id, share])) } })
        return result
      }),
    revoke: ({ callId, shareId }, ctx) =>
      Effect.gen(function* () {
        const share = ctx.state.shares[shareId]
        if (share === undefined || share.callId !== callId) return yield* new CallShareNotFound()
        const shares = { ...ctx.state.shares }
        delete shares[shareId]
        ctx.setState({ shares })
        return share
      })
  }
})
