-- The feedback board's "desk": bug reports, milestones and their articles,
-- changelog entries, the moderation queue and log, private feedback and
-- public form submissions. Written only by the board's FeedbackDesk actor
-- (one per board), each change with its moderation/log rows in one
-- transaction. Board, request, status and level rows are the Board actor's.

CREATE TABLE feedback_bug_reports (
  id text PRIMARY KEY,
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  number integer NOT NULL,                      -- shown as B-<number>, per board
  title text NOT NULL,
  steps text NOT NULL DEFAULT '',
  expected text NOT NULL DEFAULT '',
  actual text NOT NULL DEFAULT '',
  environment jsonb NOT NULL DEFAULT '{}',      -- {browser, os, device, appVersion, url}
  severity_level_id text,
  bug_status_level_id text,
  category_id text,
  reporter_id text,                             -- null: submitted through the public form
  reporter_email text,                          -- never shown publicly
  reporter_name text,
  assignee_id text,
  attachment_ids jsonb NOT NULL DEFAULT '[]',
  moderation text NOT NULL DEFAULT 'approved',  -- pending | approved | declined
  spam boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  UNIQUE (board_id, number)
);
CREATE INDEX feedback_bug_reports_workspace ON feedback_bug_reports (workspace_id, number);

CREATE TABLE feedback_bug_history (
  id text PRIMARY KEY,
  bug_report_id text NOT NULL REFERENCES feedback_bug_reports (id) ON DELETE CASCADE,
  field text NOT NULL,                          -- statusLevel | severityLevel | assignee
  from_value text,
  to_value text,
  changed_by text NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_bug_history_report ON feedback_bug_history (bug_report_id, changed_at);

CREATE TABLE feedback_bug_comments (
  id text PRIMARY KEY,
  bug_report_id text NOT NULL REFERENCES feedback_bug_reports (id) ON DELETE CASCADE,
  board_id text NOT NULL,
  author_id text NOT NULL,
  body text NOT NULL,
  internal boolean NOT NULL DEFAULT false,      -- team-only note, never public
  moderation text NOT NULL DEFAULT 'approved',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_bug_comments_report ON feedback_bug_comments (bug_report_id, created_at);

CREATE TABLE feedback_milestones (
  id text PRIMARY KEY,
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  date date,
  released_at timestamptz,
  article jsonb,                                -- ProseMirror JSON (the wiki's rich-text schema)
  article_updated_at timestamptz,
  article_updated_by text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_milestones_board ON feedback_milestones (board_id, date);

CREATE TABLE feedback_milestone_requests (
  milestone_id text NOT NULL REFERENCES feedback_milestones (id) ON DELETE CASCADE,
  feature_request_id text NOT NULL REFERENCES feedback_requests (id) ON DELETE CASCADE,
  added_by text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (milestone_id, feature_request_id)
);

CREATE TABLE feedback_changelog_entries (
  id text PRIMARY KEY,
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  title text NOT NULL,
  kind text NOT NULL,                           -- new | improved | fixed
  content jsonb NOT NULL,                       -- ProseMirror JSON
  state text NOT NULL,                          -- draft | scheduled | published
  publish_at timestamptz,
  published_at timestamptz,
  milestone_id text REFERENCES feedback_milestones (id) ON DELETE SET NULL,
  feature_request_ids jsonb NOT NULL DEFAULT '[]',
  notified_count integer NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_changelog_board ON feedback_changelog_entries (board_id, state, published_at DESC);

-- Spam markers a moderator set on a post or comment of any kind (the heuristic ones are computed when listed).
CREATE TABLE feedback_spam_marks (
  target_id text PRIMARY KEY,
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  kind text NOT NULL,                           -- featureRequest | comment | bugReport | bugComment
  reason text NOT NULL,
  marked_by text NOT NULL,
  marked_at timestamptz NOT NULL DEFAULT now()
);

-- Who sent what through a board's public form: the e-mail stays here (never public); ip_hash feeds the rate limit.
CREATE TABLE feedback_form_submissions (
  id text PRIMARY KEY,
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  kind text NOT NULL,                           -- featureRequest | bugReport
  target_id text,                               -- the request or report created (null: caught by the honeypot)
  email text,
  name text,
  ip_hash text NOT NULL,
  honeypot boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_form_submissions_rate ON feedback_form_submissions (board_id, ip_hash, created_at);

CREATE TABLE feedback_moderation_log (
  id text PRIMARY KEY,
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  action text NOT NULL,                         -- approve | approveAndVerify | decline | declineAndBlock | markSpam | unmarkSpam | merge | unmerge | undo
  item_id text,
  target_kind text NOT NULL,
  target_id text NOT NULL,
  author_key text,
  detail jsonb NOT NULL DEFAULT '{}',
  acted_by text NOT NULL,
  acted_at timestamptz NOT NULL DEFAULT now(),
  undone_at timestamptz,
  undone_by text
);
CREATE INDEX feedback_moderation_log_board ON feedback_moderation_log (board_id, acted_at DESC);

-- Authors a moderator verified (skip the queue) or blocked (refused), by user id or e-mail.
CREATE TABLE feedback_board_authors (
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  author_key text NOT NULL,
  standing text NOT NULL,                       -- verified | blocked
  set_by text NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (board_id, author_key)
);

CREATE TABLE feedback_private_feedback (
  id text PRIMARY KEY,
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  author_id text,
  email text,
  name text,
  title text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_private_feedback_board ON feedback_private_feedback (board_id, created_at DESC);
