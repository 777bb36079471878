/**
 * A notification e-mail: a plain-text and an HTML part saying the same, links
 * into the web app, the link to change what one receives, and the RFC 8058
 * one-click unsubscribe headers. A digest lists its entries grouped by
 * workspace, then by area.
 */
import { type Area, areaNames } from "./Kinds.ts"

export interface MailEntry {
  readonly workspaceId: string
  readonly workspaceName: string
  readonly area: Area
  readonly title: string
  readonly link: string
  readonly createdAt: string
}

export interface RenderedMail {
  readonly subject: string
  readonly text: string
  readonly html: string
  readonly headers: Record<string, string>
}

export interface MailLinks {
  readonly origin: string
  /** POST (one-click) or GET (what it would do) without a session: the `List-Unsubscribe` header's. */
  readonly unsubscribeUrl: string
  /** The web app's page a person opens from the e-mail: it says what the link stops and stops it on a click. */
  readonly unsubscribePageUrl: string
  readonly preferencesUrl: string
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")

const unsubscribeHeaders = (links: MailLinks) => ({
  "List-Unsubscribe": `<${links.unsubscribeUrl}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"
})

const footerText = (links: MailLinks, what: string) => [
  "",
  "--",
  `Change which notifications you get by e-mail: ${links.preferencesUrl}`,
  `Stop ${what}: ${links.unsubscribePageUrl}`
]

const footerHtml = (links: MailLinks, what: string) =>
  `<hr><p style="color:#666;font-size:12px"><a href="${escapeHtml(links.preferencesUrl)}">Change which notifications you get by e-mail</a> · ` +
  `<a href="${escapeHtml(links.unsubscribePageUrl)}">Stop ${escapeHtml(what)}</a></p>`

export const renderInstant = (entry: MailEntry, links: MailLinks, what: string): RenderedMail => {
  const url = `${links.origin}${entry.link}`
  return {
    subject: entry.title,
    text: [entry.title, "", `${areaNames[entry.area]} · ${entry.workspaceName}`, `Open: ${url}`, ...footerText(links, what)].join("\n"),
    html:
      `<!doctype html><html><body><p><strong>${escapeHtml(entry.title)}</strong></p>` +
      `<p>${escapeHtml(areaNames[entry.area])} · ${escapeHtml(entry.workspaceName)}</p>` +
      `<p><a href="${escapeHtml(url)}">Open in Atrium</a></p>${footerHtml(links, what)}</body></html>`,
    headers: unsubscribeHeaders(links)
  }
}

/** Entries grouped by workspace (by name), then area, each group oldest first. */
const grouped = (entries: ReadonlyArray<MailEntry>) => {
  const workspaces = new Map<string, { name: string; areas: Map<Area, Array<MailEntry>> }>()
  for (const entry of [...entries].sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
    let workspace = workspaces.get(entry.workspaceId)
    if (workspace === undefined) workspaces.set(entry.workspaceId, (workspace = { name: entry.workspaceName, areas: new Map() }))
    const list = workspace.areas.get(entry.area) ?? []
    list.push(entry)
    workspace.areas.set(entry.area, list)
  }
  return [...workspaces.values()].sort((a, b) => a.name.localeCompare(b.name))
}

export const renderDigest = (cadence: "daily" | "weekly", entries: ReadonlyArray<MailEntry>, links: MailLinks): RenderedMail => {
  const groups = grouped(entries)
  const heading = `Your ${cadence} digest: ${entries.length} update${entries.length === 1 ? "" : "s"}`
  const text: Array<string> = [heading]
  let html = `<!doctype html><html><body><h2>${escapeHtml(heading)}</h2>`
  for (const workspace of groups) {
    text.push("", `== ${workspace.name} ==`)
    html += `<h3>${escapeHtml(workspace.name)}</h3>`
    for (const [area, list] of workspace.areas) {
      text.push(`${areaNames[area]}:`)
      html += `<h4>${escapeHtml(areaNames[area])}</h4><ul>`
      for (const entry of list) {
        const url = `${links.origin}${entry.link}`
        text.push(`- ${entry.title} (${url})`)
        html += `<li><a href="${escapeHtml(url)}">${escapeHtml(entry.title)}</a></li>`
      }
      html += "</ul>"
    }
  }
  text.push(...footerText(links, "all notification e-mails"))
  html += `${footerHtml(links, "all notification e-mails")}</body></html>`
  return { subject: heading, text: text.join("\n"), html, headers: unsubscribeHeaders(links) }
}
