/**
 * An actor kind: a single-writer aggregate addressed by `(kind, id)`, in the
 * sense of an Orleans grain. Declared once as data; the ActorSystem activates,
 * persists, passivates and routes it. Messages are `Schema`s, so one
 * definition validates, encodes for NATS and documents.
 */
import type { Effect, Schema } from "effect"
import type { Rejection } from "./Rejection.ts"

export interface ActorAddress {
  readonly kind: string
  readonly id: string
}

export interface ActorContext<State> {
  readonly address: ActorAddress
  /** The activation's current state (loaded from persistence on activation). */
  readonly state: State
  /** Replaces the state; the runtime persists it before the reply is sent. */
  readonly setState: (next: State) => void
}

export interface MessageSchemas {
  readonly payload: Schema.Top
  readonly success: Schema.Top
}

export type Handlers<State, Messages extends Record<string, MessageSchemas>, R> = {
  readonly [Tag in keyof Messages]: (
    payload: Messages[Tag]["payload"]["Type"],
    ctx: ActorContext<State>
  ) => Effect.Effect<Messages[Tag]["success"]["Type"], Rejection, R>
}

export interface ActorKind<State = any, Messages extends Record<string, MessageSchemas> = any, R = any> {
  readonly kind: string
  /** JSON-compatible codec of the state, used to persist it. */
  readonly state: Schema.Codec<State, any>
  /** The state of an actor that was never persisted. */
  readonly initial: (id: string) => State
  readonly messages: Messages
  readonly handlers: Handlers<State, Messages, R>
  /** Passivate after this long without messages (default: the system's). */
  readonly idleMillis?: number
  /** Mailbox capacity (default: the system's). */
  readonly mailbox?: number
}

export type PayloadOf<K extends ActorKind, Tag extends keyof K["messages"]> = K["messages"][Tag]["payload"]["Type"]
export type SuccessOf<K extends ActorKind, Tag extends keyof K["messages"]> = K["messages"][Tag]["success"]["Type"]

/** Declares an actor kind with its state type fixed first, so handlers are checked against it. */
export const Actor = <State>() =>
<const Messages extends Record<string, MessageSchemas>, R = never>(
  definition: ActorKind<State, Messages, R>
): ActorKind<State, Messages, R> => definition
