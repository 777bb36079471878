/**
 * The Hocuspocus wire protocol as the collab endpoint needs it: reading a
 * frame's address and type, and checking a client's frame completely before
 * Hocuspocus sees it, so a malformed, truncated or unknown frame closes that
 * one socket (4400) instead of reaching a document.
 *
 * A frame is `varString address` (the document name; Hocuspocus 4's `name\0session`
 * addresses are refused, Hocuspocus 3 has none), then
 * `varUint type`, then the type's body.
 */
import * as decoding from "lib0/decoding"
import * as Y from "yjs"

export const MessageType = {
  Sync: 0,
  Awareness: 1,
  Auth: 2,
  QueryAwareness: 3,
  SyncReply: 4,
  Stateless: 5,
  BroadcastStateless: 6,
  Close: 7,
  SyncStatus: 8,
  Ping: 9,
  Pong: 10
} as const

const SyncStep1 = 0
const SyncStep2 = 1
const SyncUpdate = 2
const AuthToken = 0

export interface FrameHeader {
  /** The document name (without a session suffix). */
  readonly name: string
  readonly type: number
  /** Offset of the body. */
  readonly bodyOffset: number
}

/** The address and type of a frame the server sends, or undefined when it has none (a bare ping). */
export const readHeader = (frame: Uint8Array): FrameHeader | undefined => {
  try {
    const decoder = decoding.createDecoder(frame)
    const address = decoding.readVarString(decoder)
    const type = decoding.readVarUint(decoder)
    const separator = address.indexOf("\0")
    return { name: separator === -1 ? address : address.slice(0, separator), type, bodyOffset: decoder.pos }
  } catch {
    return undefined
  }
}

export type FrameVerdict =
  | { readonly _tag: "Accept"; readonly name: string; readonly type: number }
  /** Harmless and meaningless here (a provider's pong): drop it. */
  | { readonly _tag: "Ignore" }
  | { readonly _tag: "Refuse"; readonly reason: string }

class Truncated extends Error {}

const within = (decoder: decoding.Decoder) => {
  if (decoder.pos > decoder.arr.length) throw new Truncated("truncated frame")
}

const readBytes = (decoder: decoding.Decoder): Uint8Array => {
  const length = decoding.readVarUint(decoder)
  if (decoder.pos + length > decoder.arr.length) throw new Truncated("truncated frame")
  return decoding.readUint8Array(decoder, length)
}

const readString = (decoder: decoding.Decoder): string => {
  const value = decoding.readVarString(decoder)
  within(decoder)
  return value
}

const readUint = (decoder: decoding.Decoder): number => {
  if (decoder.pos >= decoder.arr.length) throw new Truncated("truncated frame")
  const value = decoding.readVarUint(decoder)
  within(decoder)
  return value
}

/** A Yjs update must decode entirely (structs and delete set). */
const checkUpdate = (update: Uint8Array): string | undefined => {
  try {
    Y.decodeUpdate(update)
    return undefined
  } catch {
    return "malformed Yjs update"
  }
}

const checkAwareness = (update: Uint8Array): string | undefined => {
  try {
    const decoder = decoding.createDecoder(update)
    const count = readUint(decoder)
    for (let i = 0; i < count; i++) {
      readUint(decoder) // client id
      readUint(decoder) // clock
      JSON.parse(readString(decoder))
    }
    return undefined
  } catch {
    return "malformed awareness update"
  }
}

/** Checks one frame from a client entirely. */
export const checkClientFrame = (frame: Uint8Array, maxNameLength = 1024): FrameVerdict => {
  if (frame.length === 1 && frame[0] === MessageType.Pong) return { _tag: "Ignore" }
  try {
    const decoder = decoding.createDecoder(frame)
    const address = readString(decoder)
    // Hocuspocus 3 has no session addresses: it would take `name\0session` for another document.
    if (address.includes("\0")) return { _tag: "Refuse", reason: "session addresses are not supported" }
    const name = address
    if (name.trim() === "") return { _tag: "Refuse", reason: "empty document name" }
    if (address.length > maxNameLength) return { _tag: "Refuse", reason: "document name too long" }
    const type = readUint(decoder)
    switch (type) {
      case MessageType.Sync:
      case MessageType.SyncReply: {
        const step = readUint(decoder)
        const body = readBytes(decoder)
        if (step === SyncStep1) {
          try {
            Y.decodeStateVector(body)
          } catch {
            return { _tag: "Refuse", reason: "malformed state vector" }
          }
        } else if (step === SyncStep2 || step === SyncUpdate) {
          const problem = checkUpdate(body)
          if (problem !== undefined) return { _tag: "Refuse", reason: problem }
        } else return { _tag: "Refuse", reason: `unknown sync step ${step}` }
        break
      }
      case MessageType.Awareness: {
        const problem = checkAwareness(readBytes(decoder))
        if (problem !== undefined) return { _tag: "Refuse", reason: problem }
        break
      }
      case MessageType.Auth: {
        const authType = readUint(decoder)
        if (authType !== AuthToken) return { _tag: "Refuse", reason: `unknown auth message ${authType}` }
        readString(decoder)
        if (decoder.pos < decoder.arr.length) readString(decoder) // provider version
        break
      }
      case MessageType.QueryAwareness:
      case MessageType.Close:
        break
      case MessageType.Stateless:
        readString(decoder)
        break
      default:
        return { _tag: "Refuse", reason: `message type ${type} is not accepted from clients` }
    }
    return { _tag: "Accept", name, type }
  } catch (error) {
    return { _tag: "Refuse", reason: error instanceof Truncated ? "truncated frame" : "malformed frame" }
  }
}
