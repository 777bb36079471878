-- Feedback boards: a board and its workflow configuration (categories, product
-- areas, statuses with a type, bug status levels, severity levels), feature
-- requests with a per-board short id counter, status history, votes (one per
-- voter key), threaded comments, subscribers, attachments, merges (kept so a
-- merge can be undone), notification preferences, notifications and the
-- board's change log. The Board actor is the only writer of a board's rows.
CREATE TABLE feedback_boards (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  name text NOT NULL,
  slug text NOT NULL,
  description text NOT NULL DEFAULT '',
  visibility text NOT NULL,                          -- public | members | private
  who_may_post text NOT NULL DEFAULT 'anyone',        -- anyone | members | admins
  who_may_vote text NOT NULL DEFAULT 'anyone',        -- anyone | members
  anonymous_voting boolean NOT NULL DEFAULT false,
  moderation boolean NOT NULL DEFAULT false,
  allow_comments boolean NOT NULL DEFAULT true,
  anonymous_votes_per_hour integer NOT NULL DEFAULT 20, -- per IP and board
  next_request_number integer NOT NULL DEFAULT 0,     -- FR-<n>
  next_bug_number integer NOT NULL DEFAULT 0,         -- B-<n> (bug reports)
  archived_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX feedback_boards_slug ON feedback_boards (workspace_id, slug);
CREATE INDEX feedback_boards_by_slug ON feedback_boards (slug);

CREATE TABLE feedback_board_members (
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  role text NOT NULL,                                 -- admin | member
  added_by text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (board_id, user_id)
);

-- Categories, product areas, statuses, bug status levels, severity levels: one shape, told apart by `kind`.
CREATE TABLE feedback_options (
  id text PRIMARY KEY,
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  kind text NOT NULL,                                 -- category | product_area | status | bug_status | severity
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  color text NOT NULL DEFAULT '#6b7280',
  status_type text,                                   -- statuses: open | under_review | planned | in_progress | shipped | declined
  is_default boolean NOT NULL DEFAULT false,          -- statuses: new requests start here
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX feedback_options_name ON feedback_options (board_id, kind, lower(name));

CREATE TABLE feedback_requests (
  id text PRIMARY KEY,
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  number integer NOT NULL,
  title text NOT NULL,
  description jsonb NOT NULL,                         -- ProseMirror JSON (collab/RichText.ts)
  description_markdown text NOT NULL DEFAULT '',      -- as the author wrote it (or rendered from the JSON they gave)
  description_text text NOT NULL DEFAULT '',          -- plain text, for search
  category_id text REFERENCES feedback_options (id) ON DELETE SET NULL,
  product_area_id text REFERENCES feedback_options (id) ON DELETE SET NULL,
  status_id text REFERENCES feedback_options (id) ON DELETE SET NULL,
  owner_id text,
  author_id text,                                     -- null: submitted anonymously
  author_name text,
  vote_count integer NOT NULL DEFAULT 0,              -- = rows in feedback_votes, kept by the board actor
  comment_count integer NOT NULL DEFAULT 0,
  merged_into text REFERENCES feedback_requests (id),
  merged_at timestamptz,
  moderation_state text NOT NULL DEFAULT 'approved',  -- approved | pending | declined
  pinned boolean NOT NULL DEFAULT false,
  locked boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX feedback_requests_number ON feedback_requests (board_id, number);
CREATE INDEX feedback_requests_author ON feedback_requests (author_id);
CREATE INDEX feedback_requests_merged ON feedback_requests (merged_into);

CREATE TABLE feedback_status_history (
  id text PRIMARY KEY,
  request_id text NOT NULL REFERENCES feedback_requests (id) ON DELETE CASCADE,
  from_status_id text,
  to_status_id text,
  from_name text,
  to_name text,
  note text NOT NULL DEFAULT '',
  changed_by text NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_status_history_request ON feedback_status_history (request_id, changed_at);

-- One row per (request, voter). voter_key: `user:<id>`, `email:<address>` (a customer voted for by a team
-- member) or `anon:<fingerprint>`.
CREATE TABLE feedback_votes (
  id text PRIMARY KEY,
  request_id text NOT NULL REFERENCES feedback_requests (id) ON DELETE CASCADE,
  board_id text NOT NULL,
  voter_key text NOT NULL,
  user_id text,
  customer_email text,
  customer_name text,
  cast_by text,                                       -- the team member who voted on the customer's behalf
  anonymous_fingerprint text,
  ip_hash text,
  merged_from text,                                   -- moved here by merging this request
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX feedback_votes_voter ON feedback_votes (request_id, voter_key);
CREATE INDEX feedback_votes_ip ON feedback_votes (board_id, ip_hash, created_at) WHERE ip_hash IS NOT NULL;
CREATE INDEX feedback_votes_user ON feedback_votes (user_id);

CREATE TABLE feedback_comments (
  id text PRIMARY KEY,
  request_id text NOT NULL REFERENCES feedback_requests (id) ON DELETE CASCADE,
  board_id text NOT NULL,
  parent_id text REFERENCES feedback_comments (id) ON DELETE CASCADE,
  author_id text,
  author_name text,
  body text NOT NULL,
  internal boolean NOT NULL DEFAULT false,            -- team-only note
  mentions jsonb NOT NULL DEFAULT '[]',
  moderation_state text NOT NULL DEFAULT 'approved',
  edited_at timestamptz,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_comments_request ON feedback_comments (request_id, created_at);

CREATE TABLE feedback_subscribers (
  request_id text NOT NULL REFERENCES feedback_requests (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  merged_from text,                                   -- moved here by merging this request
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (request_id, user_id)
);

CREATE TABLE feedback_board_subscribers (
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (board_id, user_id)
);

CREATE TABLE feedback_attachments (
  id text PRIMARY KEY,
  board_id text NOT NULL,
  request_id text REFERENCES feedback_requests (id) ON DELETE CASCADE,
  filename text NOT NULL,
  content_type text NOT NULL,
  size integer NOT NULL,
  blob_key text NOT NULL,
  uploaded_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_attachments_request ON feedback_attachments (request_id);

-- What a merge changed, so it can be undone.
CREATE TABLE feedback_merges (
  id text PRIMARY KEY,
  board_id text NOT NULL,
  source_id text NOT NULL REFERENCES feedback_requests (id) ON DELETE CASCADE,
  target_id text NOT NULL REFERENCES feedback_requests (id) ON DELETE CASCADE,
  previous_status_id text,
  moved_votes jsonb NOT NULL,                         -- vote ids moved to the target
  duplicate_votes jsonb NOT NULL,                     -- votes of voters already on the target: the rows, deleted
  moved_subscribers jsonb NOT NULL,                   -- user ids moved to the target
  merged_by text NOT NULL,
  merged_at timestamptz NOT NULL DEFAULT now(),
  undone_by text,
  undone_at timestamptz
);
CREATE INDEX feedback_merges_source ON feedback_merges (source_id);

CREATE TABLE feedback_notification_preferences (
  user_id text NOT NULL,
  board_id text NOT NULL REFERENCES feedback_boards (id) ON DELETE CASCADE,
  mode text NOT NULL,                                 -- instant | digest | off
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, board_id)
);

CREATE TABLE feedback_notifications (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  workspace_id text NOT NULL,
  board_id text NOT NULL,
  request_id text,
  reason text NOT NULL,                               -- new_request | status_changed | commented | mentioned | merged | shipped
  title text NOT NULL,
  delivery text NOT NULL,                             -- instant | digest
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz
);
CREATE INDEX feedback_notifications_user ON feedback_notifications (user_id, created_at);

-- The board's change log: every write appends here in its transaction (activity, moderation log, live updates).
CREATE TABLE feedback_events (
  seq bigserial PRIMARY KEY,
  board_id text NOT NULL,
  workspace_id text NOT NULL,
  type text NOT NULL,
  entity_id text NOT NULL,
  data jsonb NOT NULL,
  actor_id text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_events_board ON feedback_events (board_id, seq);
CREATE INDEX feedback_events_entity ON feedback_events (entity_id, seq);
