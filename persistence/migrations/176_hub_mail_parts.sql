-- Mail with an HTML part and extra headers (notification e-mails: List-Unsubscribe, RFC 8058).
ALTER TABLE hub_mail_outbox ADD COLUMN body_html text;
ALTER TABLE hub_mail_outbox ADD COLUMN headers jsonb;
