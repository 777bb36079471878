/**
 * The raw NATS baseline's server side: a plain NATS subscriber that answers
 * every request on `$SUBJECT` with the request's own bytes. No decoding, no
 * routing: what a request-reply over NATS costs at the least.
 *
 * env: NATS_URL, SUBJECT. Prints READY once subscribed (and flushed).
 */
import { connect } from "@nats-io/transport-node"

const nc = await connect({ servers: process.env.NATS_URL ?? "nats://127.0.0.1:4222", name: "atrium-bench-nats-echo" })
const subject = process.env.SUBJECT ?? "atrium.bench.echo"

nc.subscribe(subject, {
  callback: (error, msg) => {
    if (!error) msg.respond(msg.data)
  }
})
await nc.flush()
console.log(`READY nats-echo subject=${subject}`)

process.on("SIGTERM", () => void nc.drain().finally(() => process.exit(0)))
