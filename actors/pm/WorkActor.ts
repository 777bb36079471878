/**
 * How project management's actors are built: each kind is the single writer
 * of the relational rows it owns, and its protocol is a set of commands, each
 * declared with Schemas — its input, its success, its errors — so in-process
 * asks pass values and only the NATS transport encodes, with the same
 * schemas. `workActor` turns the commands into an `ActorKind` whose messages
 * carry those schemas, so `send`, `read` and the kind's `client` are typed
 * from the kind itself.
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
import { type Sql, SqlError } from "../../persistence/Sql.ts"
import {
  Actor,
  type ActorContext,
  type ActorKind,
  type ErrorOf,
  type MessageSchemas,
  type SuccessOf,
  type TypedActorKind
} from "../../runtime/Actor.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject, Rejection } from "../../runtime/Rejection.ts"
import { type Change, ChangeLog } from "./ChangeLog.ts"
import { InvalidFieldValue } from "./PlanningErrors.ts"
import { ItemExists, NotWorkspaceMembers, PlaceNotFound, ReferenceGone } from "./PmErrors.ts"
import { type Stale, staleReadModels } from "./Staleness.ts"

export interface Outcome<A> {
  readonly result: A
  readonly changes: ReadonlyArray<Change>
}

/**
 * What a command that declares no errors may fail with while pm moves to
 * tagged errors: `Rejection`, and the tagged errors of the helpers it shares
 * with commands that declare theirs.
 */
const Undeclared = Schema.Union([Rejection, NotWorkspaceMembers, PlaceNotFound, InvalidFieldValue])
type Undeclared = typeof Undeclared.Type

/** What a command's body may fail with (`E`: its declared errors) and needs. */
export type CommandEffect<A, E = Undeclared> = Effect.Effect<Outcome<A>, E | SqlError, Sql | BlobStore | ActorSystem>

/**
 * One command of an actor's protocol: `run(input, by, id)` with `by` the
 * acting user and `id` the owning actor's id, failing with `error`'s values.
 */
export interface Command<I extends Schema.Top = Schema.Top, S extends Schema.Top = Schema.Top, E extends Schema.Top = Schema.Top> {
  readonly input: I
  readonly success: S
  readonly error: E
  readonly run: (input: I["Type"], by: string, id: string) => CommandEffect<S["Type"], E["Type"]>
}

/**
 * Declares a command: `command(input, success, run)` refuses with `Rejection`s (and `Undeclared`'s shared errors);
 * `command(input, success, error, run)` with the tagged errors of `error`.
 */
export function command<I extends Schema.Top, S extends Schema.Top>(
  input: I,
  success: S,
  run: (input: I["Type"], by: string, id: string) => CommandEffect<S["Type"]>
): Command<I, S, typeof Undeclared>
export function command<I extends Schema.Top, S extends Schema.Top, E extends Schema.Top>(
  input: I,
  success: S,
  error: E,
  run: (input: I["Type"], by: string, id: string) => CommandEffect<S["Type"], E["Type"]>
): Command<I, S, E>
export function command(input: Schema.Top, success: Schema.Top, errorOrRun: Schema.Top | Command["run"], run?: Command["run"]): Command {
  return run === undefined
    ? { input, success, error: Undeclared, run: errorOrRun as Command["run"] }
    : { input, success, error: errorOrRun as Schema.Top, run }
}

export type CommandTable = Record<string, Command<any, any, any>>

/** A read served from the actor's in-memory state, failing with `error`'s values. */
export interface Read<State, P extends Schema.Top = Schema.Top, S extends Schema.Top = Schema.Top, E extends Schema.Top = Schema.Top> {
  readonly payload: P
  readonly success: S
  readonly error: E
  readonly handle: (payload: P["Type"], state: State, id: string) => Effect.Effect<S["Type"], E["Type"]>
}

export type Reads<State> = Record<string, Read<State, any, any, any>>

const NoPayload = Schema.Struct({})

/** The read answering the whole state, or failing with `missing` while there is none. */
export function stateRead<S extends Schema.Top, E extends Schema.Top>(
  success: S,
  missing: E & { readonly make: (props: {}) => E["Type"] }
): Read<S["Type"] | null, typeof NoPayload, S, E>
/** The read answering the whole state, or `not_found` (with `missing`) while there is none. */
export function stateRead<S extends Schema.Top>(success: S, missing: string): Read<S["Type"] | null, typeof NoPayload, S, typeof Rejection>
export function stateRead(
  success: Schema.Top,
  missing: string | (Schema.Top & { readonly make: (props: {}) => unknown })
): Read<any, typeof NoPayload, Schema.Top, Schema.Top> {
  const absent = typeof missing === "string" ? reject("not_found", missing) : missing.make({})
  return {
    payload: NoPayload,
    success,
    error: typeof missing === "string" ? Rejection : missing,
    handle: (_, state) => (state === null ? Effect.fail(absent) : Effect.succeed(state))
  }
}

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

const By = Schema.String.annotate({ description: "The acting user's id" })

