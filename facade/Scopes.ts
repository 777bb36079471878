/**
 * The API-key scope vocabulary. Every operation open to API keys names its
 * scopes from here (the registry checks), and keys can only be minted with
 * these. The hub's scopes are the service description's; the rest follow the
 * same `resource:read|write` pattern.
 */
export const scopes = {
  "lens:chat": "Assistant chat, exact path /lens/chat only",
  "recordings:read": "Read recordings and calls",
  "recordings:write": "Change recordings and calls; also calendar prompt changes",
  "calendar:read": "Read the key owner's calendar",
  "calendar:write": "Create, change and delete events in the key owner's calendar",
  "integrations:read": "List integration connections",
  "chat-ingestion:read": "Read chat conversations ingested into the workspace's knowledge",
  "chat-ingestion:write": "Ingest, extend and delete chat conversations in the workspace's knowledge",
  "workspace-settings:read": "Read workspace settings",
  "workspace-settings:write": "Change workspace settings",
  "workspaces:read": "Read the workspace and its members",
  "workspaces:write": "Change the workspace and its membership",
  "users:read": "Read user profiles and settings",
  "users:write": "Change the key owner's profile and settings",
  "tasks:read": "Read spaces, folders, lists, tasks, sprints, views and dashboards",
  "tasks:write": "Change spaces, folders, lists, tasks, sprints, views and dashboards",
  "notifications:read": "Read notifications",
  "notifications:write": "Mark notifications read",
  "events:subscribe": "Open live update streams (WebSocket tickets)",
  "webhooks:read": "Read the workspace's webhooks and their deliveries",
  "webhooks:write": "Create, change and test the workspace's webhooks",
  "automations:read": "Read automation rules and their runs",
  "automations:write": "Create, change and run automation rules",
  "whiteboards:read": "Read whiteboards and their comments",
  "whiteboards:write": "Change whiteboards, comments and templates",
  "wiki:read": "Read wiki spaces, pages, comments and attachments",
  "wiki:write": "Change wiki spaces, pages, comments and attachments",
  "wiki:admin": "Manage wiki permissions and settings",
  "feedback:read": "Read boards, feature requests and bug reports",
  "feedback:write": "Post and change feedback, votes and comments",
  "feedback:moderate": "Moderate boards"
} as const satisfies Record<string, string>

export type Scope = keyof typeof scopes

export const isScope = (value: string): value is Scope => Object.hasOwn(scopes, value)
