/**
 * Collab servers meeting over NATS (like Hocuspocus's Redis extension, on
 * NATS). Per document subject `<prefix>.collab.doc.<base64url name>`:
 *
 * - UPDATE: an update made on a node, published once it is durable, so a
 *   receiver never needs to log it again;
 * - AWARENESS: cursors and selections, published at once;
 * - SYNC: a node's state vector and a digest of its delete set. Sent when a
 *   node loads a document and every heartbeat; a peer that holds something
 *   the sender lacks answers with a REPAIR (the diff, addressed to it, which
 *   the receiver logs: it may not be durable yet), and one that lacks
 *   something answers with its own SYNC. Lost messages (a NATS reconnect)
 *   and updates in flight while a node loaded are healed this way;
 * - REMOVED: the document was deleted.
 *
 * Presence (who edits what) travels on `<prefix>.collab.presence` with a
 * heartbeat; a dead node's entries expire after three heartbeats, and no
 * document ever depends on a particular node: any node loads any document
 * from SQL. Frames larger than the server's max_payload travel in chunks.
 */
import { createHash, randomUUID } from "node:crypto"
import type { Document } from "@hocuspocus/server"
import { connect, type NatsConnection, type Subscription } from "@nats-io/transport-node"
import * as decoding from "lib0/decoding"
import * as encoding from "lib0/encoding"
import { encodeAwarenessUpdate } from "y-protocols/awareness"
import * as Y from "yjs"
import type { ClusterHost, ClusterNode } from "./Cluster.ts"
import type { Editor } from "../actors/LiveDocuments.ts"
import { logWarning } from "../runtime/Log.ts"

const Kind = { Chunk: 0, Update: 1, Awareness: 2, Sync: 3, Repair: 4, Removed: 5 } as const

export interface NatsClusterOptions {
  readonly url: string
  readonly prefix: string
  readonly nodeId: string
  readonly heartbeatSeconds: number
}

const token = (name: string) => Buffer.from(name, "utf8").toString("base64url")
const subjectOf = (prefix: string, name: string) => `${prefix}.collab.doc.${token(name)}`

/** A digest of the document's delete set: equal state vectors can still differ in deletions. */
const deleteSetDigest = (doc: Y.Doc): string =>
  // The diff against its own state vector holds no structs: only the delete set.
  createHash("sha1")
    .update(Y.encodeStateAsUpdate(doc, Y.encodeStateVector(doc)))
    .digest("base64")

/** Whether `mine` has a clock beyond `theirs` for some client. */
const ahead = (mine: Map<number, number>, theirs: Map<number, number>): boolean => {
  for (const [client, clock] of mine) if (clock > (theirs.get(client) ?? 0)) return true
  return false
}

interface Joined {
  readonly document: Document
  readonly subscription: Subscription
}

interface Presence {
  readonly editors: ReadonlyArray<Editor>
  readonly at: number
}

interface Partial {
  readonly parts: Array<Uint8Array | undefined>
  received: number
  readonly started: number
}

