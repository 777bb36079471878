/**
 * What the demo seed (Demo.ts) creates: a product space with three lists and
 * 30 tasks spread over the workflow, and a wiki space whose pages use the
 * rich text the editor shows (headings, marks, links, lists, quotes, code).
 */

/** The two demo people (Ada is the workspace's owner); both sign in with `DEMO_PASSWORD`. */
export const DEMO_EMAIL = "demo@atrium.local"
export const DEMO_SECOND_EMAIL = "ben@atrium.local"
export const DEMO_PASSWORD = "atrium-demo-password"
export const DEMO_USERS = [
  { email: DEMO_EMAIL, name: "Ada Demo" },
  { email: DEMO_SECOND_EMAIL, name: "Ben Demo" }
] as const

export interface DemoTask {
  readonly list: string
  readonly name: string
  /** Index into the list's workflow (0 = the first open status); clamped to the workflow's length. */
  readonly stage: number
  readonly priority: "urgent" | "high" | "normal" | "low"
  /** Days from the seed; absent: no due date. */
  readonly dueInDays?: number
  readonly estimateMinutes?: number
}

export const DEMO_SPACE = "Product"
export const DEMO_LISTS = ["Sprint 12", "Backlog", "Bugs"] as const

const sprint: ReadonlyArray<[string, number, DemoTask["priority"], number?, number?]> = [
  ["Sign-in page: remember the last workspace", 2, "high", 2, 120],
  ["Board: drag a card to change its status", 1, "urgent", 1, 240],
  ["Board: show who moved a card", 0, "normal", 5, 90],
  ["Editor: show collaborators' cursors with names", 1, "high", 3, 180],
  ["Editor: restore a page version", 0, "normal", 6, 120],
  ["Wiki: anchor comments to selected text", 0, "normal", 8, 240],
  ["Stream: resume with lastSeq after a drop", 2, "high", -1, 60],
  ["MCP: publish the tool list in the README", 3, "low", -2, 30],
  ["Accessibility pass on the board (keyboard moves)", 0, "high", 4, 180],
  ["Cache headers for static assets", 2, "normal", 0, 45],
  ["Empty states for lists and spaces", 0, "low", 9, 60],
  ["Dark mode colour tokens", 0, "low", undefined, 90],
  ["Onboarding checklist in the wiki", 1, "normal", 2, 60],
  ["Demo data: two users who can co-edit", 3, "normal", -3, 30]
]

const backlog: ReadonlyArray<[string, DemoTask["priority"]]> = [
  ["Feedback board: public roadmap view", "normal"],
  ["Import tasks from CSV", "low"],
  ["Recurring tasks", "normal"],
  ["Task templates per list", "low"],
  ["Sprint burndown on the dashboard", "normal"],
  ["Mentions autocomplete in comments", "high"],
  ["Wiki page templates", "low"],
  ["Offline editing in the web app", "low"],
  ["Calendar view of due dates", "normal"],
  ["Bulk edit from search results", "normal"]
]

const bugs: ReadonlyArray<[string, number, DemoTask["priority"], number]> = [
  ["Long task names overflow the board card", 0, "normal", 3],
  ["Reconnect loop when the ticket expires", 1, "urgent", 1],
  ["Pasted tables lose their header row", 0, "high", 4],
  ["Search misses words with diacritics", 0, "normal", 7],
  ["Due date shows a day early west of UTC", 2, "high", 0],
  ["Cursor label hides the first line", 3, "low", -4]
]

export const demoTasks: ReadonlyArray<DemoTask> = [
  ...sprint.map(([name, stage, priority, dueInDays, estimateMinutes]) => ({
    list: "Sprint 12",
    name,
    stage,
    priority,
    ...(dueInDays !== undefined ? { dueInDays } : {}),
    ...(estimateMinutes !== undefined ? { estimateMinutes } : {})
  })),
  ...backlog.map(([name, priority]) => ({ list: "Backlog", name, stage: 0, priority })),
  ...bugs.map(([name, stage, priority, dueInDays]) => ({ list: "Bugs", name, stage, priority, dueInDays }))
]

export const DEMO_WIKI = { key: "HB", name: "Handbook", description: "How the demo team works" } as const

export interface DemoPage {
  readonly title: string
  readonly parent?: string
  readonly markdown: string
}

