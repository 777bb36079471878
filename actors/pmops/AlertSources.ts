/**
 * The operators' alert metrics this module owns (actors/platform/AlertMetrics.ts):
 * webhook deliveries waiting in the dead-letter queue, and automation runs
 * that failed within the rule's window.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { registerAlertSource } from "../platform/AlertMetrics.ts"

export const registerPmOpsAlertSources = (): void => {
  registerAlertSource({
    metric: "dlq_depth",
    read: () =>
      Effect.map(query<{ n: number }>(`SELECT count(*)::int AS n FROM pm_webhook_outbox WHERE status = 'dead'`), (rows) => rows[0]?.n ?? 0)
  })
  registerAlertSource({
    metric: "automation_failures",
    read: (windowMinutes) =>
      Effect.map(
        query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pm_automation_runs
            WHERE status IN ('failed', 'loop_cut', 'interrupted') AND started_at > now() - make_interval(mins => $1)`,
          [windowMinutes]
        ),
        (rows) => rows[0]?.n ?? 0
      )
  })
}
