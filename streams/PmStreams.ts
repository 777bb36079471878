/**
 * This node's pm live updates: listens to the ChangeFeed, orders what it
 * receives per workspace (StreamSequencer), and publishes every event on its
 * topics — to raw uWS sockets with native topic publish, and to Socket.IO
 * rooms — plus notifications to their user's topic and resync notices to a
 * workspace's sockets. It also authorizes connections (tickets) and serves
 * the sessions' reads. Attached by the streams extension at server start.
 */
import { Cause, Effect, Exit } from "effect"
import { ChangeFeed } from "../actors/pm/ChangeFeed.ts"
import * as EventLog from "../actors/pm/EventLog.ts"
import { ApiKey } from "../actors/identity/ApiKey.ts"
import { workspacesByIds } from "../actors/identity/IdentityQueries.ts"
import { Workspace } from "../actors/identity/Workspace.ts"
import * as Visibility from "../actors/pm/Visibility.ts"
import { notificationView } from "../actors/pm/Notifications.ts"
import type { TemplatedApp } from "../facade/uws.ts"
import { query, type Sql } from "../persistence/Sql.ts"
import { ActorSystem } from "../runtime/ActorSystem.ts"
import { attachSocketIo } from "./SocketIoStreams.ts"
import type { StreamOptions } from "./StreamOptions.ts"
import { StreamSequencer } from "./StreamSequencer.ts"
import { CloseCode, StreamSession, type StreamBackend } from "./StreamSession.ts"
import type { Authorization, StreamNode } from "./StreamNode.ts"
import { attachRawSocket } from "./StreamSocket.ts"
import { StreamBatcher } from "./StreamBatcher.ts"
import { batchedTopic, controlTopic, topicsOf, userTopic } from "./StreamTopics.ts"
import { consumeTicket } from "./WebSocketTickets.ts"
import { logError } from "../runtime/Log.ts"

