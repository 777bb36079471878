/** Atrium's configuration, read from the environment once at startup (see README: Configuration). */
export interface AtriumConfig {
  readonly host: string
  readonly port: number
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  readonly natsUrl: string | undefined
  /** Prefix of NATS subjects and KV buckets, so several clusters (or test runs) share one NATS. */
  readonly natsPrefix: string
  readonly bodyLimitBytes: number
  readonly actorIdleMillis: number
  /**
   * ACTOR_MAX_RESIDENT: activations a node keeps in memory (default 5,000; 0: no bound). Beyond it the least
   * recently used idle ones passivate, besides those idle for ACTOR_IDLE_SECONDS: a scan of every task costs
   * memory for this many, not for every task (a resident task actor holds about 12 KiB of heap: bench/memory-probe.ts).
   */
  readonly actorMaxResident: number
  /**
   * HEAP_GROWTH_PERCENT: after each full collection V8 lets the heap grow to (1 + this/100) × what survived it
   * before the next one (default 100: twice the live heap, like Go's GOGC=100; 0: V8's own adaptive factor, which
   * goes up to 4× under a steady stream of reads and holds that much garbage in RSS). Set by `npm start` for its process.
   */
  readonly heapGrowthPercent: number
  /** Shard lease TTL of a cluster (NATS): a dead node's actors move after about this long. The same on every node. */
  readonly actorLeaseMillis: number
  readonly demo: boolean
}

const positive = (name: string, fallback: number, env: NodeJS.ProcessEnv): number => {
  const raw = env[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`)
  return value
}

const atLeast = (name: string, fallback: number, min: number, env: NodeJS.ProcessEnv): number => {
  const value = positive(name, fallback, env)
  if (value < min) throw new Error(`${name} must be at least ${min}, got "${env[name]}"`)
  return value
}

const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? undefined : value)

export const fromEnv = (env: NodeJS.ProcessEnv = process.env, argv: ReadonlyArray<string> = process.argv): AtriumConfig => ({
  host: nonEmpty(env.HOST) ?? "0.0.0.0",
  port: positive("PORT", 8080, env),
  dataDir: nonEmpty(env.DATA_DIR) ?? "./data",
  databaseUrl: nonEmpty(env.DATABASE_URL),
  natsUrl: nonEmpty(env.NATS_URL),
  natsPrefix: nonEmpty(env.NATS_PREFIX) ?? "atrium",
  bodyLimitBytes: positive("BODY_LIMIT_BYTES", 1024 * 1024, env),
  actorIdleMillis: positive("ACTOR_IDLE_SECONDS", 300, env) * 1000,
  actorMaxResident: Math.floor(positive("ACTOR_MAX_RESIDENT", 5_000, env)),
  actorLeaseMillis: atLeast("ACTOR_LEASE_SECONDS", 10, 1, env) * 1000,
  heapGrowthPercent: Math.floor(positive("HEAP_GROWTH_PERCENT", 100, env)),
  demo: argv.includes("--demo") || env.DEMO === "1" || env.DEMO === "true"
})
