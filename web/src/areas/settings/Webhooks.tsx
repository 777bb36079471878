/**
 * The workspace's webhooks (pm events, admins): add an endpoint (its signing
 * secret shown once), pause or resume, send a test, remove; each endpoint's
 * delivery log and its dead letters (deliveries that ran out of retries),
 * any of which can be delivered again.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useId, useState } from "react"
import { useParams } from "react-router"
import { client } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { SecretOnce } from "../common/SecretOnce.tsx"
import { when } from "../common/time.ts"
import { useWorkspaceRole } from "../common/useMe.ts"

const Deliveries = ({
  workspaceId,
  webhookId,
  dead
}: {
  readonly workspaceId: string
  readonly webhookId: string
  readonly dead: boolean
}) => {
  const queryClient = useQueryClient()
  const key = ["pm", "webhook-deliveries", webhookId, dead]
  const path = { workspaceId, webhookId }
  const deliveries = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(
        client.GET("/pm/v1/workspaces/{workspaceId}/webhooks/{webhookId}/deliveries", {
          params: { path, query: dead ? { status: "dead" } : {} }
        })
      )
  })
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        client.POST("/pm/v1/workspaces/{workspaceId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", {
          params: { path: { ...path, deliveryId } }
        })
      ),
    onSuccess: () => {
      announce("Delivery queued again")
      void queryClient.invalidateQueries({ queryKey: ["pm", "webhook-deliveries", webhookId] })
    }
  })
  const caption = dead ? "Dead letters" : "Delivery log"
  if (deliveries.isPending) return <Loading what={caption.toLowerCase()} />
  if (deliveries.isError) return <ErrorMessage error={deliveries.error} what={caption} />
  if (deliveries.data.items.length === 0) return <p className="muted">{dead ? "No dead letters." : "Nothing delivered yet."}</p>
  return (
    <div className="table-scroll">
      <table className="table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.data.items.map((delivery) => (
            <tr key={delivery.id}>
              <td>{delivery.eventType}</td>
              <td>{delivery.status}</td>
              <td>{String(delivery.attempts)}</td>
              <td>{delivery.lastStatus !== null ? String(delivery.lastStatus) : (delivery.lastError ?? "—")}</td>
              <td>{when(delivery.createdAt)}</td>
              <td>
                <button type="button" onClick={() => redeliver.mutate(delivery.id)} aria-label={`Deliver ${delivery.eventType} again`}>
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {redeliver.isError ? <ErrorMessage error={redeliver.error} /> : null}
    </div>
  )
}

export const Webhooks = () => {
  const workspaceId = useParams().workspaceId!
  const queryClient = useQueryClient()
  const { isAdmin } = useWorkspaceRole(workspaceId)
  const key = ["pm", "webhooks", workspaceId]
  const path = { workspaceId }
  const hooks = useQuery({
    queryKey: key,
    queryFn: () => unwrap(client.GET("/pm/v1/workspaces/{workspaceId}/webhooks", { params: { path } })),
    enabled: isAdmin
  })
  const [url, setUrl] = useState("")
  const [events, setEvents] = useState("")
  const [secret, setSecret] = useState<string | null>(null)
  const [open, setOpen] = useState<{ readonly id: string; readonly dead: boolean } | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: key })
  const create = useMutation({
    mutationFn: () => {
      const eventTypes = events
        .split(/[\s,]+/)
        .map((type) => type.trim())
        .filter((type) => type !== "")
      return unwrap(client.POST("/pm/v1/workspaces/{workspaceId}/webhooks", { params: { path }, body: { url, eventTypes } }))
    },
    onSuccess: (created) => {
      setUrl("")
      setEvents("")
      setSecret(created.secret)
      void refresh()
    }
  })
  const update = useMutation({
    mutationFn: ({ id, status }: { id: string; status: "active" | "paused" }) =>
      unwrap(
        client.PATCH("/pm/v1/workspaces/{workspaceId}/webhooks/{webhookId}", {
          params: { path: { workspaceId, webhookId: id } },
          body: { status }
        })
      ),
    onSuccess: refresh
  })
  const test = useMutation({
    mutationFn: (id: string) =>
      unwrap(
        client.POST("/pm/v1/workspaces/{workspaceId}/webhooks/{webhookId}/test", { params: { path: { workspaceId, webhookId: id } } })
      ),
    onSuccess: (delivery) => {
      announce("Test event queued")
      void queryClient.invalidateQueries({ queryKey: ["pm", "webhook-deliveries", delivery.endpointId] })
    }
  })
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(client.DELETE("/pm/v1/workspaces/{workspaceId}/webhooks/{webhookId}", { params: { path: { workspaceId, webhookId: id } } })),
    onSuccess: refresh
  })
  const ids = useId()
  const failure = create.error ?? update.error ?? test.error ?? remove.error
  if (!isAdmin) {
    return (
      <section aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading">Webhooks</h2>
        <p>Only workspace admins manage webhooks. Your own meeting webhooks are under Meetings → My webhooks.</p>
      </section>
    )
  }
  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <form
        className="stack panel"
        onSubmit={(event) => {
          event.preventDefault()
          create.mutate()
        }}
      >
        <label>
          Endpoint URL{" "}
          <input
            type="url"
            value={url}
            onChange={(event) => setUrl(event.currentTarget.value)}
            required
            placeholder="https://example.com/hooks"
          />
        </label>
        <label>
          Event types <input value={events} onChange={(event) => setEvents(event.currentTarget.value)} aria-describedby={`${ids}-events`} />
        </label>
        <p id={`${ids}-events`} className="muted small">
          Comma-separated, e.g. task.created, task.updated; empty: every event.
        </p>
        <button type="submit" disabled={create.isPending}>
          Add webhook
        </button>
      </form>
      {secret ? <SecretOnce label="Webhook signing secret" secret={secret} onDone={() => setSecret(null)} /> : null}
      {failure ? <ErrorMessage error={failure} /> : null}
      {hooks.isPending ? <Loading what="webhooks" /> : null}
      {hooks.isError ? <ErrorMessage error={hooks.error} what="Webhooks" /> : null}
      {hooks.data && hooks.data.items.length === 0 ? <p>No webhooks yet.</p> : null}
      <ul className="card-list">
        {hooks.data?.items.map((hook) => (
          <li key={hook.id} className="card">
            <h3 className="card-title mono">{hook.url}</h3>
            <p className="muted small">
              {hook.status}
              {hook.disabledReason ? ` (${hook.disabledReason})` : ""} ·{" "}
              {hook.eventTypes.length === 0 ? "every event" : hook.eventTypes.join(", ")}
            </p>
            <div className="row wrap">
              {hook.status !== "disabled" ? (
                <button
                  type="button"
                  onClick={() => update.mutate({ id: hook.id, status: hook.status === "active" ? "paused" : "active" })}
                >
                  {hook.status === "active" ? "Pause" : "Resume"}
                </button>
              ) : null}
              <button type="button" onClick={() => test.mutate(hook.id)}>
                Send test
              </button>
              <button
                type="button"
                aria-expanded={open?.id === hook.id && !open.dead}
                onClick={() => setOpen(open?.id === hook.id && !open.dead ? null : { id: hook.id, dead: false })}
              >
                Delivery log
              </button>
              <button
                type="button"
                aria-expanded={open?.id === hook.id && open.dead}
                onClick={() => setOpen(open?.id === hook.id && open.dead ? null : { id: hook.id, dead: true })}
              >
                Dead letters
              </button>
              <button type="button" className="danger" onClick={() => remove.mutate(hook.id)} aria-label={`Remove webhook ${hook.url}`}>
                Remove
              </button>
            </div>
            {open?.id === hook.id ? <Deliveries workspaceId={workspaceId} webhookId={hook.id} dead={open.dead} /> : null}
          </li>
        ))}
      </ul>
    </section>
  )
}