export const demoPages: ReadonlyArray<DemoPage> = [
  {
    title: "Welcome",
    markdown: `# Welcome to the handbook

This space is **edited live**: open this page in two browsers (sign in as each demo user) and type in both.
Everyone's cursor shows their *name* and colour.

## Where things are

- [Onboarding](onboarding) for your first week
- Engineering practices, from branching to releases
- The **Product** space in project management holds the sprint board

> Write things down once, link to them everywhere.
`
  },
  {
    title: "Onboarding",
    markdown: `# Onboarding

Your first week, in order:

1. Read this handbook (it takes an hour)
2. Set up your laptop: see *Laptop setup*
3. Pick a task labelled **good first task** on the Sprint 12 board
4. Pair with someone on a review

---

Questions go in the comments of this page.
`
  },
  {
    title: "Laptop setup",
    parent: "Onboarding",
    markdown: `# Laptop setup

Install the tools, then clone the repository:

\`\`\`sh
git clone https://example.com/acme/atrium.git
cd atrium && npm ci && npm start -- --demo
\`\`\`

- Use Node **20** for the server
- The web app is built on first start, no network needed
- Run \`npm test\` before every push
`
  },
  {
    title: "Engineering practices",
    markdown: `# Engineering practices

## Reviews

Every change is reviewed by one person who did not write it. Reviews look for:

- correctness first, then *clarity*
- tests that fail without the change
- names that explain themselves

## Releases

1. Merge to \`main\`
2. The CI runs the whole suite, the browser tests and the MCP conformance suite
3. Tag the release and write the changelog

> A release nobody can roll back is not finished.
`
  }
]

export interface DemoMeeting {
  readonly name: string
  readonly segments: ReadonlyArray<{ readonly speaker: string; readonly startMs: number; readonly endMs: number; readonly text: string }>
}

const lines = (turns: ReadonlyArray<[string, string]>) => {
  let at = 0
  return turns.map(([speaker, text]) => {
    const startMs = at
    // About 60 ms a character: a natural speaking pace, so timelines look real.
    at += Math.max(2_000, text.length * 60)
    return { speaker, startMs, endMs: at - 200, text }
  })
}

/** Meetings the demo records (as imported transcripts): the hub turns them into summaries and action items. */
export const demoMeetings: ReadonlyArray<DemoMeeting> = [
  {
    name: "Sprint 12 planning",
    segments: lines([
      ["Ada", "Good morning. Sprint 12 is about the board and the editor; let's go through the candidates."],
      ["Ben", "Dragging a card to change its status is the most requested item from the beta group."],
      ["Ada", "Agreed, that one is urgent. I'll take the drag and drop on the board and finish it by Wednesday."],
      ["Ben", "I can do the collaborators' cursors in the editor, it needs names and colours per user."],
      ["Ada", "Good. We also promised the accessibility pass on the board, keyboard moves at least."],
      ["Ben", "Then let's move dark mode to the backlog, it is not blocking anyone."],
      ["Ada", "Decision: dark mode waits. Ben, please write the onboarding checklist in the wiki before Friday."]
    ])
  },
  {
    name: "Customer call: Northwind rollout",
    segments: lines([
      ["Ada", "Thanks for joining. How did the first two weeks with the team go?"],
      ["Ben", "Their admins like the wiki, but they lost a page version after a bad paste and want restore."],
      ["Ada", "Restoring a page version is already in Sprint 12, so we can show it at the next call."],
      ["Ben", "They also asked for a CSV import of their old tasks, about two thousand rows."],
      ["Ada", "I'll send them the import format and a sample file tomorrow."],
      ["Ben", "And I'll schedule a follow-up for the end of the month to review the rollout."]
    ])
  },
  {
    name: "Weekly bug triage",
    segments: lines([
      ["Ben", "Three new bugs this week. The stream drops when a laptop sleeps and does not resume."],
      ["Ada", "Resuming with the last sequence number should cover it; that's the stream task in the sprint."],
      ["Ben", "Second one: cache headers on static assets are missing, so every reload downloads the app."],
      ["Ada", "That's small. I'll fix the cache headers today."],
      ["Ben", "Last: empty lists show nothing at all. We need an empty state with a hint."],
      ["Ada", "Ben, can you design the empty states for lists and spaces by next week?"]
    ])
  }
]

/**
 * The sprints: the "Sprint 12" list's tasks (by name) planned into each;
 * `finished` are completed once it runs, each on its day of the sprint
 * (`[name, day]`, day 0 the first), so the burndown steps down over several
 * days and the sprint's progress is below the committed scope. "Sprint 11"
 * ran the two weeks before (`startedDaysAgo`) and completed, giving velocity
 * its first point.
 */
export const DEMO_SPRINTS = {
  previous: {
    name: "Sprint 11",
    goal: "Boards you can trust",
    startedDaysAgo: 20,
    tasks: ["Dark mode colour tokens", "Demo data: two users who can co-edit", "MCP: publish the tool list in the README"],
    finished: [
      ["Demo data: two users who can co-edit", 3],
      ["MCP: publish the tool list in the README", 9]
    ]
  },
  current: {
    name: "Sprint 12",
    goal: "The board and the editor feel live",
    startedDaysAgo: 5,
    tasks: [
      "Sign-in page: remember the last workspace",
      "Board: drag a card to change its status",
      "Board: show who moved a card",
      "Editor: show collaborators' cursors with names",
      "Editor: restore a page version",
      "Stream: resume with lastSeq after a drop",
      "Accessibility pass on the board (keyboard moves)",
      "Onboarding checklist in the wiki"
    ],
    finished: [
      ["Stream: resume with lastSeq after a drop", 0],
      ["Sign-in page: remember the last workspace", 1],
      ["Board: drag a card to change its status", 3]
    ]
  }
} as const