/** What a command's message carries: the acting user and the command's input. */
export interface CommandPayload<I> {
  readonly by: string
  readonly input: I
}

/** SQL failures every command may meet: its unique and foreign-key violations, the caller's conflict. */
const SqlConflict = Schema.Union([ItemExists, ReferenceGone])

/** The message a command becomes. */
export interface CommandMessage<C extends Command<any, any, any>> {
  readonly payload: Schema.Codec<CommandPayload<C["input"]["Type"]>, unknown, unknown, unknown>
  readonly success: C["success"]
  readonly error: Schema.Codec<C["error"]["Type"] | ItemExists | ReferenceGone, unknown, unknown, unknown>
}

export type CommandMessages<T extends CommandTable> = { readonly [Name in keyof T]: CommandMessage<T[Name]> }

export type ReadMessages<R> = {
  readonly [Name in keyof R]: R[Name] extends Read<any, infer P, infer S, infer E>
    ? { readonly payload: P; readonly success: S; readonly error: E }
    : never
}

/**
 * A pm actor kind: its commands' messages and its reads' messages. It groups
 * no messages and marks none read-only, so it is also an `ActorKind` of its
 * commands alone and of its reads alone, which `send` and `read` ask.
 */
export interface WorkActor<T extends CommandTable, State = null, R extends Reads<State> = {}>
  extends Omit<
    TypedActorKind<State, CommandMessages<T> & ReadMessages<R>, Sql | BlobStore | ActorSystem | ChangeLog>,
    "group" | "readOnly"
  > {
  readonly commands: T
  readonly reads: R
}

/** SQL failures that are the caller's conflict, not a defect: unique and foreign-key violations. */
const conflicts = (error: SqlError): Effect.Effect<never, ItemExists | ReferenceGone> =>
  error.code === "23505" ? Effect.fail(new ItemExists()) : error.code === "23503" ? Effect.fail(new ReferenceGone()) : Effect.die(error)

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
  (payload: CommandPayload<unknown>, ctx: ActorContext<State>) =>
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
      Effect.catchIf((error) => error instanceof SqlError, conflicts),
      Effect.withSpan(`command ${name}`)
    )

type Handler = (payload: any, ctx: ActorContext<unknown>) => Effect.Effect<unknown, unknown, Sql | BlobStore | ActorSystem | ChangeLog>

/** Declares a pm actor kind from its commands, and optionally its read model. */
export function workActor<T extends CommandTable>(kind: string, commands: T): WorkActor<T>
export function workActor<T extends CommandTable, State, R extends Reads<State>>(
  kind: string,
  commands: T,
  readModel: ReadModel<State, R>
): WorkActor<T, State, R>
export function workActor(
  kind: string,
  commands: CommandTable,
  readModel?: ReadModel<unknown>
): TypedActorKind<any, any, any> & { readonly commands: CommandTable; readonly reads: Reads<any> } {
  const messages: Record<string, Required<MessageSchemas>> = {}
  const handlers: Record<string, Handler> = {}
  for (const [name, entry] of Object.entries<Command>(commands)) {
    messages[name] = {
      payload: Schema.Struct({ by: By, input: entry.input }),
      success: entry.success,
      error: Schema.Union([entry.error, SqlConflict])
    }
    handlers[name] = runCommand(name, entry, readModel)
  }
  for (const [name, read] of Object.entries(readModel?.reads ?? {})) {
    if (Object.hasOwn(messages, name)) throw new Error(`${kind}: "${name}" is both a command and a read`)
    messages[name] = { payload: read.payload, success: read.success, error: read.error }
    handlers[name] = (payload, ctx) => read.handle(payload, ctx.state, ctx.address.id)
  }
  const actor = Actor<unknown>()({
    kind,
    state: readModel?.state ?? Schema.Null,
    initial: () => null,
    ...(readModel ? { rebuild: readModel.rebuild } : {}),
    messages,
    handlers
  })
  return { ...actor, commands, reads: readModel?.reads ?? {} }
}

export type InputOf<C> = C extends Command<infer I, any, any> ? I["Type"] : never

/** Asks the owning actor to run one command; the result and errors follow the command. */
export const send = <T extends CommandTable, Name extends keyof T & string>(
  actor: { readonly commands: T } & ActorKind<any, CommandMessages<T>, any>,
  id: string,
  name: Name,
  by: string,
  input: T[Name]["input"]["Type"]
): Effect.Effect<SuccessOf<typeof actor, Name>, ErrorOf<typeof actor, Name> | ActorError, ActorSystem> =>
  ActorSystem.use((system) => system.ask(actor, id, name, { by, input }))

/** Asks an actor for one of its reads (served from its in-memory state). */
export const read = <R extends Reads<any>, Name extends keyof R & string>(
  actor: { readonly reads: R } & ActorKind<any, ReadMessages<R>, any>,
  id: string,
  name: Name,
  payload: R[Name]["payload"]["Type"]
): Effect.Effect<SuccessOf<typeof actor, Name>, ErrorOf<typeof actor, Name> | ActorError, ActorSystem> =>
  ActorSystem.use((system) => system.ask(actor, id, name, payload))
