/**
 * How project management's actors are built: each kind is the single writer
 * of the relational rows it owns, and its protocol is a set of commands, each
 * declared with Schemas — its input, its success — so in-process asks pass
 * values and only the NATS transport encodes, with the same schemas.
 *
 * A command runs inside `ChangeLog.transact`: its rows and its change events
 * commit together. After the commit, before the reply, the live read models
 * (tasks, lists, spaces) whose shown state the change altered are invalidated
 * (`Staleness`), so a read that follows the acknowledged write is never stale.
 *
 * A kind may keep a read model: state rebuilt from its rows on activation
 * (`rebuild`), served from memory by its `reads`, and refreshed by each of its
 * commands (`afterCommand`; by default rebuilt before the next message).
 */
import { Effect, Schema } from "effect"
import type { BlobStore } from "../../persistence/BlobStore.ts"
import { fromSqlError, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { Actor, type ActorContext, type ActorKind } from "../../runtime/Actor.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import { type Change, ChangeLog } from "./ChangeLog.ts"
import { type Stale, staleReadModels } from "./Staleness.ts"

export interface Outcome<A> {
  readonly result: A
  readonly changes: ReadonlyArray<Change>
}

/** What a command's body may fail with and needs. */
export type CommandEffect<A> = Effect.Effect<Outcome<A>, Rejection | SqlError, Sql | BlobStore | ActorSystem>

/** One command of an actor's protocol: `run(input, by, id)` with `by` the acting user and `id` the owning actor's id. */
export interface Command<I extends Schema.Top = Schema.Top, S extends Schema.Top = Schema.Top> {
  readonly input: I
  readonly success: S
  readonly run: (input: I["Type"], by: string, id: string) => CommandEffect<S["Type"]>
}

export const command = <I extends Schema.Top, S extends Schema.Top>(
  input: I,
  success: S,
  run: (input: I["Type"], by: string, id: string) => CommandEffect<S["Type"]>
): Command<I, S> => ({ input, success, run })

export type CommandTable = Record<string, Command<any, any>>

/** A read served from the actor's in-memory state. */
export interface Read<State, P extends Schema.Top = Schema.Top, S extends Schema.Top = Schema.Top> {
  readonly payload: P
  readonly success: S
  readonly handle: (payload: P["Type"], state: State, id: string) => Effect.Effect<S["Type"], Rejection>
}

export type Reads<State> = Record<string, Read<State, any, any>>

/** The read answering the whole state, or `not_found` (with `missing`) while there is none. */
export const stateRead = <S extends Schema.Top>(success: S, missing: string): Read<S["Type"] | null, Schema.Struct<{}>, S> => ({
  payload: Schema.Struct({}),
  success,
  handle: (_, state) => (state === null ? Effect.fail(reject("not_found", missing)) : Effect.succeed(state))
})

export interface ReadModel<State, R extends Reads<State> = Reads<State>> {
  readonly state: Schema.Codec<State, any>
  readonly rebuild: (id: string) => Effect.Effect<State, SqlError, Sql>
  readonly reads: R
  /**
   * The state after command `name` succeeded with `result`: a new state when
   * the result says it, the same one when the command cannot alter it, or
   * `undefined` to rebuild it before the next message (the default).
   */
  readonly afterCommand?: (name: string, result: unknown, state: State, id: string) => State | undefined
}

export interface WorkActor<T extends CommandTable, State = null, R extends Reads<State> = {}> extends ActorKind<State> {
  readonly commands: T
  readonly reads: R
}

const By = Schema.String.annotate({ description: "The acting user's id" })

/** SQL failures that are the caller's conflict, not a defect: unique and foreign-key violations. */
const conflicts = fromSqlError("That name or item already exists here")

// The kinds are declared in WorkActors.ts (which builds on this module); invalidation needs only their names.
const readModelKinds = { tasks: { kind: "pmTask" }, lists: { kind: "pmList" }, spaces: { kind: "pmSpace" } }

/** Invalidates the live read models a change altered, except the actor that made it (it refreshes itself). */
export const invalidate = (stale: Stale, self: { readonly kind: string; readonly id: string } = { kind: "", id: "" }) =>
  stale.tasks.length + stale.lists.length + stale.spaces.length === 0
    ? Effect.void
    : ActorSystem.use((system) =>
        Effect.forEach(
          (["tasks", "lists", "spaces"] as const).flatMap((group) => stale[group].map((id) => [readModelKinds[group], id] as const)),
          ([kind, id]) => (self.kind === kind.kind && self.id === id ? Effect.void : system.invalidate(kind, id)),
          { concurrency: 16, discard: true }
        )
      )

const runCommand =
  <State>(name: string, entry: Command, readModel: ReadModel<State> | undefined) =>
  (payload: { readonly by: string; readonly input: unknown }, ctx: ActorContext<State>) =>
    ChangeLog.use((log) =>
      log.transact(
        Effect.flatMap(entry.run(payload.input, payload.by, ctx.address.id), (outcome) =>
          Effect.map(staleReadModels(outcome.changes), (stale) => ({ result: { value: outcome.result, stale }, changes: outcome.changes }))
        )
      )
    ).pipe(
      Effect.tap(({ stale }) => invalidate(stale, ctx.address)),
      Effect.map(({ value }) => {
        if (readModel !== undefined) {
          const next = readModel.afterCommand?.(name, value, ctx.state, ctx.address.id)
          if (next === undefined) ctx.reload()
          else ctx.setState(next)
        }
        return value
      }),
      Effect.catchTag("SqlError", conflicts),
      Effect.withSpan(`command ${name}`)
    )

/** Declares a pm actor kind from its commands, and optionally its read model. */
export function workActor<T extends CommandTable>(kind: string, commands: T): WorkActor<T>
export function workActor<T extends CommandTable, State, R extends Reads<State>>(
  kind: string,
  commands: T,
  readModel: ReadModel<State, R>
): WorkActor<T, State, R>
export function workActor<T extends CommandTable, State>(kind: string, commands: T, readModel?: ReadModel<State>): WorkActor<T, any, any> {
  const messages: Record<string, { payload: Schema.Top; success: Schema.Top }> = {}
  const handlers: Record<string, (payload: any, ctx: ActorContext<any>) => Effect.Effect<unknown, Rejection, any>> = {}
  for (const [name, entry] of Object.entries(commands)) {
    messages[name] = { payload: Schema.Struct({ by: By, input: entry.input }), success: entry.success }
    handlers[name] = runCommand(name, entry, readModel)
  }
  for (const [name, read] of Object.entries(readModel?.reads ?? {})) {
    if (Object.hasOwn(messages, name)) throw new Error(`${kind}: "${name}" is both a command and a read`)
    messages[name] = { payload: read.payload, success: read.success }
    handlers[name] = (payload, ctx) => read.handle(payload, ctx.state, ctx.address.id)
  }
  const actor = Actor<any>()({
    kind,
    state: readModel?.state ?? Schema.Null,
    initial: () => null,
    ...(readModel ? { rebuild: readModel.rebuild } : {}),
    messages,
    handlers
  })
  return Object.assign(actor, { commands, reads: readModel?.reads ?? {} })
}

export type InputOf<C> = C extends Command<infer I, any> ? I["Type"] : never
type ResultOf<C> = C extends Command<any, infer S> ? S["Type"] : never

/** Asks the owning actor to run one command; the result type follows the command. */
export const send = <T extends CommandTable, K extends keyof T & string>(
  actor: WorkActor<T, any>,
  id: string,
  name: K,
  by: string,
  input: InputOf<T[K]>
): Effect.Effect<ResultOf<T[K]>, Rejection | ActorError, ActorSystem> =>
  ActorSystem.use((system) => system.ask(actor as ActorKind, id, name, { by, input })) as Effect.Effect<
    ResultOf<T[K]>,
    Rejection | ActorError,
    ActorSystem
  >

/** Asks an actor for one of its reads (served from its in-memory state). */
export const read = <R extends Reads<any>, K extends keyof R & string>(
  actor: WorkActor<any, any, R>,
  id: string,
  name: K,
  payload: R[K]["payload"]["Type"]
): Effect.Effect<R[K]["success"]["Type"], Rejection | ActorError, ActorSystem> =>
  ActorSystem.use((system) => system.ask(actor as ActorKind, id, name, payload))