/**
 * Each writer's own notes for each meeting (the first writer's, then the
 * second's): the hub generates a version per participant from them, so the
 * two demo users read different summaries and enhanced notes of one call.
 */
export const demoNotes: Readonly<Record<string, readonly [string, string]>> = {
  "Sprint 12 planning": [
    "Drag and drop is mine, due Wednesday. Keyboard moves count for accessibility.",
    "Cursors with names and colours. Onboarding checklist before Friday. Dark mode moved to the backlog."
  ],
  "Customer call: Northwind rollout": [
    "Send the CSV import format and a sample file tomorrow.",
    "Northwind lost a page version after a paste: show them restore. Follow-up at the end of the month."
  ],
  "Weekly bug triage": [
    "Cache headers: fix today.",
    "Stream drops after sleep: resume with the last sequence number. Empty states by next week."
  ]
}

/**
 * The calendar series the bug triage belongs to (organized by the first
 * writer, every writer invited): the first writer sets only an occurrence
 * prompt, the second a series and an occurrence prompt, so the call's
 * versions show the combination rule ("series custom prompt: …" then
 * "occurrence custom prompt: …").
 */
export const DEMO_SERIES = {
  meeting: "Weekly bug triage",
  title: "Weekly bug triage",
  description: "New bugs, owners and severity",
  recurrence: "FREQ=WEEKLY;COUNT=12",
  minutes: 30,
  seriesPrompt: "Track every bug's owner and severity.",
  occurrencePrompt: ["Only what ships this week.", "This week: the stream drops after sleep."] as const
} as const

export interface DemoRequest {
  readonly title: string
  readonly description: string
  readonly category: string
  /** The board status it is in (the board's default workflow). */
  readonly status?: string
  /** Writers (by index) who vote for it; an index past the writers is skipped. */
  readonly voters: ReadonlyArray<number>
  readonly comments: ReadonlyArray<readonly [writer: number, text: string]>
}

/** The public feedback board: categories, requests with votes and comments, and a shipped milestone with its article. */
export const DEMO_BOARD = {
  name: "Atrium ideas",
  description: "Tell us what to build next: vote, comment, follow the roadmap.",
  categories: ["Editor", "Boards", "Integrations"],
  requests: [
    {
      title: "Restore an older version of a page",
      description: "After a bad paste we want to go back to **yesterday's** page in one click.",
      category: "Editor",
      status: "Shipped",
      voters: [0, 1],
      comments: [
        [1, "Northwind asked for this on the rollout call."],
        [0, "Shipped in Sprint 12: open the page's versions and press Restore."]
      ]
    },
    {
      title: "Dark mode",
      description: "A dark theme for late shifts.",
      category: "Editor",
      status: "Planned",
      voters: [1],
      comments: [[1, "Moved to the backlog in Sprint 12 planning; still wanted."]]
    },
    {
      title: "Import tasks from a CSV file",
      description: "About two thousand rows from our old tracker, with assignees and due dates.",
      category: "Integrations",
      status: "In progress",
      voters: [0, 1],
      comments: [[0, "The import format and a sample file are on their way."]]
    },
    {
      title: "Drag cards between board columns",
      description: "Moving a card should change its status.",
      category: "Boards",
      status: "Shipped",
      voters: [0],
      comments: []
    },
    {
      title: "Empty states for lists and spaces",
      description: "An empty list shows nothing at all; a hint would help.",
      category: "Boards",
      voters: [1],
      comments: [[0, "Designs are due next week."]]
    }
  ] satisfies ReadonlyArray<DemoRequest>,
  milestone: {
    name: "Live boards and page history",
    requests: ["Restore an older version of a page", "Drag cards between board columns"],
    article: `# Live boards and page history

Two of your most voted requests shipped:

- **Restore a page version**: open a page's versions and press *Restore*; everyone editing sees it at once.
- **Drag cards between columns**: dropping a card changes its status, live for everyone on the board.

Thanks to everyone who voted and commented.
`
  },
  changelog: {
    title: "Live boards and page history",
    kind: "new",
    markdown: "Restore any version of a wiki page, and drag cards between board columns to change their status."
  }
} as const

/** Questions the demo's Lens answers from the seeded meetings (printed by `--demo`, listed in the README). */
export const DEMO_QUESTIONS = [
  "Who will fix the cache headers?",
  "What did we decide about dark mode?",
  "Which action items have no task yet? Create them"
] as const
