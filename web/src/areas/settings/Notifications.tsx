/**
 * How notifications reach the signed-in user by e-mail, for every workspace:
 * per kind (mentions, assignments, comments… from work, wiki, feedback and meetings)
 * at once, in the morning's daily digest, in Monday's weekly one, or not at
 * all; the time zone whose 08:00 the digests keep; and the meeting e-mails
 * (recaps, action items). Each choice saves when it is made, so nothing
 * waits on a Save button.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { client } from "../../api/client.ts"
import type { components } from "../../api/generated/hub.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"

type KindDelivery = components["schemas"]["NotificationKindDelivery"]
type Kind = KindDelivery["kind"]
type Mode = KindDelivery["mode"]
type MeetingMails = components["schemas"]["HubNotificationSettings"]

export const kindNames: Readonly<Record<Kind, string>> = {
  mention: "Mentions of you",
  assignment: "Work assigned to you",
  comment: "Comments on what you watch or follow",
  status_change: "Status changes",
  request_completed: "A request you voted for or follow is completed",
  merge: "Requests merged as duplicates",
  new_request: "New feature requests",
  watching: "You were added as a watcher",
  due: "Due soon or overdue",
  shared: "A wiki page was shared with you",
  notes_ready: "Your notes of a meeting are ready"
}

export const modeNames: Readonly<Record<Mode, string>> = {
  instant: "At once",
  daily: "Daily digest",
  weekly: "Weekly digest",
  off: "Off"
}

const areaNames = { pm: "Work", wiki: "Wiki", feedback: "Feedback", hub: "Meetings" } as const

const deliveryKey = ["hub", "notification-delivery"] as const

const Kinds = () => {
  const queryClient = useQueryClient()
  const delivery = useQuery({
    queryKey: deliveryKey,
    queryFn: () => unwrap(client.GET("/hub/v1/users/me/notification-delivery"))
  })
  const change = useMutation({
    mutationFn: ({ kind, mode }: { kind: Kind; mode: Mode }) =>
      unwrap(client.PATCH("/hub/v1/users/me/notification-delivery", { body: { [kind]: mode } })),
    onSuccess: (saved, { kind, mode }) => {
      queryClient.setQueryData(deliveryKey, saved)
      announce(`${kindNames[kind]}: ${modeNames[mode]}`)
    }
  })
  if (delivery.isPending) return <Loading what="your e-mail choices" />
  if (delivery.isError) return <ErrorMessage error={delivery.error} what="E-mail choices" />
  return (
    <section aria-labelledby="delivery-heading" className="panel">
      <h2 id="delivery-heading">E-mail per kind</h2>
      <p className="muted">For every workspace you belong to. In-app notifications stay as they are.</p>
      <ul className="plain stack" aria-label="Kinds of notification">
        {delivery.data.kinds.map((kind) => (
          <li key={kind.kind} className="delivery-row">
            <label>
              {kindNames[kind.kind]}{" "}
              <select
                value={kind.mode}
                disabled={change.isPending}
                onChange={(event) => change.mutate({ kind: kind.kind, mode: event.currentTarget.value as Mode })}
              >
                {Object.entries(modeNames).map(([mode, name]) => (
                  <option key={mode} value={mode}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <span className="muted small">
              From {kind.areas.map((area) => areaNames[area]).join(", ")} · default: {modeNames[kind.default].toLowerCase()}
            </span>
          </li>
        ))}
      </ul>
      {change.isError ? <ErrorMessage error={change.error} /> : null}
    </section>
  )
}

const zones = (current: string) => {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []
  return known.includes(current) ? known : [current, ...known]
}

/** The digests come at 08:00 in the time zone of the user's settings (daily; weekly on Mondays). */
const Morning = () => {
  const queryClient = useQueryClient()
  const settings = useQuery({ queryKey: ["pm", "my-settings"], queryFn: () => unwrap(client.GET("/pm/v1/users/me/settings")) })
  const [zone, setZone] = useState<string | null>(null)
  const save = useMutation({
    mutationFn: (timezone: string) => unwrap(client.PATCH("/pm/v1/users/me/settings", { body: { timezone } })),
    onSuccess: (saved) => {
      queryClient.setQueryData(["pm", "my-settings"], saved)
      setZone(null)
      announce(`Digests now arrive at 08:00 ${saved.timezone} time`)
    }
  })
  if (settings.isPending) return <Loading what="your time zone" />
  if (settings.isError) return <ErrorMessage error={settings.error} what="Time zone" />
  const chosen = zone ?? settings.data.timezone
  return (
    <section aria-labelledby="morning-heading" className="panel">
      <h2 id="morning-heading">Morning digest</h2>
      <p>
        Daily digests arrive at 08:00 in your time zone, weekly ones on Mondays at 08:00. Now: <strong>{settings.data.timezone}</strong>.
      </p>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          save.mutate(chosen)
        }}
      >
        <label>
          Time zone for digests
          <select value={chosen} onChange={(event) => setZone(event.currentTarget.value)}>
            {zones(settings.data.timezone).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={save.isPending || chosen === settings.data.timezone}>
          Save time zone
        </button>
      </form>
      {save.isError ? <ErrorMessage error={save.error} /> : null}
    </section>
  )
}

const meetingMailNames: ReadonlyArray<readonly [keyof Omit<MeetingMails, "recapRecipients">, string]> = [
  ["recapEmail", "A recap after each of my meetings"],
  ["actionItemsEmail", "My action items from meetings"],
  ["weeklyDigest", "A weekly digest of my meetings"],
  ["sharedWithMeEmail", "Meetings shared with me"]
]

const Meetings = () => {
  const queryClient = useQueryClient()
  const key = ["hub", "my-notification-settings"]
  const mails = useQuery({ queryKey: key, queryFn: () => unwrap(client.GET("/hub/v1/users/me/settings/notifications")) })
  const change = useMutation({
    mutationFn: (patch: Partial<MeetingMails>) => unwrap(client.PATCH("/hub/v1/users/me/settings/notifications", { body: patch })),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved)
      announce("Meeting e-mails saved")
    }
  })
  if (mails.isPending) return <Loading what="your meeting e-mails" />
  if (mails.isError) return <ErrorMessage error={mails.error} what="Meeting e-mails" />
  return (
    <section aria-labelledby="meeting-mails-heading" className="panel">
      <h2 id="meeting-mails-heading">Meeting e-mails</h2>
      <fieldset>
        <legend>E-mail me</legend>
        {meetingMailNames.map(([field, name]) => (
          <label key={field} className="check">
            <input
              type="checkbox"
              checked={mails.data[field]}
              disabled={change.isPending}
              onChange={(event) => change.mutate({ [field]: event.currentTarget.checked })}
            />{" "}
            {name}
          </label>
        ))}
      </fieldset>
      {change.isError ? <ErrorMessage error={change.error} /> : null}
    </section>
  )
}

export const Notifications = () => (
  <div className="stack narrow-form">
    <Kinds />
    <Morning />
    <Meetings />
  </div>
)
