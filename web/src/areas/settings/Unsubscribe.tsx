/**
 * Where a notification e-mail's "Stop …" link lands (`/unsubscribe?token=`),
 * with or without a session: it says which e-mails the link stops and stops
 * them on a click (a link checker's visit changes nothing), then points to
 * the page where every kind is chosen.
 */
import { useMutation, useQuery } from "@tanstack/react-query"
import { Link, useSearchParams } from "react-router"
import { client } from "../../api/client.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { kindNames, modeNames } from "./Notifications.tsx"
import "../common/areas.css"

const whatOf = (kind: keyof typeof kindNames | "all") => (kind === "all" ? "all notification e-mails" : `e-mails for “${kindNames[kind]}”`)

export const Unsubscribe = () => {
  const [search] = useSearchParams()
  const token = search.get("token") ?? ""
  const params = { query: { token } }
  const described = useQuery({
    queryKey: ["hub", "unsubscribe", token],
    queryFn: () => unwrap(client.GET("/hub/v1/notification-delivery/unsubscribe", { params })),
    enabled: token !== "",
    retry: false
  })
  const stop = useMutation({ mutationFn: () => unwrap(client.POST("/hub/v1/notification-delivery/unsubscribe", { params })) })
  return (
    <main id="main" className="card narrow" aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title">E-mail notifications</h1>
      {token === "" ? <p role="alert">This link has no token: open the link from the e-mail as it is.</p> : null}
      {described.isPending && token !== "" ? <Loading what="what this link stops" /> : null}
      {described.isError ? <ErrorMessage error={described.error} what="This link" /> : null}
      {described.data && !stop.data ? (
        described.data.mode === "off" ? (
          <p>You already get no {whatOf(described.data.kind)}.</p>
        ) : (
          <>
            <p>
              This link stops {whatOf(described.data.kind)}
              {described.data.kind === "all" ? "" : ` (now: ${modeNames[described.data.mode].toLowerCase()})`}.
            </p>
            <button type="button" disabled={stop.isPending} onClick={() => stop.mutate()}>
              Unsubscribe
            </button>
          </>
        )
      ) : null}
      {stop.isError ? <ErrorMessage error={stop.error} /> : null}
      <p role="status">{stop.data ? `Done: you will get no more ${whatOf(stop.data.kind)}.` : ""}</p>
      <p>
        Choose how every kind reaches you under <Link to="/">your workspace</Link> → Settings → Notifications.
      </p>
    </main>
  )
}
