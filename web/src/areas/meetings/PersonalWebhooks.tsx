/**
 * The user's own webhooks (`meeting.processed` when a meeting they attended is
 * ready): add one (its signing secret shown once), pause or resume, remove,
 * and see recent deliveries, replaying one.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { Link, useParams } from "react-router"
import { client } from "../../api/client.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { SecretOnce } from "../common/SecretOnce.tsx"
import { when } from "../common/time.ts"
import { meetingKeys } from "./queries.ts"

export const PersonalWebhooks = () => {
  const workspaceId = useParams().workspaceId
  const queryClient = useQueryClient()
  const hooks = useQuery({ queryKey: meetingKeys.webhooks, queryFn: () => unwrap(client.GET("/hub/v1/users/me/webhooks")) })
  const refresh = () => queryClient.invalidateQueries({ queryKey: meetingKeys.webhooks })
  const [url, setUrl] = useState("")
  const [secret, setSecret] = useState<string | null>(null)
  const create = useMutation({
    mutationFn: () => unwrap(client.POST("/hub/v1/users/me/webhooks", { body: { url } })),
    onSuccess: (created) => {
      setUrl("")
      setSecret(created.secret)
      void refresh()
    }
  })
  const update = useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      unwrap(client.PATCH("/hub/v1/users/me/webhooks/{webhookId}", { params: { path: { webhookId: id } }, body: { enabled } })),
    onSuccess: refresh
  })
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(client.DELETE("/hub/v1/users/me/webhooks/{webhookId}", { params: { path: { webhookId: id } } })),
    onSuccess: refresh
  })
  const replay = useMutation({
    mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }) =>
      unwrap(
        client.POST("/hub/v1/users/me/webhooks/{webhookId}/deliveries", { params: { path: { webhookId: id } }, body: { deliveryId } })
      ),
    onSuccess: refresh
  })
  const failure = create.error ?? update.error ?? remove.error ?? replay.error
  return (
    <section aria-labelledby="hooks-heading" className="area-page">
      <header className="area-header">
        {workspaceId ? (
          <p className="breadcrumb">
            <Link to={`/w/${workspaceId}/meetings`}>Meetings</Link>
          </p>
        ) : null}
        <h1 id="hooks-heading">My webhooks</h1>
        <p className="muted">Your endpoints get a signed `meeting.processed` event when a meeting you attended is ready.</p>
      </header>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          create.mutate()
        }}
      >
        <label htmlFor="hook-url">Endpoint URL</label>
        <input
          id="hook-url"
          type="url"
          required
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
          placeholder="https://example.com/hooks/atrium"
        />
        <button type="submit" disabled={create.isPending}>
          Add webhook
        </button>
      </form>
      {secret ? <SecretOnce label="Signing secret" secret={secret} onDone={() => setSecret(null)} /> : null}
      {failure ? <ErrorMessage error={failure} /> : null}
      {hooks.isPending ? <Loading what="your webhooks" /> : null}
      {hooks.isError ? <ErrorMessage error={hooks.error} what="Webhooks" /> : null}
      {hooks.data && hooks.data.items.length === 0 ? <p>No webhooks yet.</p> : null}
      <ul className="card-list">
        {hooks.data?.items.map((hook) => (
          <li key={hook.id} className="card">
            <h2 className="card-title mono">{hook.url}</h2>
            <p className="muted small">
              {hook.enabled ? "Active" : `Paused${hook.disabledReason ? `: ${hook.disabledReason}` : ""}`} · events:{" "}
              {hook.eventTypes.join(", ")}
            </p>
            <div className="row">
              <button
                type="button"
                onClick={() => update.mutate({ id: hook.id, enabled: !hook.enabled })}
                aria-label={`${hook.enabled ? "Pause" : "Resume"} ${hook.url}`}
              >
                {hook.enabled ? "Pause" : "Resume"}
              </button>
              <button type="button" className="danger" onClick={() => remove.mutate(hook.id)} aria-label={`Remove ${hook.url}`}>
                Remove
              </button>
            </div>
            {hook.recentDeliveries.length > 0 ? (
              <table className="table">
                <caption>Recent deliveries</caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">When</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {hook.recentDeliveries.map((delivery) => (
                    <tr key={delivery.id}>
                      <td>{delivery.eventType}</td>
                      <td>
                        {delivery.status}
                        {delivery.lastStatusCode ? ` (${delivery.lastStatusCode})` : ""}
                        {delivery.lastError ? ` ${delivery.lastError}` : ""}
                      </td>
                      <td>{String(delivery.attempts)}</td>
                      <td>{when(delivery.createdAt)}</td>
                      <td>
                        <button type="button" onClick={() => replay.mutate({ id: hook.id, deliveryId: delivery.id })}>
                          Replay
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}
