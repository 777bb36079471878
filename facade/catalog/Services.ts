/** The four services: names, purposes, base paths and tags, as the service description gives them. */
import type { ServiceName } from "../Operation.ts"
import { feedbackTags, hubTags, pmTags, type TagInfo, wikiTags } from "./Tags.ts"

export interface ServiceInfo {
  readonly service: ServiceName
  readonly name: string
  readonly description: string
  readonly basePath: string
  readonly tags: ReadonlyArray<TagInfo>
}

export const services: Readonly<Record<ServiceName, ServiceInfo>> = {
  hub: {
    service: "hub",
    name: "Workspace hub",
    description: "Workspace settings, integrations, members, call recordings and transcripts, and conversational assistant chat",
    basePath: "/hub",
    tags: hubTags
  },
  pm: {
    service: "pm",
    name: "Project management",
    description: "Task tracking, workspaces, spaces, lists, sprints, automations, dashboards, team management",
    basePath: "/pm",
    tags: pmTags
  },
  wiki: {
    service: "wiki",
    name: "Wiki",
    description: "Wiki pages, spaces, comments, attachments, real-time collaboration, content management",
    basePath: "/wiki",
    tags: wikiTags
  },
  feedback: {
    service: "feedback",
    name: "Feedback board",
    description: "Feedback boards, feature requests, bug reports, changelog milestones, moderation",
    basePath: "/feedback",
    tags: feedbackTags
  }
}

export const serviceNames: ReadonlyArray<ServiceName> = ["hub", "pm", "wiki", "feedback"]
