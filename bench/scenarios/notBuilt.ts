/**
 * Scenarios whose subject isn't built yet. Each keeps its name in the suite
 * (so `npm run bench -- <name>` and the smoke test know it) and answers
 * "not built"; the issue that builds its subject replaces it with a real
 * scenario file exporting a `Scenario`, listed in `index.ts`.
 */
import type { Scenario } from "../Scenario.ts"

const placeholder = (name: string, subject: string, baselines: ReadonlyArray<string>, waitsFor: string): Scenario => ({
  name,
  subject,
  baselines,
  levels: { sweep: [], smoke: 0 },
  workload: () => [`Not built yet: waits for ${waitsFor}.`],
  estimateSec: () => 0,
  run: async () => ({ notBuilt: `${waitsFor} not built yet` })
})

export const collabFanout = placeholder(
  "collab-fanout",
  "one wiki document, one writer, many readers: update fan-out latency through Atrium's collaboration server",
  ["Hocuspocus on the same document", "a bare uWS WebSocket broadcast"],
  "the wiki's collaboration server"
)

export const collabManyDocs = placeholder(
  "collab-many-docs",
  "many documents open at once, a few editors each: throughput and memory per open document",
  ["Hocuspocus with the same documents"],
  "the wiki's collaboration server"
)

export const collabDurable = placeholder(
  "collab-durable",
  "edits acknowledged only once persisted: durable update throughput and latency",
  ["Hocuspocus with its database extension"],
  "the wiki's collaboration server and its persistence"
)

export const collabColdOpen = placeholder(
  "collab-cold-open",
  "opening a stored document nobody has open: time to first sync",
  ["loading the same Yjs update log straight from the store"],
  "the wiki's collaboration server and its persistence"
)

export const cluster = placeholder(
  "cluster",
  "several Atrium nodes sharing actors over NATS: throughput as nodes are added, latency across nodes",
  ["one node"],
  "clustering over NATS"
)
