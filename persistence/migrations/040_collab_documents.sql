-- Collaborative documents (collab/): each document (named by its owner's id,
-- e.g. a wiki page id) is a compacted Yjs state plus the log of updates
-- appended since. Every update is appended (group commit) before the server
-- acknowledges it to the editor; compaction folds log rows into the state in
-- one transaction that holds the document row's lock.
CREATE TABLE collab_documents (
  name text PRIMARY KEY,
  -- One Yjs update holding everything compacted so far (NULL: nothing yet).
  state bytea,
  compacted_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE collab_updates (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  "update" bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX collab_updates_name ON collab_updates (name, id);
