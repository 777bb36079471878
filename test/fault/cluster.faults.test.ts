/**
 * Issue 21's fault suite: two Atrium processes on one PostgreSQL and one NATS,
 * node A's connections to both through a FaultProxy, concurrent writers and
 * readers through both nodes (see workload.ts). Each scenario applies one
 * fault under load, heals it, and checks that no acknowledged write was lost,
 * doubled or overwritten and that no read went back in time. Figures (503s,
 * recovery) are printed, never asserted.
 *
 * Runs in CI (ATRIUM_REQUIRE_SERVICES=1 fails it without NATS/PostgreSQL);
 * skips loudly elsewhere when they are missing.
 */
import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkPostgres } from "../support/database.ts"
import { type FaultCluster, startFaultCluster } from "../support/faultCluster.ts"
import { checkNats } from "../support/nats.ts"
import { type Receivers, startReceivers } from "./receivers.ts"
import { call, type Fixture, makeFixture, ownerOf, settled, sleep, startLoad, untilBalanced, verify } from "./workload.ts"

const suite = "fault suite (two Atrium nodes, faults between them and NATS/PostgreSQL)"
const ready = (await checkPostgres(suite)) && (await checkNats(suite))

/** Waits (bounded) until `kind/id` is served by node B: the hand-over a fault of node A forces. */
const untilOwnedByB = async (cluster: FaultCluster, kind: string, id: string, timeoutMs = 30_000) => {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if ((await ownerOf(cluster, kind, id)) === "b") return true
    await sleep(200)
  }
  return false
}

