/**
 * Test helpers for NATS (with JetStream), following the convention of
 * `database.ts`: a suite calls `await checkNats("<suite name>")` and skips
 * itself when that returns false; with `ATRIUM_REQUIRE_SERVICES=1` an
 * unreachable NATS throws, so the suite FAILS instead.
 *
 * `ATRIUM_TEST_NATS_URL` (default `nats://127.0.0.1:4222`).
 */
import { randomBytes } from "node:crypto"
import { connect } from "@nats-io/transport-node"
import { jetstreamManager } from "@nats-io/jetstream"
import { Kvm } from "@nats-io/kv"
import { bucketName } from "../../runtime/NatsTransport.ts"
import { servicesRequired } from "./database.ts"

export const natsUrl = (): string =>
  process.env.ATRIUM_TEST_NATS_URL !== undefined && process.env.ATRIUM_TEST_NATS_URL !== ""
    ? process.env.ATRIUM_TEST_NATS_URL
    : "nats://127.0.0.1:4222"

/** A unique subject / bucket prefix per test run. */
export const testPrefix = (): string => `atrium_test_${randomBytes(5).toString("hex")}`

/** Whether NATS answers and has JetStream enabled. */
export const natsAvailable = async (url: string = natsUrl(), timeoutMs = 2000): Promise<boolean> => {
  try {
    const nc = await connect({ servers: url, timeout: timeoutMs, maxReconnectAttempts: 0 })
    try {
      await (await jetstreamManager(nc, { timeout: timeoutMs })).getAccountInfo()
      return true
    } finally {
      await nc.close().catch(() => {})
    }
  } catch {
    return false
  }
}

export const checkNats = async (suite: string): Promise<boolean> => {
  if (await natsAvailable()) return true
  if (servicesRequired()) {
    throw new Error(
      `[${suite}] NATS (with JetStream) is unreachable at ${natsUrl()} and ATRIUM_REQUIRE_SERVICES=1: failing instead of skipping`
    )
  }
  console.warn(
    [
      "",
      "!".repeat(78),
      `!! SKIPPED: ${suite}`,
      `!! NATS with JetStream is unreachable at ${natsUrl()}.`,
      "!! Set ATRIUM_TEST_NATS_URL, or ATRIUM_REQUIRE_SERVICES=1 to fail instead.",
      "!".repeat(78),
      ""
    ].join("\n")
  )
  return false
}

/** The lease table of cluster `prefix`: shard → owner node id (read straight from the KV bucket). */
export const readLeases = async (prefix: string): Promise<Map<number, string>> => {
  const nc = await connect({ servers: natsUrl() })
  try {
    const kv = await new Kvm(nc).open(bucketName(prefix))
    const owners = new Map<number, string>()
    for await (const key of await kv.keys("shard.>")) {
      const entry = await kv.get(key)
      if (entry !== null && entry.operation === "PUT") owners.set(Number(key.slice(6)), entry.string())
    }
    return owners
  } finally {
    await nc.close()
  }
}

/** Shards owned per node. */
export const countByOwner = (owners: Map<number, string>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const owner of owners.values()) counts.set(owner, (counts.get(owner) ?? 0) + 1)
  return counts
}

/** Deletes the lease bucket of a test cluster. */
export const deleteBucket = async (prefix: string): Promise<void> => {
  const nc = await connect({ servers: natsUrl() })
  try {
    const jsm = await jetstreamManager(nc)
    await jsm.streams.delete(`KV_${bucketName(prefix)}`).catch(() => false)
  } finally {
    await nc.close()
  }
}
