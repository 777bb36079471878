/** Failures of the actor runtime itself (as opposed to domain rejections). */
import { Schema } from "effect"

const Address = Schema.Struct({ kind: Schema.String, id: Schema.String })

/** The actor's mailbox is full: the caller should back off. */
export class ActorOverloaded extends Schema.TaggedError<ActorOverloaded>()("ActorOverloaded", {
  address: Address
}) {}

/** No reply within the request's timeout. */
export class ActorTimeout extends Schema.TaggedError<ActorTimeout>()("ActorTimeout", {
  address: Address,
  millis: Schema.Number
}) {}

/** The handler died; only this request fails and the actor restarts from persisted state. */
export class ActorDefect extends Schema.TaggedError<ActorDefect>()("ActorDefect", {
  address: Address,
  message: Schema.String
}) {}

/**
 * Why a message could not be handled right now, so callers can say which:
 * handover: no node owns the shard yet (moving between nodes, or none reachable);
 * draining: the node is shutting down; interrupted: the activation was stopped
 * mid-message (hand-over, shutdown, or the connection dropped while the request
 * was in flight), so the outcome is unknown; storage: the database did not
 * answer (or timed out); disconnected: this node is cut off from the cluster
 * (NATS) and serves nothing until it is back.
 */
export const UnavailableReason = Schema.Literals(["handover", "draining", "interrupted", "storage", "disconnected"])
export type UnavailableReason = typeof UnavailableReason.Type

/** No node could take the message (shard without owner, transport down, draining). */
export class ActorUnavailable extends Schema.TaggedError<ActorUnavailable>()("ActorUnavailable", {
  address: Address,
  message: Schema.String,
  reason: Schema.optionalKey(UnavailableReason)
}) {}

export type ActorError = ActorOverloaded | ActorTimeout | ActorDefect | ActorUnavailable