describe.skipIf(!ready)("a two-node cluster under faults", () => {
  let cluster: FaultCluster
  let receivers: Receivers
  let token: string
  /** Node A's exits after faults it should have survived, with its last output. */
  const exits: Array<string> = []
  beforeAll(async () => {
    receivers = await startReceivers()
    cluster = await startFaultCluster({
      // Shard leases of 6 s instead of the default 10: each fault that outlasts A's leases waits about one lease
      // (rebalancing, a third of one), and the invariants checked do not depend on its length. Still long enough
      // that the 1.5 s NATS reset stays within A's leases (renewed every 2 s, served until 1.5 s before they lapse).
      ACTOR_LEASE_SECONDS: "6",
      SMTP_URL: receivers.smtpUrl,
      MAIL_POLL_MS: "100",
      MAIL_RETRY_SECONDS: "2",
      ATRIUM_ALLOW_PRIVATE_URLS: "1",
      PM_WEBHOOK_POLL_MS: "100",
      PM_WEBHOOK_RETRY_BASE_MS: "100",
      PM_WEBHOOK_RETRY_CAP_MS: "1000",
      // A killed node's claimed deliveries go to the other node after this long (a delivery's timeout stays below it).
      PM_WEBHOOK_LEASE_SECONDS: "5",
      PM_WEBHOOK_TIMEOUT_MS: "4000"
    })
    const email = `fault-owner-${Date.now().toString(36)}@example.com`
    await settled(cluster.b, "POST", "/pm/v1/auth/register", undefined, { email, password: "correct horse battery", name: "Fault Owner" })
    token = (await settled(cluster.b, "POST", "/pm/v1/auth/login", undefined, { email, password: "correct horse battery" })).accessToken
  }, 180_000)
  afterAll(async () => {
    await cluster?.close()
    await receivers?.close()
  }, 60_000)

  /**
   * Sets up a fresh fixture on a balanced cluster, runs `fault` under load,
   * verifies after it healed. `outboxes`: the fixture also has a webhook
   * endpoint and the load requests password-reset mails, each checked to
   * arrive exactly once; `fault` calls `killing` right before it kills a node.
   */
  const scenario = async (
    label: string,
    invitees: number,
    outboxes: boolean,
    fault: (fixture: Fixture, killing: () => void) => Promise<void>
  ) => {
    // A node A that a previous scenario killed (or that exited) is started again: each fault needs two nodes.
    if (!cluster.a.alive()) await cluster.restartA()
    await untilBalanced(cluster)
    const fixture = await makeFixture(cluster, token, label, invitees, outboxes ? receivers.hookUrl(label) : undefined)
    const load = startLoad(cluster, fixture)
    let killedAt: number | undefined
    try {
      await sleep(1500)
      await fault(fixture, () => {
        killedAt = performance.now()
      })
    } catch (error) {
      await load.stop()
      throw error
    } finally {
      cluster.natsProxy.set("pass")
      cluster.pgProxy.set("pass")
      cluster.a.resume()
    }
    const healedAt = performance.now()
    // Load goes on after healing: stale reads show up when the cut-off node serves again.
    await sleep(5000)
    const log = await load.stop()
    const live = [cluster.a, cluster.b].filter((node) => node.alive())
    const verdict = await verify(
      cluster,
      fixture,
      log,
      live,
      healedAt,
      outboxes ? { receivers, ...(killedAt === undefined ? {} : { killedAt }) } : undefined
    )
    console.log(verdict.summary)
    expect(verdict.violations).toEqual([])
    // A fault the node should survive (all but the kill) must leave it running: checked by the last test.
    if (killedAt === undefined && !cluster.a.alive()) exits.push(`after ${label}:\n${cluster.a.output().slice(-4000)}`)
  }

  it("A's database held, then its NATS cut past its lease: no acknowledged member, subtask or update is lost or overwritten", async () => {
    await scenario("db-hold-nats-reset", 40, false, async (fixture) => {
      // Held as A sends a save of the workspace's state (its parameters carry the id and the member list).
      const id = Buffer.from(fixture.workspaceId)
      const caught = await cluster.pgProxy.holdWhen((chunk) => chunk.includes(id) && chunk.includes('"members"'), 8000)
      if (!caught) {
        console.warn("[fault db-hold-nats-reset] no save of the workspace seen within 8 s: holding A's database traffic as it is")
        cluster.pgProxy.set("hold")
      }
      await sleep(1000)
      cluster.natsProxy.set("reset")
      // B takes A's shards once A's leases lapse; its acknowledged writes must survive A's held saves landing.
      await untilOwnedByB(cluster, "workspace", fixture.workspaceId)
      await sleep(3000)
      cluster.pgProxy.release()
      await sleep(1500)
      cluster.natsProxy.set("pass")
    })
  }, 150_000)

  it("A's NATS connection reset for 1.5 s: no read through A goes back in time after it reconnects", async () => {
    await scenario("nats-reset-1.5s", 30, false, async () => {
      cluster.natsProxy.set("reset")
      await sleep(1500)
      cluster.natsProxy.set("pass")
    })
  }, 150_000)

  it("A's NATS connection blackholed past its lease: B goes on writing, no stale read after A returns", async () => {
    await scenario("nats-blackhole", 40, false, async (fixture) => {
      cluster.natsProxy.set("blackhole")
      await untilOwnedByB(cluster, "workspace", fixture.workspaceId)
      await sleep(2000)
      cluster.natsProxy.set("pass")
    })
  }, 150_000)

  it("A paused (SIGSTOP) past its lease, then resumed: what it had in flight does not undo B's acknowledged writes", async () => {
    await scenario("sigstop", 40, false, async (fixture) => {
      cluster.a.pause()
      await untilOwnedByB(cluster, "workspace", fixture.workspaceId)
      await sleep(2000)
      cluster.a.resume()
    })
  }, 150_000)

  it("both nodes claiming the outboxes at once: each webhook delivered and each mail sent exactly once", async () => {
    await scenario("outboxes", 30, true, async () => {
      await sleep(6000)
    })
  }, 150_000)

  // Before the kill: node A is still running here, so no restart (a node start and a rebalance) is needed.
  it("a write's reply lost on its way to node A (its NATS cut right after the owner committed): A re-sends it, it is applied once", async () => {
    if (!cluster.a.alive()) await cluster.restartA()
    await untilBalanced(cluster)
    // The fixture's list lives on B: a task created through A is asked of B, and B's reply crosses A's proxy.
    const fixture = await makeFixture(cluster, token, "reply-lost", 0)
    const listOnB = (await ownerOf(cluster, "pmList", fixture.listId)) === "b"
    const name = `reply-lost-${Date.now().toString(36)}`
    const cut = cluster.natsProxy.resetWhen((chunk) => chunk.includes(name), 15_000)
    const answer = call(cluster.a, "POST", `/pm/v1/lists/${fixture.listId}/tasks`, token, { name, description: "once" })
    const wasCut = await cut
    // A stays cut off for a second (new connections refused), then reconnects and re-sends the write with its key.
    await sleep(1000)
    cluster.natsProxy.set("pass")
    const answered = await answer
    const sql = postgres(cluster.database.url, { max: 1, onnotice: () => {} })
    let stored: number
    try {
      stored = (await sql<Array<{ n: number }>>`select count(*)::int as n from pm_tasks where name = ${name} and deleted_at is null`)[0]!.n
    } finally {
      await sql.end()
    }
    console.log(
      `[fault reply-lost] reply cut: ${wasCut}; answered ${answered.status} after ${Math.round(answered.answered - answered.sent)} ms`
    )
    if (listOnB) expect(wasCut).toBe(true)
    else console.warn("[fault reply-lost] the list is not on node B: its reply did not cross A's proxy")
    // Acknowledged (the re-send got the first attempt's reply) and present exactly once.
    expect(answered.status, answered.text).toBeGreaterThanOrEqual(200)
    expect(answered.status, answered.text).toBeLessThan(300)
    expect(answered.body?.name).toBe(name)
    expect(stored).toBe(1)
  }, 150_000)

  it("A killed (SIGKILL) under load: B serves every acknowledged write, and sends each webhook and mail once", async () => {
    await scenario("sigkill", 40, true, async (fixture, killing) => {
      await sleep(1500)
      killing()
      await cluster.a.kill()
      await untilOwnedByB(cluster, "workspace", fixture.workspaceId)
      await sleep(2000)
    })
  }, 150_000)

  // A node that lost its database connection mid-transaction used to crash (postgres.js 3.4.9 writing to the
  // closed socket, porsager/postgres#1208): persistence/PostgresSql.ts never writes to a lost transaction's
  // connection again, and limits how long any statement may go unanswered.
  it("node A survives every fault but the kill (it never exits on its own)", () => {
    expect(exits).toEqual([])
  })
  afterAll(() => {
    if (exits.length > 0) console.warn(`[fault] node A exited after a fault it should survive:\n${exits.join("\n\n")}`)
  })
})
