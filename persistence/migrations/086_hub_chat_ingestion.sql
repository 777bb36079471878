-- Third-party chat conversations ingested into a workspace's knowledge (the
-- assistant indexes them later). One document per (workspace, source,
-- external id): ingesting it again replaces its messages.
CREATE TABLE hub_chat_documents (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  source text NOT NULL,
  external_id text NOT NULL,
  channel text,
  title text NOT NULL,
  url text,
  ingested_by text NOT NULL,
  message_count integer NOT NULL DEFAULT 0,
  first_message_at timestamptz,
  last_message_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, source, external_id)
);
CREATE INDEX hub_chat_documents_recent ON hub_chat_documents (workspace_id, updated_at DESC, id);

CREATE TABLE hub_chat_messages (
  document_id text NOT NULL REFERENCES hub_chat_documents (id) ON DELETE CASCADE,
  position integer NOT NULL,
  external_id text,
  author text NOT NULL,
  author_email text,
  sent_at timestamptz NOT NULL,
  text text NOT NULL,
  PRIMARY KEY (document_id, position)
);
CREATE UNIQUE INDEX hub_chat_messages_external ON hub_chat_messages (document_id, external_id) WHERE external_id IS NOT NULL;
