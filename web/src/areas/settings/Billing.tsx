/** The workspace's plan, seats, this period's usage and invoices. */
import { useQuery } from "@tanstack/react-query"
import { useParams } from "react-router"
import { client } from "../../api/client.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { day } from "../common/time.ts"
import { useWorkspaceRole } from "../common/useMe.ts"

const money = (cents: number | string) =>
  new Intl.NumberFormat(undefined, { style: "currency", currency: "USD" }).format(Number(cents) / 100)

export const Billing = () => {
  const workspaceId = useParams().workspaceId!
  const { role, isAdmin } = useWorkspaceRole(workspaceId)
  const path = { workspaceId }
  const overview = useQuery({
    queryKey: ["hub", "billing", workspaceId],
    enabled: isAdmin,
    queryFn: () => unwrap(client.GET("/hub/v1/workspaces/{workspaceId}/billing", { params: { path } }))
  })
  const usage = useQuery({
    queryKey: ["hub", "billing-usage", workspaceId],
    enabled: isAdmin,
    queryFn: () => unwrap(client.GET("/hub/v1/workspaces/{workspaceId}/billing/usage", { params: { path } }))
  })
  const invoices = useQuery({
    queryKey: ["hub", "invoices", workspaceId],
    enabled: isAdmin,
    queryFn: () => unwrap(client.GET("/hub/v1/workspaces/{workspaceId}/billing/invoices", { params: { path } }))
  })
  if (role !== undefined && !isAdmin) {
    return (
      <section aria-labelledby="billing-heading">
        <h2 id="billing-heading">Billing</h2>
        <p>Only workspace admins see the plan, usage and invoices.</p>
      </section>
    )
  }
  return (
    <section aria-labelledby="billing-heading">
      <h2 id="billing-heading">Billing</h2>
      {overview.isPending ? <Loading what="billing" /> : null}
      {overview.isError ? <ErrorMessage error={overview.error} what="Billing" /> : null}
      {overview.data ? (
        <dl className="facts">
          <dt>Plan</dt>
          <dd>
            {overview.data.plan.name} ({money(overview.data.plan.pricePerSeatCents)} per seat)
          </dd>
          <dt>Status</dt>
          <dd>
            {overview.data.subscription.status}
            {overview.data.subscription.cancelAtPeriodEnd ? ", ends at the end of the period" : ""}
          </dd>
          <dt>Seats</dt>
          <dd>
            {String(overview.data.seats.used)} used
            {overview.data.seats.seats !== null ? ` of ${String(overview.data.seats.seats)}` : ""} (plan allows{" "}
            {String(overview.data.plan.minSeats)}–{String(overview.data.plan.maxSeats)})
          </dd>
          {overview.data.subscription.currentPeriodEnd ? (
            <>
              <dt>Period ends</dt>
              <dd>{day(overview.data.subscription.currentPeriodEnd)}</dd>
            </>
          ) : null}
          <dt>Includes</dt>
          <dd>{overview.data.plan.features.join(", ")}</dd>
        </dl>
      ) : null}
      <h3>This period</h3>
      {usage.isError ? <ErrorMessage error={usage.error} what="Usage" /> : null}
      {usage.data ? (
        <dl className="facts">
          <dt>Recordings</dt>
          <dd>{String(usage.data.recordings)}</dd>
          <dt>Recorded minutes</dt>
          <dd>{String(usage.data.recordedMinutes)}</dd>
        </dl>
      ) : null}
      <h3>Invoices</h3>
      {invoices.isError ? <ErrorMessage error={invoices.error} what="Invoices" /> : null}
      {invoices.data && invoices.data.items.length === 0 ? <p className="muted">No invoices.</p> : null}
      {invoices.data && invoices.data.items.length > 0 ? (
        <div className="table-scroll">
          <table className="table">
            <caption className="visually-hidden">Invoices</caption>
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Status</th>
                <th scope="col">Due</th>
                <th scope="col">Paid</th>
              </tr>
            </thead>
            <tbody>
              {invoices.data.items.map((invoice) => (
                <tr key={invoice.id}>
                  <td>{invoice.number}</td>
                  <td>{invoice.status}</td>
                  <td>{money(invoice.amountDueCents)}</td>
                  <td>{money(invoice.amountPaidCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  )
}
