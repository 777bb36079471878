/** Settings, loaded on demand: profile, notifications, members and invitations, API keys, webhooks, integrations, workspace, billing. */
import { NavLink, Route, Routes, useParams } from "react-router"
import { ApiKeys } from "./ApiKeys.tsx"
import { Billing } from "./Billing.tsx"
import { Integrations } from "./Integrations.tsx"
import { Members } from "./Members.tsx"
import { Notifications } from "./Notifications.tsx"
import { Profile } from "./Profile.tsx"
import { Webhooks } from "./Webhooks.tsx"
import { WorkspaceSettings } from "./WorkspaceSettings.tsx"
import "../common/areas.css"

const pages = [
  { to: "", label: "Profile" },
  { to: "notifications", label: "Notifications" },
  { to: "members", label: "Members" },
  { to: "api-keys", label: "API keys" },
  { to: "webhooks", label: "Webhooks" },
  { to: "integrations", label: "Integrations" },
  { to: "workspace", label: "Workspace" },
  { to: "billing", label: "Billing" }
] as const

export const SettingsArea = () => {
  // Absolute links: inside this splat route a relative "." is the current page, so every page looked like Profile.
  const base = `/w/${useParams().workspaceId ?? ""}/settings`
  return (
    <section aria-labelledby="settings-title" className="area-page settings">
      <h1 id="settings-title">Settings</h1>
      <nav aria-label="Settings" className="area-tabs">
        {pages.map((page) => (
          <NavLink key={page.label} to={page.to === "" ? base : `${base}/${page.to}`} end={page.to === ""}>
            {page.label}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route index element={<Profile />} />
        <Route path="notifications" element={<Notifications />} />
        <Route path="members" element={<Members />} />
        <Route path="api-keys" element={<ApiKeys />} />
        <Route path="webhooks" element={<Webhooks />} />
        <Route path="integrations" element={<Integrations />} />
        <Route path="workspace" element={<WorkspaceSettings />} />
        <Route path="billing" element={<Billing />} />
      </Routes>
    </section>
  )
}