export const attachPmStreams = (app: TemplatedApp, options: StreamOptions) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<Sql | ChangeFeed | ActorSystem>()
    const feed = yield* ChangeFeed
    /** Runs an effect from a socket callback; a failure rejects with the error itself (e.g. a Rejection). */
    const run = <A, E>(effect: Effect.Effect<A, E, Sql | ActorSystem>): Promise<A> =>
      Effect.runPromiseExitWith(context)(effect).then((exit) => {
        if (Exit.isSuccess(exit)) return exit.value
        throw Cause.squash(exit.cause)
      })
    const log = (what: string) => (error: unknown) => logError("pm streams", what, error)

    let socketIo: ReturnType<typeof attachSocketIo> | undefined
    const publish = (topic: string, frame: object, json: string) => {
      app.publish(topic, json, false)
      socketIo?.publish(topic, frame)
    }
    // Every frame goes through the batcher: as itself to the plain topics, coalesced to the batched ones.
    const batcher = new StreamBatcher(options.coalesceMillis, publish)

    const sequencer = new StreamSequencer({
      lastSeqs: (ids) => run(EventLog.lastSeqs(ids)),
      readRange: (workspaceId, after, upTo, limit) => run(EventLog.readRange(workspaceId, after, upTo, limit)),
      deliver: (event, notifications) => {
        const frame = EventLog.eventFrame(event)
        const json = JSON.stringify(frame)
        const topics = topicsOf(event)
        batcher.add(event.workspaceId, topics.map(batchedTopic), frame, json, true, topics)
        for (const notification of notifications) {
          const note = { type: "notification", notification: notificationView(notification) }
          const noteJson = JSON.stringify(note)
          const topic = userTopic(notification.workspaceId, notification.userId)
          batcher.add(notification.workspaceId, [batchedTopic(topic)], note, noteJson, false, [topic])
        }
      },
      resync: (workspaceId, seq) => {
        const frame = { type: "resync", workspaceId, seq }
        const json = JSON.stringify(frame)
        // After everything delivered before it.
        batcher.flush(workspaceId)
        publish(controlTopic(workspaceId), frame, json)
        publish(batchedTopic(controlTopic(workspaceId)), frame, json)
      },
      onError: log("reading the event log")
    })

    const backend: StreamBackend = {
      lastDelivered: (workspaceId) => sequencer.lastDelivered(workspaceId),
      flush: (workspaceId) => batcher.flush(workspaceId),
      resolveScope: (viewer, scope, id) => run(Visibility.resolveScope(viewer, scope, id)),
      visiblePrivateSpaces: (viewer) => run(Visibility.visiblePrivateSpaces(viewer)),
      readScoped: (workspaceId, filter, after, upTo, limit) => run(EventLog.readScoped(workspaceId, filter, after, upTo, limit)),
      oldestSeq: (workspaceId) => run(EventLog.oldestSeq(workspaceId)),
      maxReplay: options.maxReplay,
      maxReplayBytes: Math.floor(options.maxBackpressure / 2)
    }

    /** Open sessions per workspace, for re-checking their access while they live. */
    const sessions = new Map<string, Set<StreamSession>>()
    const revalidate = () =>
      run(
        Effect.gen(function* () {
          const workspaceIds = [...sessions.keys()]
          if (workspaceIds.length === 0) return
          const workspaces = yield* workspacesByIds(workspaceIds)
          const roles = new Map(
            [...workspaces].map(([id, ws]) => [id, new Map(ws.members.map((m) => [m.userId, m.role] as const))] as const)
          )
          const restricted: Array<[StreamSession, ReadonlyArray<string>]> = []
          for (const [workspaceId, open] of sessions) {
            for (const session of open) {
              const role = roles.get(workspaceId)?.get(session.userId)
              if (role === undefined) session.revoke(CloseCode.forbidden, "no longer a member of this workspace")
              else if (role !== session.role) session.revoke(CloseCode.accessChanged, "your role changed; reconnect")
              else if (role !== "owner" && role !== "admin" && session.spacesInUse().length > 0)
                restricted.push([session, session.spacesInUse()])
            }
          }
          if (restricted.length === 0) return
          // Non-admins: every space they follow that is private now must still count them as members.
          const spaceIds = [...new Set(restricted.flatMap(([, spaces]) => spaces))]
          const privateIds = new Set(
            (yield* query<{ id: string }>("SELECT id FROM pm_spaces WHERE id = ANY($1::text[]) AND is_private", [spaceIds])).map(
              (r) => r.id
            )
          )
          if (privateIds.size === 0) return
          const memberships = new Set(
            (yield* query<{ space_id: string; user_id: string }>(
              "SELECT space_id, user_id FROM pm_space_members WHERE space_id = ANY($1::text[])",
              [[...privateIds]]
            )).map((r) => `${r.space_id} ${r.user_id}`)
          )
          for (const [session, spaces] of restricted) {
            if (spaces.some((id) => privateIds.has(id) && !memberships.has(`${id} ${session.userId}`))) {
              session.revoke(CloseCode.accessChanged, "your access to a private space changed; reconnect")
            }
          }
        })
      )

    const refused = (code: number, reason: string): Authorization => ({ _tag: "Refused", code, reason })
    const node: StreamNode = {
      authorize: (ticket) =>
        run(
          Effect.gen(function* () {
            const claims = yield* consumeTicket(ticket)
            if (claims === undefined) return refused(CloseCode.unauthorized, "invalid, expired or already used ticket")
            if (claims.apiKeyId !== null) {
              // Issued to an API key: it must still be live (revocation takes effect at once, like on REST).
              const live = yield* ApiKey.client(yield* ActorSystem)(claims.apiKeyId)
                .get({})
                .pipe(Effect.option)
              if (live._tag === "None") return refused(CloseCode.unauthorized, "the API key behind this ticket was revoked")
            }
            const role = yield* Workspace.client(yield* ActorSystem)(claims.workspaceId)
              .roleOf({ userId: claims.userId })
              .pipe(Effect.option)
            if (role._tag === "None") return refused(CloseCode.forbidden, "no longer a member of this workspace")
            return {
              _tag: "Authorized",
              viewer: { userId: claims.userId, workspaceId: claims.workspaceId, role: role.value }
            } satisfies Authorization
          })
        ).catch((error) => {
          log("authorizing a connection")(error)
          return refused(CloseCode.unavailable, "live updates are unavailable; retry")
        }),
      open: (viewer, transport) => {
        const session = new StreamSession(viewer, transport, backend, sequencer.retain(viewer.workspaceId))
        const open = sessions.get(viewer.workspaceId)
        if (open === undefined) sessions.set(viewer.workspaceId, new Set([session]))
        else open.add(session)
        return session
      },
      closed: (session) => {
        if (!session.dispose()) return
        sequencer.release(session.workspaceId)
        const open = sessions.get(session.workspaceId)
        open?.delete(session)
        if (open?.size === 0) {
          sessions.delete(session.workspaceId)
          batcher.forget(session.workspaceId)
        }
      }
    }

    const rawSockets = attachRawSocket(app, node, options.maxBackpressure)
    socketIo = attachSocketIo(app, node, options.maxBackpressure)

    const unlisten = feed.listen({
      batch: (batch) => sequencer.offer(batch),
      reconnected: () => void sequencer.sweep().catch(log("re-checking after a reconnect"))
    })
    // Batches lost between nodes (core NATS is at most once) are found by comparing with the log's counters.
    const sweeper = setInterval(() => void sequencer.sweep().catch(log("sweeping")), options.sweepMillis)
    sweeper.unref()
    const revalidator = setInterval(() => void revalidate().catch(log("re-checking access")), options.revalidateMillis)
    revalidator.unref()
    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        clearInterval(sweeper)
        clearInterval(revalidator)
        unlisten()
        batcher.close()
        rawSockets.closeAll()
        await socketIo?.close()
      })
    )
  })