export const natsCluster = async (host: ClusterHost, options: NatsClusterOptions): Promise<ClusterNode> => {
  const nc: NatsConnection = await connect({
    servers: options.url,
    name: `atrium-collab-${options.nodeId}`,
    maxReconnectAttempts: -1,
    waitOnFirstConnect: true
  })
  const { prefix, nodeId } = options
  const joined = new Map<string, Joined>()
  const presence = new Map<string, Map<string, Presence>>()
  const partials = new Map<string, Partial>()
  const presenceSubject = `${prefix}.collab.presence`
  let closed = false

  const maxFrame = () => Math.max(8 * 1024, (nc.info?.max_payload ?? 1024 * 1024) - 4096)

  const send = (subject: string, frame: Uint8Array) => {
    if (closed) return
    try {
      const limit = maxFrame()
      if (frame.length <= limit) {
        nc.publish(subject, frame)
        return
      }
      const id = randomUUID()
      const count = Math.ceil(frame.length / limit)
      for (let index = 0; index < count; index++) {
        const encoder = encoding.createEncoder()
        encoding.writeVarUint(encoder, Kind.Chunk)
        encoding.writeVarString(encoder, nodeId)
        encoding.writeVarString(encoder, id)
        encoding.writeVarUint(encoder, index)
        encoding.writeVarUint(encoder, count)
        encoding.writeVarUint8Array(encoder, frame.subarray(index * limit, (index + 1) * limit))
        nc.publish(subject, encoding.toUint8Array(encoder))
      }
    } catch (error) {
      // Disconnected or closing: the heartbeat's SYNC repairs what this loses.
      if (!closed) logWarning("collab", "NATS publish failed", error)
    }
  }

  const frameOf = (kind: number, write: (encoder: encoding.Encoder) => void) => {
    const encoder = encoding.createEncoder()
    encoding.writeVarUint(encoder, kind)
    encoding.writeVarString(encoder, nodeId)
    write(encoder)
    return encoding.toUint8Array(encoder)
  }

  const syncFrame = (document: Document, initial: boolean) =>
    frameOf(Kind.Sync, (encoder) => {
      encoding.writeVarUint8Array(encoder, Y.encodeStateVector(document))
      encoding.writeVarString(encoder, deleteSetDigest(document))
      encoding.writeVarUint(encoder, initial ? 1 : 0)
    })

  const localAwareness = (document: Document): Uint8Array | undefined => {
    const clients = [...document.connections.values()].flatMap((entry) => [...entry.clients] as Array<number>)
    return clients.length === 0 ? undefined : encodeAwarenessUpdate(document.awareness, clients)
  }

  const onSync = (name: string, from: string, decoder: decoding.Decoder) => {
    const entry = joined.get(name)
    if (entry === undefined) return
    const document = entry.document
    const theirVector = decoding.readVarUint8Array(decoder)
    const theirDigest = decoding.readVarString(decoder)
    const initial = decoding.readVarUint(decoder) === 1
    const theirs = Y.decodeStateVector(theirVector)
    const mine = Y.decodeStateVector(Y.encodeStateVector(document))
    const sameDeletes = theirDigest === deleteSetDigest(document)
    if (ahead(mine, theirs) || !sameDeletes) {
      const diff = Y.encodeStateAsUpdate(document, theirVector)
      send(
        subjectOf(prefix, name),
        frameOf(Kind.Repair, (encoder) => {
          encoding.writeVarString(encoder, from)
          encoding.writeVarUint8Array(encoder, diff)
        })
      )
    }
    if (ahead(theirs, mine) || !sameDeletes) send(subjectOf(prefix, name), syncFrame(document, false))
    if (initial) {
      const awareness = localAwareness(document)
      if (awareness !== undefined)
        send(
          subjectOf(prefix, name),
          frameOf(Kind.Awareness, (encoder) => encoding.writeVarUint8Array(encoder, awareness))
        )
    }
  }

  const handle = (name: string, frame: Uint8Array) => {
    const decoder = decoding.createDecoder(frame)
    const kind = decoding.readVarUint(decoder)
    const from = decoding.readVarString(decoder)
    if (from === nodeId) return
    switch (kind) {
      case Kind.Chunk: {
        const id = `${from}/${decoding.readVarString(decoder)}`
        const index = decoding.readVarUint(decoder)
        const count = decoding.readVarUint(decoder)
        const part = decoding.readVarUint8Array(decoder)
        let partial = partials.get(id)
        if (partial === undefined) {
          partial = { parts: new Array(count), received: 0, started: Date.now() }
          partials.set(id, partial)
        }
        if (partial.parts[index] === undefined) {
          partial.parts[index] = part.slice()
          partial.received++
        }
        if (partial.received === count) {
          partials.delete(id)
          handle(name, Buffer.concat(partial.parts as Array<Uint8Array>))
        }
        return
      }
      case Kind.Update:
        host.applyPeerUpdate(name, decoding.readVarUint8Array(decoder))
        return
      case Kind.Awareness:
        host.applyPeerAwareness(name, decoding.readVarUint8Array(decoder))
        return
      case Kind.Sync:
        onSync(name, from, decoder)
        return
      case Kind.Repair: {
        const target = decoding.readVarString(decoder)
        if (target === nodeId) host.applyRepair(name, decoding.readVarUint8Array(decoder))
        return
      }
      case Kind.Removed:
        host.removedByPeer(name)
        return
    }
  }

  const presenceSubscription = nc.subscribe(presenceSubject, {
    callback: (error, message) => {
      if (error !== null) return
      try {
        const body = message.json<{ node: string; name: string; editors: Array<Editor> }>()
        if (body.node === nodeId) return
        let byNode = presence.get(body.name)
        if (body.editors.length === 0) {
          byNode?.delete(body.node)
          if (byNode?.size === 0) presence.delete(body.name)
          return
        }
        if (byNode === undefined) presence.set(body.name, (byNode = new Map()))
        byNode.set(body.node, { editors: body.editors, at: Date.now() })
      } catch {
        // a foreign or garbled message on our subject
      }
    }
  })

  const publishPresence = (name: string, editors: ReadonlyArray<Editor>) => {
    if (closed) return
    try {
      nc.publish(presenceSubject, JSON.stringify({ node: nodeId, name, editors }))
    } catch {
      // the heartbeat re-announces
    }
  }

  const heartbeat = setInterval(() => {
    for (const [name, entry] of joined) {
      if (!entry.document.isDestroyed) send(subjectOf(prefix, name), syncFrame(entry.document, false))
    }
    for (const [name, editors] of host.localPresence()) if (editors.length > 0) publishPresence(name, editors)
    const expiry = Date.now() - options.heartbeatSeconds * 3000
    for (const [name, byNode] of presence) {
      for (const [node, entry] of byNode) if (entry.at < expiry) byNode.delete(node)
      if (byNode.size === 0) presence.delete(name)
    }
    for (const [id, partial] of partials) if (partial.started < expiry) partials.delete(id)
  }, options.heartbeatSeconds * 1000)
  heartbeat.unref()

  return {
    nodeId,
    join: (name, document) => {
      if (closed || joined.has(name)) return
      const subscription = nc.subscribe(subjectOf(prefix, name), {
        callback: (error, message) => {
          if (error !== null) return
          try {
            handle(name, message.data)
          } catch (cause) {
            logWarning("collab", `dropped a malformed cluster frame for ${name}`, cause)
          }
        }
      })
      joined.set(name, { document, subscription })
      send(subjectOf(prefix, name), syncFrame(document, true))
    },
    leave: (name) => {
      const entry = joined.get(name)
      if (entry === undefined) return
      joined.delete(name)
      try {
        entry.subscription.unsubscribe()
      } catch {
        // closed
      }
    },
    publishUpdate: (name, update) =>
      send(
        subjectOf(prefix, name),
        frameOf(Kind.Update, (encoder) => encoding.writeVarUint8Array(encoder, update))
      ),
    publishAwareness: (name, update) =>
      send(
        subjectOf(prefix, name),
        frameOf(Kind.Awareness, (encoder) => encoding.writeVarUint8Array(encoder, update))
      ),
    publishPresence,
    publishRemoved: (name) =>
      send(
        subjectOf(prefix, name),
        frameOf(Kind.Removed, () => {})
      ),
    remoteEditors: (name) => {
      const expiry = Date.now() - options.heartbeatSeconds * 3000
      return [...(presence.get(name)?.values() ?? [])].filter((entry) => entry.at >= expiry).flatMap((entry) => entry.editors)
    },
    close: async () => {
      if (closed) return
      clearInterval(heartbeat)
      // Tell peers our editors are gone.
      for (const name of joined.keys()) publishPresence(name, [])
      closed = true
      presenceSubscription.unsubscribe()
      joined.clear()
      await nc.drain().catch(() => nc.close().catch(() => {}))
    }
  }
}
