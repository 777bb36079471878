/**
 * The user's action items for a call: select some and send them as tasks to a
 * pm list (or a connected tracker, task tool or table); each sent item links to
 * the task it became. Sending again is answered with the task made the first time.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useId, useState } from "react"
import { Link } from "react-router"
import { client } from "../../api/client.ts"
import { ErrorMessage } from "../../ui/Status.tsx"
import { taskHref } from "../common/links.ts"
import { unwrap } from "../common/result.ts"
import { meetingKeys, useAllLists, useSentTasks } from "./queries.ts"

interface ActionItem {
  readonly id: string
  readonly text: string
  readonly owner?: string
  readonly dueDate?: string
  readonly status: "open" | "completed" | "dismissed"
}

const vendorTargets = ["tracker", "taskapp", "tablebase"] as const
type VendorTarget = (typeof vendorTargets)[number]
const vendorNames: Record<VendorTarget, string> = { tracker: "Issue tracker", taskapp: "Task tool", tablebase: "Table database" }

/** A sent task's link: pm tasks open in the app, vendor tasks at the vendor. */
const SentLink = ({
  workspaceId,
  target,
  externalId,
  url
}: {
  readonly workspaceId: string
  readonly target: string
  readonly externalId: string
  readonly url: string
}) =>
  target === "pm" ? (
    <Link to={taskHref(workspaceId, externalId)}>Open task</Link>
  ) : (
    <a href={url}>Open in {vendorNames[target as VendorTarget] ?? target}</a>
  )

export const ActionItems = ({
  workspaceId,
  callUuid,
  items
}: {
  readonly workspaceId: string
  readonly callUuid: string
  readonly items: ReadonlyArray<ActionItem>
}) => {
  const queryClient = useQueryClient()
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [target, setTarget] = useState("")
  const lists = useAllLists(workspaceId)
  const sent = useSentTasks(callUuid)
  const connections = useQuery({
    queryKey: ["hub", "integrations", workspaceId],
    queryFn: () => unwrap(client.GET("/hub/v1/workspaces/{workspaceId}/integrations", { params: { path: { workspaceId } } })),
    retry: false
  })
  const connectedVendors = vendorTargets.filter((vendor) => connections.data?.items.some((connection) => connection.vendor === vendor))
  const send = useMutation({
    mutationFn: () => {
      const [kind, destination] = target.split(":")
      return unwrap(
        client.POST("/hub/v1/calls/by-uuid/{callUuid}/action-items/send", {
          params: { path: { callUuid } },
          body: {
            actionItemIds: [...selected],
            target: kind as "pm" | VendorTarget,
            ...(kind === "pm" && destination ? { destination } : {})
          }
        })
      )
    },
    onSuccess: () => {
      setSelected(new Set())
      void queryClient.invalidateQueries({ queryKey: meetingKeys.sentTasks(callUuid) })
    }
  })
  const sentByItem = new Map((sent.data?.items ?? []).map((task) => [task.actionItemId, task]))
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current)
      if (on) next.add(id)
      else next.delete(id)
      return next
    })
  const formId = useId()
  const textOf = (id: string) => items.find((item) => item.id === id)?.text ?? id
  return (
    <section aria-labelledby={`${formId}-heading`} className="panel">
      <h2 id={`${formId}-heading`}>Action items</h2>
      {items.length === 0 ? <p className="muted">No action items in your version of this meeting.</p> : null}
      <ul className="action-items">
        {items.map((item) => {
          const task = sentByItem.get(item.id)
          return (
            <li key={item.id} className={`action-item action-${item.status}`}>
              <label>
                <input type="checkbox" checked={selected.has(item.id)} onChange={(event) => toggle(item.id, event.currentTarget.checked)} />
                <span>{item.text}</span>
              </label>
              <span className="muted small">
                {item.owner ? ` Owner: ${item.owner}.` : ""}
                {item.dueDate ? ` Due ${item.dueDate}.` : ""}
                {item.status !== "open" ? ` ${item.status === "completed" ? "Completed" : "Dismissed"}.` : ""}
              </span>
              {task ? (
                <span className="small">
                  {" "}
                  Sent ({task.remoteStatus ?? task.target}):{" "}
                  <SentLink workspaceId={workspaceId} target={task.target} externalId={task.externalId} url={task.url} />
                </span>
              ) : null}
            </li>
          )
        })}
      </ul>
      {items.length > 0 ? (
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault()
            send.mutate()
          }}
        >
          <label htmlFor={`${formId}-target`}>Send to</label>
          <select id={`${formId}-target`} value={target} onChange={(event) => setTarget(event.currentTarget.value)} required>
            <option value="">Choose a list…</option>
            {lists.data && lists.data.items.length > 0 ? (
              <optgroup label="Atrium lists">
                {lists.data.items.map((list) => (
                  <option key={list.id} value={`pm:${list.id}`}>
                    {list.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {connectedVendors.length > 0 ? (
              <optgroup label="Connected tools">
                {connectedVendors.map((vendor) => (
                  <option key={vendor} value={vendor}>
                    {vendorNames[vendor]}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
          <button type="submit" disabled={selected.size === 0 || target === "" || send.isPending}>
            {send.isPending ? "Sending…" : `Send ${selected.size === 0 ? "" : selected.size} selected`}
          </button>
        </form>
      ) : null}
      {lists.isError ? <ErrorMessage error={lists.error} what="Lists" /> : null}
      {send.isError ? <ErrorMessage error={send.error} what="Sending action items" /> : null}
      <div role="status">
        {send.data ? (
          <>
            <p>
              Sent {send.data.sent.length} action item{send.data.sent.length === 1 ? "" : "s"}:
            </p>
            <ul>
              {send.data.sent.map((created) => (
                <li key={created.actionItemId}>
                  {textOf(created.actionItemId)} {created.alreadySent ? "(sent before)" : ""} —{" "}
                  <SentLink workspaceId={workspaceId} target={send.data.target} externalId={created.externalId} url={created.url} />
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </section>
  )
}
